/**
 * The database: one open data directory's lifecycle (lock, open, close, simulated crash), its table
 * registry, background jobs and commit-log replay — and the seam the public API reaches the engine
 * through ({@link dev.talus.db.Database}, {@link dev.talus.db.TableHandle}), where damaged stored
 * bytes become public exceptions ({@link dev.talus.db.Corruption}). {@link
 * dev.talus.db.StorageHook} is the non-public way for test support to install another file layer.
 *
 * <p>Internal: not part of the Talus public API; it may change without notice.
 */
package dev.talus.db;
