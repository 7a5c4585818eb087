/**
 * The Talus public API: an embedded wide-column storage engine with Cassandra's data model. Open a
 * {@link dev.talus.TalusDb} on a data directory, create {@link dev.talus.Table}s from a {@link
 * dev.talus.TableSchema}, write with {@link dev.talus.Insert}, {@link dev.talus.Update}, {@link
 * dev.talus.Delete} and {@link dev.talus.Batch}, read with {@link dev.talus.Select}. This package
 * is the whole API; every other package is internal and may change without notice.
 *
 * <h2>Design priorities</h2>
 *
 * Correct stored data first (checksums on every file, a commit log replayed after a crash, atomic
 * swaps of immutable files), then Cassandra's semantics (last-write-wins cells, tombstones, TTL,
 * gc_grace, the query-first rules), then speed. Every "now" comes from the clock in {@link
 * dev.talus.TalusOptions}, so tests move a {@link dev.talus.ManualClock} instead of sleeping.
 *
 * <h2>Threading</h2>
 *
 * <ul>
 *   <li>{@link dev.talus.TalusDb} and {@link dev.talus.Table} are thread-safe: any number of
 *       threads may read and write at once, and reads never block on writes, flushes or
 *       compactions.
 *   <li>The statement builders ({@link dev.talus.Insert}, {@link dev.talus.Update}, {@link
 *       dev.talus.Delete}, {@link dev.talus.Select}, {@link dev.talus.Batch}) are not: build and
 *       execute each on one thread.
 *   <li>Values (schemas, options, result sets and rows, statistics, stored-partition records,
 *       paging states) are immutable and thread-safe.
 *   <li>The database runs its own threads — flushes, compactions, the commit log's sync thread,
 *       parallel reads of {@code IN} partitions — named after the data directory and their job;
 *       none outlives {@link dev.talus.TalusDb#close()}. Nothing is static: many databases may be
 *       open in one JVM, on different directories.
 * </ul>
 *
 * <h2>What must be closed</h2>
 *
 * Only {@link dev.talus.TalusDb}: it holds the directory lock, open files and threads. {@code
 * close()} is idempotent, waits for work in flight, and does not flush (the commit log holds every
 * acknowledged write; the next open replays it). Tables, statements and results hold no resources
 * and need no closing; they stop working when their database is closed.
 *
 * <h2>Ownership</h2>
 *
 * What the API returns belongs to the caller: results and records are immutable snapshots that do
 * not change when the database does later, and a {@code byte[]} read from a row is a fresh copy.
 * What the caller hands in is read when the statement executes: a {@code byte[]} given to a builder
 * must not change before then, and is not kept after.
 *
 * <h2>Exceptions</h2>
 *
 * Every exception is unchecked and a {@link dev.talus.TalusException}, whose subclass names the
 * kind of failure and whose message says what was wrong and what to do:
 *
 * <ul>
 *   <li>{@link dev.talus.InvalidQueryException} and {@link dev.talus.InvalidSchemaException}: a
 *       statement, schema or option broke a rule; nothing was stored.
 *   <li>{@link dev.talus.WriteRejectedException} and {@link dev.talus.GuardrailViolationException}:
 *       a write was refused before anything was stored (too large, memory full, a partition
 *       guardrail); {@link dev.talus.TombstoneOverwhelmingException}: a read scanned too many
 *       tombstones.
 *   <li>{@link dev.talus.CorruptDataException} (with {@link dev.talus.CorruptSSTableException} and
 *       {@link dev.talus.CorruptCommitLogException}): stored bytes failed a check; it names the
 *       file and the offset, and no data that failed a check is ever returned.
 *   <li>{@link dev.talus.StorageException}: a file could not be read or written; a write that
 *       raised it was not acknowledged.
 *   <li>{@link dev.talus.WriteTimeoutException}: a write waited longer than the write timeout for
 *       the commit log (a stalling disk); {@code logged()} says whether nothing was written or the
 *       write will be applied, whole, once its fsync completes.
 *   <li>{@link dev.talus.DirectoryLockedException}: the directory is open elsewhere; {@link
 *       dev.talus.TalusClosedException}: use after close.
 * </ul>
 */
package dev.talus;
