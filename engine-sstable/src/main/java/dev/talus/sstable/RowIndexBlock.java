package dev.talus.sstable;

/**
 * One row-index entry of a wide partition: the first and last clustering of a run of rows and where
 * the run lies, relative to the partition's start in the Data stream. Immutable.
 */
record RowIndexBlock(byte[] first, byte[] last, long offset, long width) {}
