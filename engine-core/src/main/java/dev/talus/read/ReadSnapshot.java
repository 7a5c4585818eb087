package dev.talus.read;

import dev.talus.data.PartitionData;
import dev.talus.sstable.SSTableReader;
import java.util.List;
import java.util.Map;

/**
 * The sources one read of one partition merges, with a reference held on every SSTable among them
 * so compaction cannot delete a file under the read. Close it (once) to release them. Not
 * thread-safe.
 */
final class ReadSnapshot implements AutoCloseable {
  private final List<PartitionData> sources;
  private final List<SSTableReader> referenced;
  private final Map<PartitionData, Long> generations;
  private boolean closed;

  ReadSnapshot(
      List<PartitionData> sources,
      List<SSTableReader> referenced,
      Map<PartitionData, Long> generations) {
    this.sources = sources;
    this.referenced = referenced;
    this.generations = generations;
  }

  /** The SSTable generation a source came from, or -1 for a memtable. */
  long generationOf(PartitionData source) {
    return generations.getOrDefault(source, -1L);
  }

  List<PartitionData> sources() {
    return sources;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (SSTableReader r : referenced) {
      r.release();
    }
  }
}
