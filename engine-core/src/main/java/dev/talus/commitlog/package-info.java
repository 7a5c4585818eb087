/**
 * The commit log: an append-only, checksummed record of every mutation before it reaches a
 * memtable, replayed at open to rebuild what was not yet flushed. The format, the sync modes and
 * their promises, replay and the failure policy are described in {@code docs/durability.md} and in
 * {@link dev.talus.commitlog.CommitLog}.
 *
 * <p>Internal: not part of the Talus public API. Payload-agnostic: records are opaque bytes tagged
 * with the ids of the tables they touch.
 */
package dev.talus.commitlog;
