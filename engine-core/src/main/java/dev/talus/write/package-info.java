/**
 * The write path: {@link dev.talus.write.WritePipeline}, one pipeline for a single write and a
 * batch (timestamp, validate, guardrails, reserve memory, log, apply, after-write), the validation
 * that turns a request into an update, the commit-log record format, and the engine-wide memtable
 * space.
 *
 * <p>Internal: not part of the Talus public API; it may change without notice.
 */
package dev.talus.write;
