/**
 * The on-disk SSTable format: writer, reader, chunk cache and per-table manifest. Internal: not
 * public API; the engine (flush, read path, compaction) is the only intended caller.
 *
 * <p>Threading: {@link dev.talus.sstable.SSTableWriter} is single-threaded; {@link
 * dev.talus.sstable.SSTableReader}, {@link dev.talus.sstable.ChunkCache} and {@link
 * dev.talus.sstable.Manifest} are thread-safe. Every checksum, magic, version or truncation failure
 * surfaces as {@link dev.talus.io.CorruptFileException} naming the file and byte offset. The format
 * is specified in {@code docs/file-format.md}.
 */
package dev.talus.sstable;
