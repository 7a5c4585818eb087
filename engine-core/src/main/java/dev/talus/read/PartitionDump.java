package dev.talus.read;

import dev.talus.ColumnDef;
import dev.talus.InvalidQueryException;
import dev.talus.StoredPartition;
import dev.talus.TableSchema;
import dev.talus.codec.ComplexCodec;
import dev.talus.data.Cell;
import dev.talus.data.ClusteringBytes;
import dev.talus.data.ComplexDeletion;
import dev.talus.data.DeletionTime;
import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import dev.talus.memtable.MemPartition;
import dev.talus.memtable.Memtable;
import dev.talus.schema.Columns;
import dev.talus.schema.KeyCodec;
import dev.talus.table.TableStore;
import dev.talus.table.TableView;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * What every memtable and SSTable of a table holds for one partition, tombstones and shadowed data
 * included, newest source first: a read of the sources without the merge, for inspecting tombstone
 * and TTL behaviour. Read-only; thread-safe.
 */
public final class PartitionDump {
  private final TableStore table;

  public PartitionDump(TableStore table) {
    this.table = table;
  }

  /** What every source holds for the partition with these key values, newest source first. */
  public List<StoredPartition> dump(List<Object> partitionKeyValues) {
    TableSchema schema = table.schema();
    if (partitionKeyValues.size() != schema.partitionKey().size()) {
      throw new InvalidQueryException(
          "dump of "
              + schema.name()
              + " needs "
              + schema.partitionKey().size()
              + " partition key value(s), got "
              + partitionKeyValues.size());
    }
    Object[] values = new Object[partitionKeyValues.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = Columns.keyValue(schema, schema.partitionKey().get(i), partitionKeyValues.get(i));
    }
    return dump(table.keys().partitionKey(values));
  }

  private List<StoredPartition> dump(PartitionKey key) {
    List<StoredPartition> out = new ArrayList<>();
    TableView v = table.tracker().current();
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
    try (ReadSnapshot snapshot =
        SSTableSelector.snapshot(table.tracker(), table.metrics(), key, Slice.ALL)) {
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
    KeyCodec keys = table.keys();
    List<StoredPartition.StoredCell> cells = new ArrayList<>();
    for (Cell c : r.cells()) {
      ColumnDef col = keys.storedColumn(c.column());
      StoredPartition.CellKind kind =
          c.isTombstone()
              ? StoredPartition.CellKind.TOMBSTONE
              : c.isExpiring() ? StoredPartition.CellKind.EXPIRING : StoredPartition.CellKind.LIVE;
      Object value = null;
      Object element = null;
      if (c.hasPath() && col.type().isMultiCell()) {
        ComplexCodec codec = ComplexCodec.of(col.type());
        element = codec.pathValue(c.path());
        if (kind != StoredPartition.CellKind.TOMBSTONE) {
          value = codec.cellValue(c.path(), c.value());
        }
      } else if (kind != StoredPartition.CellKind.TOMBSTONE) {
        value = keys.regularCodec(c.column()).deserialize(c.value());
      }
      cells.add(
          new StoredPartition.StoredCell(
              col.name(),
              value,
              c.timestamp(),
              c.ttl(),
              kind == StoredPartition.CellKind.LIVE ? null : c.localDeletionTime(),
              kind,
              element));
    }
    List<StoredPartition.CollectionDeletion> cds = new ArrayList<>();
    for (ComplexDeletion d : r.complexDeletions()) {
      cds.add(
          new StoredPartition.CollectionDeletion(
              keys.storedColumn(d.column()).name(), deletion(d.deletion())));
    }
    var l = r.liveness();
    return new StoredPartition.StoredRow(
        r.isStatic() ? List.of() : Arrays.asList(keys.decodeClustering(r.clustering())),
        l.isEmpty() ? null : l.timestamp(),
        l.isEmpty() || !l.isExpiring() ? null : l.localExpirationTime(),
        deletion(r.deletion()),
        cells,
        r.isStatic(),
        cds);
  }

  /** A bound as text: the prefix values and whether it sits before or after them. */
  private String describeBound(byte[] bound) {
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
