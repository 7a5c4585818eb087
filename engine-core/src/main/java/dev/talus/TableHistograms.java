package dev.talus;

/**
 * Partition size and cell count distributions over a table's live SSTables, like {@code nodetool
 * tablehistograms}. Watch the max, not the mean. Immutable.
 *
 * @param partitionSizeBytes serialized partition sizes (per SSTable fragment of a partition)
 * @param cellCount cells per partition (per SSTable fragment)
 */
public record TableHistograms(Percentiles partitionSizeBytes, Percentiles cellCount) {}
