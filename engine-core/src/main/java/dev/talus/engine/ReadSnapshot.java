package dev.talus.engine;

import dev.talus.data.PartitionData;
import dev.talus.sstable.SSTableReader;
import java.util.List;

/**
 * The sources one read of one partition merges, with a reference held on every SSTable among them
 * so compaction cannot delete a file under the read. Close it (once) to release them. Not
 * thread-safe.
 */
final class ReadSnapshot implements AutoCloseable {
  private final List<PartitionData> sources;
  private final List<SSTableReader> referenced;
  private boolean closed;

  ReadSnapshot(List<PartitionData> sources, List<SSTableReader> referenced) {
    this.sources = sources;
    this.referenced = referenced;
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
