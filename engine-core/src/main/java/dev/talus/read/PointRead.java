package dev.talus.read;

import dev.talus.ColumnDef;
import dev.talus.TableSchema;
import dev.talus.data.DeletionIntervals;
import dev.talus.data.DeletionTime;
import dev.talus.data.LiveRows;
import dev.talus.data.PartitionKey;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import dev.talus.memtable.MemPartition;
import dev.talus.memtable.Memtable;
import dev.talus.schema.KeyCodec;
import dev.talus.sstable.FirstRow;
import dev.talus.sstable.SSTableReader;
import dev.talus.table.TableMetrics;
import dev.talus.table.TableView;
import dev.talus.table.ViewTracker;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/**
 * A read of one row named by its whole primary key, without the general read's partition views,
 * iterators and merge: each source is asked for that one row ({@link MemPartition#row}, {@link
 * SSTableReader#firstRow}), newest first, stopping as {@link TimestampOrderedRead} stops and
 * passing over SSTables whose row filter rules the row out ({@link SSTableReader#mayContainRow}),
 * and the versions found are reconciled and filtered to what is live exactly as the merge and
 * {@link LiveRows} would (the same partition, range and row deletions, the same tombstone counts,
 * the same sources counted). Serves the tables and read shapes {@link TimestampOrderedRead} serves;
 * {@link #read} returns null when a source holds something other than the named row (a malformed
 * slice), and the caller then takes the general path. Stateless apart from the table it reads;
 * thread-safe.
 */
final class PointRead {
  private final ViewTracker tracker;
  private final TableMetrics metrics;
  private final TableSchema schema;

  /** The ids of the table's regular columns (the completeness rule needs a cell of each). */
  private final int[] regularIds;

  private PointRead(ViewTracker tracker, TableMetrics metrics, TableSchema schema, int[] ids) {
    this.tracker = tracker;
    this.metrics = metrics;
    this.schema = schema;
    this.regularIds = ids;
  }

  /**
   * The point read of a table with these keys, or null if the table has columns the named-row path
   * does not serve (static, multi-cell, counter or dropped columns).
   */
  static PointRead of(ViewTracker tracker, TableMetrics metrics, KeyCodec keys) {
    TableSchema s = keys.schema();
    if (keys.hasDropped() || s.isCounterTable() || !s.staticColumns().isEmpty()) {
      return null;
    }
    int[] ids = new int[s.regularColumns().size()];
    for (int i = 0; i < ids.length; i++) {
      ColumnDef c = s.regularColumns().get(i);
      if (c.type().isMultiCell()) {
        return null;
      }
      ids[i] = keys.regularId(c.name());
    }
    return new PointRead(tracker, metrics, s, ids);
  }

  /**
   * True if no source can hold partition {@code key}: every SSTable whose key range holds it says
   * no through its Bloom filter (then counted as lookups; a read that goes on counts its own) and
   * no memtable has it. A read of an absent partition then costs no snapshot, plan or reference.
   * Filters stay readable after a compaction released their SSTable, so no reference is taken.
   */
  boolean certainlyAbsent(PartitionKey key) {
    TableView v = tracker.current();
    int filters = 0;
    for (SSTableReader r : v.sstables()) {
      if (key.compareTo(r.firstKey()) < 0 || key.compareTo(r.lastKey()) > 0) {
        continue;
      }
      if (r.mayContain(key)) {
        return false;
      }
      filters++;
    }
    if (v.active().get(key) != null) {
      return false;
    }
    for (Memtable m : v.flushing()) {
      if (m.get(key) != null) {
        return false;
      }
    }
    metrics.bloomLookups(filters);
    return true;
  }

  /** What a read of one named row found: the live row (or null) and the sources it merged. */
  record Result(Row row, int sourcesUsed) {}

  /**
   * The live version of the one row {@code slice} names in partition {@code key}, counting its
   * tombstones on {@code counter}; null if the general path must answer (see the class comment).
   */
  Result read(
      PartitionKey key,
      Slice slice,
      long now,
      long gcBefore,
      ReadTombstones tombstones,
      LiveRows.TombstoneCounter counter) {
    byte[] target = TimestampOrderedRead.rowOf(schema, slice);
    if (target == null) {
      return null;
    }
    while (true) {
      TableView v = tracker.current();
      List<SSTableReader> refs = SSTableSelector.referenced(v, key, slice);
      if (refs == null) {
        continue; // a compaction replaced a file meanwhile; take the new view
      }
      try {
        Versions found = new Versions(target, 2 + refs.size());
        if (!gather(v, refs, key, slice, found)) {
          return null;
        }
        return found.resolve(slice, now, gcBefore, tombstones, counter);
      } finally {
        for (SSTableReader r : refs) {
          r.release();
        }
      }
    }
  }

