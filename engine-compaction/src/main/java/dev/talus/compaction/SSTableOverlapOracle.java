package dev.talus.compaction;

import dev.talus.data.PartitionKey;
import dev.talus.sstable.SSTableReader;
import java.util.Collection;
import java.util.function.ToLongFunction;

/**
 * {@link OverlapOracle} over SSTable readers and a memtable function: key range first (cheap), then
 * the Bloom filter, then the SSTable's minimum timestamp. Immutable and thread-safe.
 */
final class SSTableOverlapOracle implements OverlapOracle {
  private final SSTableReader[] readers;
  private final PartitionKey[] firstKeys;
  private final PartitionKey[] lastKeys;
  private final long[] minTimestamps;
  private final ToLongFunction<PartitionKey> memtables;

  SSTableOverlapOracle(Collection<SSTableReader> others, ToLongFunction<PartitionKey> memtables) {
    int n = others.size();
    this.readers = others.toArray(new SSTableReader[0]);
    this.firstKeys = new PartitionKey[n];
    this.lastKeys = new PartitionKey[n];
    this.minTimestamps = new long[n];
    for (int i = 0; i < n; i++) {
      firstKeys[i] = readers[i].firstKey();
      lastKeys[i] = readers[i].lastKey();
      // an SSTable that exists must hold purging back even if all it holds is at MAX_VALUE
      minTimestamps[i] = Math.min(readers[i].stats().minTimestamp(), Long.MAX_VALUE - 1);
    }
    this.memtables = memtables;
  }

  @Override
  public long maxPurgeableTimestamp(PartitionKey key) {
    long min = memtables.applyAsLong(key);
    for (int i = 0; i < readers.length; i++) {
      if (minTimestamps[i] < min
          && firstKeys[i].compareTo(key) <= 0
          && key.compareTo(lastKeys[i]) <= 0
          && readers[i].mayContain(key)) {
        min = minTimestamps[i];
      }
    }
    return min;
  }

  @Override
  public String toString() {
    return "SSTableOverlapOracle{sstables=" + readers.length + "}";
  }
}
