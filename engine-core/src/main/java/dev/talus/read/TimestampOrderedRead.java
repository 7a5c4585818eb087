package dev.talus.read;

import dev.talus.ColumnDef;
import dev.talus.TableSchema;
import dev.talus.data.ClusteringBytes;
import dev.talus.data.DeletionTime;
import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import dev.talus.memtable.MemPartition;
import dev.talus.request.Restriction;
import dev.talus.schema.KeyCodec;
import dev.talus.sstable.SSTableReader;
import dev.talus.table.TableMetrics;
import dev.talus.table.TableView;
import dev.talus.table.ViewTracker;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sources of a read of named rows, gathered newest first: the memtables, then the SSTables in
 * descending order of their newest timestamp, stopping before an SSTable that cannot change the
 * result. The full merge of all sources and the merge of the gathered ones give the same rows
 * (Cassandra's {@code SinglePartitionReadCommand.queryMemtableAndSSTablesInTimestampOrder} reads
 * named clusterings the same way).
 *
 * <p>An SSTable whose newest timestamp is {@code M} cannot change a named row once, from the
 * sources already gathered, either a deletion covering the row (partition, range or row deletion)
 * is newer than {@code M} — it deletes everything the SSTable holds for the row and outranks its
 * deletions — or the row's marker and a cell of every regular column of the table (live, expired or
 * a tombstone) are all newer than {@code M}: each wins its reconciliation and no deletion of the
 * SSTable reaches it, and since every column is known, so is whether the row has live data. Every
 * column, not only the selected ones, because a row with an expired marker and null selected cells
 * still exists when another of its columns is live.
 *
 * <p>Only reads whose rows are all named (every clustering column restricted by equality or IN) on
 * tables without static, collection, user-type or counter columns and without dropped columns take
 * this path; the others merge every source. Tombstones in the SSTables left out are not counted
 * towards the read's tombstone thresholds, as in Cassandra. Each gathered source is read once: its
 * rows and deletions for the named rows are kept ({@link Gathered}) and the merge reads those.
 * Stateless.
 */
final class TimestampOrderedRead {
  private TimestampOrderedRead() {}

