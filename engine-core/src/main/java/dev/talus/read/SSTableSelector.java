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
        return select(v, refs, metrics, key);
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
      if (outsideClusteringRange(r, slice)) {
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
    Sources sources = new Sources(v, key, metrics);
    for (int i = 0; i < held.length; i++) {
      SSTableReader r = v.sstables().get(i);
      if (held[i] != null && !outsideClusteringRange(r, slice)) {
        sources.add(r, held[i]);
      }
    }
    return sources.snapshot(List.of());
  }

  /**
   * The sources among the referenced {@code refs} that hold {@code key}; they release {@code refs}.
   */
  private static ReadSnapshot select(
      TableView v, List<SSTableReader> refs, TableMetrics metrics, PartitionKey key) {
    Sources sources = new Sources(v, key, metrics);
    try {
      for (SSTableReader r : refs) {
        metrics.bloomLookup();
        if (r.mayContain(key)) {
          PartitionData d = r.partition(key);
          if (d != null) {
            sources.add(r, d);
          } else {
            metrics.bloomFalsePositive();
          }
        }
      }
    } catch (RuntimeException e) {
      refs.forEach(SSTableReader::release);
      throw e;
    }
    return sources.snapshot(refs);
  }

  /** Whether {@code r} can be left out of a read of {@code slice} (see {@link #snapshot}). */
  private static boolean outsideClusteringRange(SSTableReader r, Slice slice) {
    return slice != Slice.ALL && slice != Slice.ROWS && r.clusteringsOutside(slice);
  }

  /**
   * One read's sources as they are chosen: the memtables' partitions of the key (newest first),
   * then the SSTables' with the generation each came from; a read that merges a second SSTable
   * charges the first a seek (what seek-triggered compaction counts).
   */
  private static final class Sources {
    private final List<PartitionData> list = new ArrayList<>();
    private final Map<PartitionData, Long> generations = new IdentityHashMap<>();
    private final TableMetrics metrics;
    private SSTableReader first;

    Sources(TableView v, PartitionKey key, TableMetrics metrics) {
      this.metrics = metrics;
      MemPartition p = v.active().get(key);
      if (p != null) {
        list.add(p);
      }
      for (int i = v.flushing().size() - 1; i >= 0; i--) {
        MemPartition f = v.flushing().get(i).get(key);
        if (f != null) {
          list.add(f);
        }
      }
    }

    void add(SSTableReader r, PartitionData d) {
      list.add(d);
      generations.put(d, r.generation());
      if (first == null) {
        first = r;
      } else if (generations.size() == 2) {
        metrics.chargeSeek(first); // the read merges more than one SSTable
      }
    }

    ReadSnapshot snapshot(List<SSTableReader> owned) {
      return new ReadSnapshot(list, owned, generations);
    }
  }
}
