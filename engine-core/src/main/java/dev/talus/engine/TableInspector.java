package dev.talus.engine;

import dev.talus.ColumnDef;
import dev.talus.Percentiles;
import dev.talus.SSTableSummary;
import dev.talus.StoredPartition;
import dev.talus.TableHistograms;
import dev.talus.TableSchema;
import dev.talus.codec.TypeCodec;
import dev.talus.data.Cell;
import dev.talus.data.ClusteringBytes;
import dev.talus.data.DeletionTime;
import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import dev.talus.memtable.MemPartition;
import dev.talus.memtable.Memtable;
import dev.talus.sstable.LogHistogram;
import dev.talus.sstable.SSTableReader;
import dev.talus.sstable.SSTableStats;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * Turns a table's internal state into the public inspection records: SSTable summaries, stored
 * partitions as each source holds them, histograms. Read-only; thread-safe.
 */
final class TableInspector {
  private final TableStore table;

  TableInspector(TableStore table) {
    this.table = table;
  }

  List<SSTableSummary> sstables(long now) {
    List<SSTableSummary> out = new ArrayList<>();
    long gcBefore = now - table.schema().gcGrace().getSeconds();
    for (SSTableReader r : table.view().sstables()) {
      SSTableStats s = r.stats();
      out.add(
          new SSTableSummary(
              r.generation(),
              s.level(),
              r.onDiskSize(),
              Instant.ofEpochSecond(s.createdAtSeconds()),
              s.minTimestamp(),
              s.maxTimestamp(),
              s.minLocalDeletionTime(),
              s.maxLocalDeletionTime(),
              s.partitionCount(),
              s.rowCount(),
              s.cellCount(),
              s.tombstoneCount(),
              s.estimatedDroppableTombstones(gcBefore),
              Arrays.asList(table.keys().decodePartitionKey(r.firstKey().bytes())),
              Arrays.asList(table.keys().decodePartitionKey(r.lastKey().bytes())),
              r.firstKey().token(),
              r.lastKey().token()));
    }
    out.sort((a, b) -> Long.compare(a.generation(), b.generation()));
    return out;
  }

  TableHistograms histograms() {
    long[] sizes = new long[65];
    long[] cells = new long[65];
    for (SSTableReader r : table.view().sstables()) {
      add(sizes, r.stats().partitionSizes());
      add(cells, r.stats().cellsPerPartition());
    }
    return new TableHistograms(percentiles(sizes), percentiles(cells));
  }

  private static void add(long[] into, LogHistogram h) {
    long[] b = h.buckets();
    for (int i = 0; i < into.length && i < b.length; i++) {
      into[i] += b[i];
    }
  }

  /** Power-of-two buckets: each percentile is the upper end of its bucket. */
  private static Percentiles percentiles(long[] buckets) {
    long total = 0;
    for (long c : buckets) {
      total += c;
    }
    if (total == 0) {
      return Percentiles.EMPTY;
    }
    return new Percentiles(
        total,
        at(buckets, total, 0.50),
        at(buckets, total, 0.75),
        at(buckets, total, 0.95),
        at(buckets, total, 0.98),
        at(buckets, total, 0.99),
        at(buckets, total, 1.0));
  }

  private static long at(long[] buckets, long total, double q) {
    long target = Math.max(1, (long) Math.ceil(q * total));
    long seen = 0;
    for (int b = 0; b < buckets.length; b++) {
      seen += buckets[b];
      if (seen >= target) {
        return b == 0 ? 0 : b >= 63 ? Long.MAX_VALUE : (1L << b) - 1;
      }
    }
    return Long.MAX_VALUE;
  }