  /**
   * The ids of the table's regular columns when {@code plan} names single rows of a table this path
   * serves, or null. The plan's slices are then one per named row.
   */
  static int[] applies(KeyCodec keys, QueryPlanner.Plan plan) {
    TableSchema s = keys.schema();
    if (plan.scan() != null
        || plan.resume().after() != null
        || keys.hasDropped()
        || s.isCounterTable()
        || !s.staticColumns().isEmpty()
        || !plan.request().tupleRestrictions().isEmpty()) {
      return null;
    }
    for (ColumnDef c : s.regularColumns()) {
      if (c.type().isMultiCell()) {
        return null;
      }
    }
    for (ColumnDef c : s.clustering()) {
      int n = 0;
      for (var r : plan.request().restrictions()) {
        if (r.column().equals(c.name())) {
          if (r.op() != Restriction.Op.EQ && r.op() != Restriction.Op.IN) {
            return null;
          }
          n++;
        }
      }
      if (n != 1) {
        return null;
      }
    }
    for (QueryPlanner.Filter f : plan.filters()) {
      if (f.column().kind() == ColumnDef.Kind.CLUSTERING) {
        return null;
      }
    }
    for (Slice slice : plan.slices()) {
      if (rowOf(s, slice) == null) {
        return null;
      }
    }
    int[] ids = new int[s.regularColumns().size()];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = keys.regularId(s.regularColumns().get(i).name());
    }
    return ids;
  }

  /**
   * The one row a slice of a named clustering holds ({@code prefix BEFORE} to {@code prefix
   * AFTER}), or null if the slice has another shape.
   */
  static byte[] rowOf(TableSchema s, Slice slice) {
    if (s.clustering().isEmpty()) {
      return slice.equals(Slice.ROWS) ? ClusteringBytes.EMPTY_ROW : null;
    }
    byte[] a = slice.start();
    byte[] b = slice.end();
    int n = a.length;
    if (n < 2
        || b.length != n
        || a[n - 1] != ClusteringBytes.BEFORE
        || b[n - 1] != ClusteringBytes.AFTER
        || !Arrays.equals(a, 0, n - 1, b, 0, n - 1)) {
      return null;
    }
    byte[] row = Arrays.copyOf(a, n);
    row[n - 1] = ClusteringBytes.ROW_END;
    return row;
  }

  /**
   * The referenced sources of the named rows of {@code slices} (one row each, see {@link #applies})
   * in one partition, gathered newest first until the rest cannot change them.
   */
  static ReadSnapshot snapshot(
      ViewTracker tracker,
      TableMetrics metrics,
      PartitionKey key,
      TableSchema schema,
      List<Slice> slices,
      int[] regularIds) {
    Slice cover = Slices.cover(slices);
    while (true) {
      TableView v = tracker.current();
      List<SSTableReader> refs = SSTableSelector.referenced(v, key, cover);
      if (refs == null) {
        continue; // a compaction replaced a file meanwhile; take the new view
      }
      try {
        return gather(v, refs, metrics, key, schema, slices, regularIds);
      } catch (RuntimeException e) {
        refs.forEach(SSTableReader::release);
        throw e;
      }
    }
  }

  private static ReadSnapshot gather(
      TableView v,
      List<SSTableReader> refs,
      TableMetrics metrics,
      PartitionKey key,
      TableSchema schema,
      List<Slice> slices,
      int[] regularIds) {
    Progress progress = new Progress(schema, slices, regularIds);
    List<PartitionData> sources = new ArrayList<>();
    MemPartition p = v.active().get(key);
    if (p != null) {
      sources.add(progress.add(p));
    }
    for (int i = v.flushing().size() - 1; i >= 0; i--) {
      MemPartition f = v.flushing().get(i).get(key);
      if (f != null) {
        sources.add(progress.add(f));
      }
    }
    // the Bloom filters first: a missing partition costs no ordering
    List<SSTableReader> newestFirst = new ArrayList<>(refs.size());
    for (SSTableReader r : refs) {
      metrics.bloomLookup();
      if (r.mayContain(key)) {
        newestFirst.add(r);
      }
    }
    Map<PartitionData, Long> generations = new IdentityHashMap<>();
    if (newestFirst.size() > 1) {
      newestFirst.sort((a, b) -> Long.compare(b.stats().maxTimestamp(), a.stats().maxTimestamp()));
    }
    SSTableReader first = null;
    for (SSTableReader r : newestFirst) {
      if (progress.complete(r.stats().maxTimestamp())) {
        break; // this SSTable and every older one cannot change the rows
      }
      if (!progress.mayBeIn(r, key)) {
        continue; // its row filter rules out every named row and any deletion of the partition
      }
      PartitionData d = r.partition(key);
      if (d != null) {
        PartitionData g = progress.add(d);
        sources.add(g);
        generations.put(g, r.generation());
        if (first == null) {
          first = r;
        } else if (generations.size() == 2) {
          metrics.chargeSeek(first); // the read merges more than one SSTable
        }
      } else {
        metrics.bloomFalsePositive();
      }
    }
    return new ReadSnapshot(sources, refs, generations);
  }

  /** What the sources gathered so far tell about each named row. Not thread-safe. */
  private static final class Progress {
    private final List<Slice> slices;
    private final byte[][] rows;
    private long[] rowHashes; // the row filters' hashes of rows, once an SSTable is asked
    private final int[] regularIds;
    private final Row[] merged;
    private final DeletionTime[] deletions;
    private final boolean[] unsure;
    private DeletionTime partitionDeletion = DeletionTime.LIVE;

    Progress(TableSchema schema, List<Slice> slices, int[] regularIds) {
      this.slices = slices;
      this.regularIds = regularIds;
      this.rows = new byte[slices.size()][];
      for (int i = 0; i < rows.length; i++) {
        rows[i] = rowOf(schema, slices.get(i));
      }
      this.merged = new Row[rows.length];
      this.deletions = new DeletionTime[rows.length];
      this.unsure = new boolean[rows.length];
      Arrays.fill(deletions, DeletionTime.LIVE);
    }

    /** False if {@code r}'s row filter rules out every named row of partition {@code key}. */
    boolean mayBeIn(SSTableReader r, PartitionKey key) {
      if (rowHashes == null) {
        rowHashes = new long[rows.length];
        for (int i = 0; i < rows.length; i++) {
          rowHashes[i] = SSTableReader.rowHash(rows[i]);
        }
      }
      for (long h : rowHashes) {
        if (r.mayContainRow(key, h)) {
          return true;
        }
      }
      return false;
    }

    /** Reads what {@code source} holds for the named rows once; returns it as a source. */
    PartitionData add(PartitionData source) {
      partitionDeletion = partitionDeletion.max(source.partitionDeletion());
      List<Gathered.Part> parts = new ArrayList<>(rows.length);
      for (int i = 0; i < rows.length; i++) {
        Slice slice = slices.get(i);
        var tombstones = source.rangeTombstones(slice);
        for (var t : tombstones) {
          if (t.covers(rows[i])) {
            deletions[i] = deletions[i].max(t.deletion());
          }
        }
        List<Row> found = new ArrayList<>(1);
        var it = source.rows(slice, false);
        while (it.hasNext()) {
          Row r = it.next();
          found.add(r);
          if (Arrays.equals(r.clustering(), rows[i])) {
            merged[i] = merged[i] == null ? r : Row.merge(merged[i], r);
          } else {
            // not the named row (cannot happen for a slice of a full clustering): never stop early
            unsure[i] = true;
          }
        }
        parts.add(new Gathered.Part(slice, tombstones, found));
      }
      return new Gathered(source, parts);
    }

    /** True if no source whose newest timestamp is {@code maxTimestamp} can change any row. */
    boolean complete(long maxTimestamp) {
      for (int i = 0; i < rows.length; i++) {
        if (!complete(i, maxTimestamp)) {
          return false;
        }
      }
      return true;
    }

    private boolean complete(int i, long maxTimestamp) {
      if (unsure[i]) {
        return false;
      }
      Row r = merged[i];
      DeletionTime d = partitionDeletion.max(deletions[i]);
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
  }
}
