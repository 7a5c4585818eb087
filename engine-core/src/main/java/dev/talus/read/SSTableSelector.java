package dev.talus.read;

import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import dev.talus.data.Slice;
import dev.talus.memtable.MemPartition;
import dev.talus.sstable.SSTableReader;
import dev.talus.table.TableMetrics;
import dev.talus.table.TableView;
import dev.talus.table.ViewTracker;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Chooses the sources one read of one partition merges: the memtables holding the key, and the
 * SSTables whose key range holds it and whose Bloom filter and partition index find it, each
 * referenced so a compaction cannot delete it under the read. Stateless.
 */
final class SSTableSelector {
  private SSTableSelector() {}

  /**
   * The sources of one partition for a read of {@code slice}. An SSTable whose rows all lie outside
   * the slice and that holds no partition or range deletion cannot change the result and is not
   * looked at (Cassandra skips SSTables by clustering range the same way).
   */
  static ReadSnapshot snapshot(
      ViewTracker tracker, TableMetrics metrics, PartitionKey key, Slice slice) {
    while (true) {
      TableView v = tracker.current();
      List<SSTableReader> refs = referenced(v, key, slice);
      if (refs != null) {
        return select(v, refs, metrics, key, refs);
      }
      // a compaction replaced a file meanwhile; take the new view
    }
  }

  /**
   * The SSTables of view {@code v} that may hold {@code key} for a read of {@code slice}, each
   * referenced; null (with nothing referenced) if one was released meanwhile.
   */
  static List<SSTableReader> referenced(TableView v, PartitionKey key, Slice slice) {
    List<SSTableReader> refs = new ArrayList<>();
    for (SSTableReader r : v.sstables()) {
      if (key.compareTo(r.firstKey()) < 0 || key.compareTo(r.lastKey()) > 0) {
        continue;
      }
      if (slice != Slice.ALL && slice != Slice.ROWS && outsideClusteringRange(r, slice)) {
        continue;
      }
      if (!r.tryRef()) {
        refs.forEach(SSTableReader::release);
        return null;
      }
      refs.add(r);
    }
    return refs;
  }

  /**
   * The sources of one partition of a scan's page ({@link ScanKeys}): the memtables holding the
   * key, and the partitions {@code held} (per SSTable of view {@code v}, null where it does not
   * hold the key) that {@code slice} may need. The caller holds references on the view's SSTables;
   * the returned snapshot releases nothing. No Bloom filter or index is consulted: the scan's merge
   * of the partition indexes already found the key in exactly these SSTables.
   */
  static ReadSnapshot held(
      TableView v, TableMetrics metrics, PartitionKey key, Slice slice, PartitionData[] held) {
    List<PartitionData> sources = memtableSources(v, key);
    Map<PartitionData, Long> generations = new IdentityHashMap<>();
    SSTableReader first = null;
    for (int i = 0; i < held.length; i++) {
      PartitionData d = held[i];
      if (d == null) {
        continue;
      }
      SSTableReader r = v.sstables().get(i);
      if (slice != Slice.ALL && slice != Slice.ROWS && outsideClusteringRange(r, slice)) {
        continue;
      }
      sources.add(d);
      generations.put(d, r.generation());
      if (first == null) {
        first = r;
      } else if (generations.size() == 2) {
        metrics.chargeSeek(first); // the read merges more than one SSTable
      }
    }
    return new ReadSnapshot(sources, List.of(), generations);
  }

  /** The memtables' partitions of {@code key}, newest first. */
  private static List<PartitionData> memtableSources(TableView v, PartitionKey key) {
    List<PartitionData> sources = new ArrayList<>();
    MemPartition p = v.active().get(key);
    if (p != null) {
      sources.add(p);
    }
    for (int i = v.flushing().size() - 1; i >= 0; i--) {
      MemPartition f = v.flushing().get(i).get(key);
      if (f != null) {
        sources.add(f);
      }
    }
    return sources;
  }

  private static ReadSnapshot select(
      TableView v,
      List<SSTableReader> refs,
      TableMetrics metrics,
      PartitionKey key,
      List<SSTableReader> owned) {
    List<PartitionData> sources = memtableSources(v, key);
    Map<PartitionData, Long> generations = new IdentityHashMap<>();
    SSTableReader first = null;
    try {
      for (SSTableReader r : refs) {
        metrics.bloomLookup();
        if (r.mayContain(key)) {
          PartitionData d = r.partition(key);
          if (d != null) {
            sources.add(d);
            generations.put(d, r.generation());
            if (first == null) {
              first = r;
            } else if (generations.size() == 2) {
              metrics.chargeSeek(first); // the read merges more than one SSTable
            }
          } else {
            metrics.bloomFalsePositive();
          }
        }
      }
    } catch (RuntimeException e) {
      owned.forEach(SSTableReader::release);
      throw e;
    }
    return new ReadSnapshot(sources, owned, generations);
  }

  private static boolean outsideClusteringRange(SSTableReader r, Slice slice) {
    return r.clusteringsOutside(slice);
  }
}
