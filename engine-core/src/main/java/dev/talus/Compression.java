package dev.talus;

/** How SSTable data chunks are compressed. Chosen per table. */
public enum Compression {
  /** LZ4: fast to write and read; the default, as in Cassandra. */
  LZ4,
  /** Zstandard: denser, slower to write. */
  ZSTD,
  /** No compression; chunks are still checksummed. */
  NONE
}