  /** What every source holds for the partition, newest source first. */
  List<StoredPartition> dump(PartitionKey key) {
    List<StoredPartition> out = new ArrayList<>();
    TableView v = table.view();
    MemPartition active = v.active().get(key);
    if (active != null) {
      out.add(stored("memtable", -1, active));
    }
    List<Memtable> flushing = v.flushing();
    for (int i = flushing.size() - 1; i >= 0; i--) {
      MemPartition p = flushing.get(i).get(key);
      if (p != null) {
        out.add(stored("memtable (flushing)", -1, p));
      }
    }
    try (ReadSnapshot snapshot = table.snapshot(key)) {
      for (PartitionData d : snapshot.sources()) {
        if (d instanceof MemPartition) {
          continue;
        }
        long gen = snapshot.generationOf(d);
        out.add(stored("sstable " + gen, gen, d));
      }
    }
    return out;
  }

  private StoredPartition stored(String source, long gen, PartitionData d) {
    List<StoredPartition.RangeDeletion> rts = new ArrayList<>();
    for (RangeTombstone t : d.rangeTombstones(Slice.ALL)) {
      rts.add(
          new StoredPartition.RangeDeletion(
              describeBound(t.start()), describeBound(t.end()), deletion(t.deletion())));
    }
    List<StoredPartition.StoredRow> rows = new ArrayList<>();
    for (Iterator<Row> it = d.rows(Slice.ALL, false); it.hasNext(); ) {
      rows.add(row(it.next()));
    }
    return new StoredPartition(source, gen, deletion(d.partitionDeletion()), rts, rows);
  }

  private static StoredPartition.Deletion deletion(DeletionTime d) {
    return d.isLive()
        ? null
        : new StoredPartition.Deletion(d.markedForDeleteAt(), d.localDeletionTime());
  }

  private StoredPartition.StoredRow row(Row r) {
    TableSchema s = table.schema();
    KeyCodec keys = table.keys();
    List<StoredPartition.StoredCell> cells = new ArrayList<>();
    for (Cell c : r.cells()) {
      ColumnDef col = s.regularColumns().get(c.column());
      TypeCodec<?> codec = keys.regularCodec(c.column());
      StoredPartition.CellKind kind =
          c.isTombstone()
              ? StoredPartition.CellKind.TOMBSTONE
              : c.isExpiring() ? StoredPartition.CellKind.EXPIRING : StoredPartition.CellKind.LIVE;
      cells.add(
          new StoredPartition.StoredCell(
              col.name(),
              kind == StoredPartition.CellKind.TOMBSTONE ? null : codec.deserialize(c.value()),
              c.timestamp(),
              c.ttl(),
              kind == StoredPartition.CellKind.LIVE ? null : c.localDeletionTime(),
              kind));
    }
    var l = r.liveness();
    return new StoredPartition.StoredRow(
        Arrays.asList(keys.decodeClustering(r.clustering())),
        l.isEmpty() ? null : l.timestamp(),
        l.isEmpty() || !l.isExpiring() ? null : l.localExpirationTime(),
        deletion(r.deletion()),
        cells);
  }

  /** A bound as text: the prefix values and whether it sits before or after them. */
  String describeBound(byte[] bound) {
    if (bound.length == 1) {
      return bound[0] == ClusteringBytes.BEFORE ? "start" : "end";
    }
    TableSchema s = table.schema();
    KeyCodec keys = table.keys();
    StringBuilder b = new StringBuilder();
    int p = 0;
    int i = 0;
    while (p < bound.length - 1 && bound[p] == ClusteringBytes.SEPARATOR) {
      p++;
      byte[] src = bound;
      int start = p;
      if (s.clustering().get(i).order() == dev.talus.ClusteringOrder.DESC) {
        src = new byte[bound.length - p];
        for (int j = 0; j < src.length; j++) {
          src[j] = (byte) ~bound[p + j];
        }
        start = 0;
      }
      int[] pos = {start};
      Object value = keys.clusteringCodec(i).decodeKey(src, pos);
      p += pos[0] - start;
      if (b.length() > 0) {
        b.append(", ");
      }
      b.append(s.clustering().get(i).name())
          .append('=')
          .append(keys.clusteringCodec(i).format(value));
      i++;
    }
    return (bound[bound.length - 1] == ClusteringBytes.BEFORE ? "before " : "after ") + b;
  }
}