  /** Gathers the row's versions newest first; false if a source held another row. */
  private boolean gather(
      TableView v, List<SSTableReader> refs, PartitionKey key, Slice slice, Versions found) {
    if (!fromMemtable(v.active(), key, slice, found)) {
      return false;
    }
    for (int i = v.flushing().size() - 1; i >= 0; i--) {
      if (!fromMemtable(v.flushing().get(i), key, slice, found)) {
        return false;
      }
    }
    SSTableReader only = null;
    List<SSTableReader> candidates = null;
    long rowHash = refs.isEmpty() ? 0 : SSTableReader.rowHash(found.target);
    for (SSTableReader r : refs) {
      metrics.bloomLookup();
      if (r.mayContain(key) && r.mayContainRow(key, rowHash)) {
        if (only == null) {
          only = r;
        } else {
          if (candidates == null) {
            candidates = new ArrayList<>(refs.size());
            candidates.add(only);
          }
          candidates.add(r);
        }
      }
    }
    if (candidates == null) {
      return only == null
          || found.complete(only.stats().maxTimestamp(), regularIds)
          || fromSSTable(only, key, slice, found);
    }
    candidates.sort((a, b) -> Long.compare(b.stats().maxTimestamp(), a.stats().maxTimestamp()));
    SSTableReader first = null;
    boolean charged = false;
    for (SSTableReader r : candidates) {
      if (found.complete(r.stats().maxTimestamp(), regularIds)) {
        break; // this SSTable and every older one cannot change the row
      }
      if (!fromSSTable(r, key, slice, found)) {
        return false;
      }
      if (first == null) {
        first = r;
      } else if (!charged) {
        metrics.chargeSeek(first); // a second SSTable had to be read
        charged = true;
      }
    }
    return true;
  }

  private static boolean fromMemtable(Memtable m, PartitionKey key, Slice slice, Versions found) {
    MemPartition p = m.get(key);
    if (p == null) {
      return true;
    }
    Row r = p.row(found.target);
    List<RangeTombstone> rts = p.rangeTombstones(slice);
    return found.add(p.partitionDeletion(), rts, r, p.maxTimestamp());
  }

  private boolean fromSSTable(SSTableReader r, PartitionKey key, Slice slice, Versions found) {
    FirstRow f = r.firstRow(key, slice);
    if (f == null) {
      metrics.bloomFalsePositive();
      return true;
    }
    return found.add(f.partitionDeletion(), f.rangeTombstones(), f.row(), r.stats().maxTimestamp());
  }

  /** The versions of the named row gathered so far, and what covers them. Not thread-safe. */
  private static final class Versions {
    final byte[] target;
    private final long[] maxTimestamps;
    private final Object[] rangeTombstones;
    private int sources;
    private DeletionTime partitionDeletion = DeletionTime.LIVE;
    private DeletionTime covering = DeletionTime.LIVE;
    private Row merged;

    Versions(byte[] target, int capacity) {
      this.target = target;
      this.maxTimestamps = new long[capacity];
      this.rangeTombstones = new Object[capacity];
    }

    /** Adds one source's part; false if its row is not the named one. */
    boolean add(DeletionTime pd, List<RangeTombstone> rts, Row row, long maxTimestamp) {
      if (row != null && !Arrays.equals(row.clustering(), target)) {
        return false;
      }
      partitionDeletion = partitionDeletion.max(pd);
      for (RangeTombstone t : rts) {
        if (t.covers(target)) {
          covering = covering.max(t.deletion());
        }
      }
      if (row != null) {
        merged = merged == null ? row : Row.merge(merged, row);
      }
      maxTimestamps[sources] = maxTimestamp;
      rangeTombstones[sources] = rts;
      sources++;
      return true;
    }

    /**
     * True if no source whose newest timestamp is {@code maxTimestamp} can change the row: a
     * deletion covering it is newer, or its marker and a cell of every regular column are (see
     * {@link TimestampOrderedRead}).
     */
    boolean complete(long maxTimestamp, int[] regularIds) {
      Row r = merged;
      DeletionTime d = partitionDeletion.max(covering);
      if (r != null) {
        d = d.max(r.deletion());
      }
      if (d.markedForDeleteAt() > maxTimestamp) {
        return true;
      }
      if (r == null || r.liveness().isEmpty() || r.liveness().timestamp() <= maxTimestamp) {
        return false;
      }
      for (int id : regularIds) {
        var c = r.cell(id);
        if (c == null || c.timestamp() <= maxTimestamp) {
          return false;
        }
      }
      return true;
    }

    /**
     * What the merge of the gathered sources and {@link LiveRows} make of them: sources older than
     * the partition deletion are left out (and not counted), range deletions it covers are dropped,
     * the rest are counted as the read's range tombstones, and the reconciled row loses what the
     * deletions shadow before its own tombstones are counted.
     */
    @SuppressWarnings("unchecked")
    Result resolve(
        Slice slice,
        long now,
        long gcBefore,
        ReadTombstones counts,
        LiveRows.TombstoneCounter counter) {
      DeletionTime pd = partitionDeletion;
      int used = 0;
      List<RangeTombstone> rts = null;
      for (int i = 0; i < sources; i++) {
        if (!pd.isLive() && maxTimestamps[i] < pd.markedForDeleteAt()) {
          continue;
        }
        used++;
        for (RangeTombstone t : (List<RangeTombstone>) rangeTombstones[i]) {
          if (t.deletion().supersedes(pd)) {
            if (rts == null) {
              rts = new ArrayList<>(2);
            }
            rts.add(t);
          }
        }
      }
      DeletionTime active = pd;
      if (rts != null) {
        DeletionIntervals intervals = DeletionIntervals.of(rts);
        counts.rangeDeletions(counter, intervals.within(slice, pd));
        active = pd.max(intervals.deletionAt(target));
      }
      Row kept = merged == null ? null : merged.withoutShadowed(active);
      if (kept == null) {
        return new Result(null, used);
      }
      Iterator<Row> one = Collections.singletonList(kept).iterator();
      LiveRows live = new LiveRows(one, now, gcBefore, counter);
      return new Result(live.hasNext() ? live.next() : null, used);
    }
  }
}
