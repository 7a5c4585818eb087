package dev.talus.read;

import dev.talus.ColumnDef;
import dev.talus.ResultRow;
import dev.talus.TableSchema;
import dev.talus.codec.TypeCodec;
import dev.talus.data.Cell;
import dev.talus.data.Row;
import dev.talus.schema.KeyCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A projection compiled once per query shape: the shared {@link RowView.Shape} and, per selected
 * column, where its value comes from (partition key or clustering position, or regular column id).
 * Turns a live row into the {@link ResultRow} the user gets. Immutable and thread-safe.
 */
record Projection(
    List<ColumnDef> columns,
    RowView.Shape shape,
    ColumnDef.Kind[] kinds,
    int[] positions,
    TypeCodec<?>[] codecs) {

  static Projection compile(TableSchema schema, KeyCodec keys, List<ColumnDef> columns) {
    int n = columns.size();
    List<String> names = new ArrayList<>(n);
    ColumnDef.Kind[] kinds = new ColumnDef.Kind[n];
    int[] positions = new int[n];
    TypeCodec<?>[] codecs = new TypeCodec<?>[n];
    boolean[] primaryKey = new boolean[n];
    for (int i = 0; i < n; i++) {
      ColumnDef c = columns.get(i);
      names.add(c.name());
      primaryKey[i] = c.isPrimaryKey();
      kinds[i] = c.kind();
      switch (c.kind()) {
        case PARTITION_KEY -> positions[i] = schema.partitionKey().indexOf(c);
        case CLUSTERING -> positions[i] = schema.clustering().indexOf(c);
        case REGULAR -> {
          positions[i] = keys.regularId(c.name());
          codecs[i] = keys.regularCodec(positions[i]);
        }
      }
    }
    return new Projection(
        List.copyOf(columns), new RowView.Shape(names, primaryKey), kinds, positions, codecs);
  }

  /** The result row of {@code r} in the partition with key values {@code pkValues}. */
  ResultRow view(KeyCodec keys, Object[] pkValues, Row r, long now) {
    Object[] ck = null;
    int n = kinds.length;
    Object[] values = new Object[n];
    long[] writeTimes = null;
    int[] ttls = null;
    for (int i = 0; i < n; i++) {
      switch (kinds[i]) {
        case PARTITION_KEY -> values[i] = pkValues[positions[i]];
        case CLUSTERING -> {
          if (ck == null) {
            ck = keys.decodeClustering(r.clustering());
          }
          values[i] = ck[positions[i]];
        }
        case REGULAR -> {
          Cell cell = r.cell(positions[i]);
          if (cell != null) {
            values[i] = codecs[i].deserialize(cell.value());
            if (writeTimes == null) {
              writeTimes = new long[n];
              Arrays.fill(writeTimes, RowView.noWriteTime());
            }
            writeTimes[i] = cell.timestamp();
            if (cell.isExpiring()) {
              if (ttls == null) {
                ttls = new int[n];
                Arrays.fill(ttls, RowView.noTtl());
              }
              ttls[i] = (int) (cell.localDeletionTime() - now);
            }
          }
        }
      }
    }
    return new RowView(shape, values, writeTimes, ttls);
  }
}
