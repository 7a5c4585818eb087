package dev.talus.sstable;

import dev.talus.data.PartitionKey;
import dev.talus.data.Row;

/**
 * Told about every partition an {@link SSTableWriter} appends, right after it is written: the hook
 * where the engine measures partitions for its size guardrails (as Cassandra does at SSTable write
 * time). Called on the writing thread; must be fast and must not throw — an exception fails the
 * write of the SSTable.
 */
@FunctionalInterface
public interface PartitionObserver {
  /**
   * @param key the partition
   * @param bytes its serialized, uncompressed size in the Data component
   * @param rows rows written for it (live and deleted)
   */
  void partitionWritten(PartitionKey key, long bytes, long rows);

  /**
   * Told about each row (the static row included) as it is appended, before {@link
   * #partitionWritten} for its partition; where the engine measures collections for its collection
   * size guardrails. Does nothing by default.
   */
  default void rowWritten(PartitionKey key, Row row) {}
}
