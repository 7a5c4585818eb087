package dev.talus.read;

import dev.talus.ColumnDef;
import dev.talus.ResultRow;
import dev.talus.TableSchema;
import dev.talus.codec.ComplexCodec;
import dev.talus.codec.TypeCodec;
import dev.talus.data.Cell;
import dev.talus.data.Row;
import dev.talus.data.SimpleRow;
import dev.talus.request.Selector;
import dev.talus.schema.KeyCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A projection compiled once per query shape: the shared {@link RowView.Shape} and, per selected
 * column, where its value comes from (partition key or clustering position, regular or static
 * column id) and how it decodes (one cell, or the element cells of a non-frozen collection or user
 * type assembled). Turns a live row and the partition's live static row into the {@link ResultRow}
 * the user gets. Immutable and thread-safe.
 */
record Projection(
    List<ColumnDef> columns,
    RowView.Shape shape,
    ColumnDef.Kind[] kinds,
    int[] positions,
    TypeCodec<?>[] codecs,
    ComplexCodec[] complex,
    boolean readsStatics,
    List<Selector> selectors,
    Selections.Part[] parts) {

  static Projection compile(
      TableSchema schema, KeyCodec keys, List<ColumnDef> columns, List<Selector> selectors) {
    Selections.Part[] parts = Selections.compile(schema, keys, selectors);
    int n = columns.size() + parts.length;
    List<String> names = new ArrayList<>(n);
    ColumnDef.Kind[] kinds = new ColumnDef.Kind[n];
    int[] positions = new int[n];
    TypeCodec<?>[] codecs = new TypeCodec<?>[n];
    ComplexCodec[] complex = new ComplexCodec[n];
    boolean statics = false;
    java.util.Map<String, String> noWriteTime = new java.util.HashMap<>();
    boolean[] primaryKey = new boolean[n];
    int[] complexIds = new int[n];
    int[] udtFields = new int[n];
    Arrays.fill(complexIds, -1);
    for (int i = 0; i < n; i++) {
      ColumnDef c = i < columns.size() ? columns.get(i) : parts[i - columns.size()].column();
      names.add(i < columns.size() ? c.name() : parts[i - columns.size()].name());
      primaryKey[i] = c.isPrimaryKey();
      kinds[i] = c.kind();
      switch (c.kind()) {
        case PARTITION_KEY -> positions[i] = schema.partitionKey().indexOf(c);
        case CLUSTERING -> positions[i] = schema.clustering().indexOf(c);
        case REGULAR, STATIC -> {
          statics |= c.isStatic();
          positions[i] = keys.regularId(c.name());
          codecs[i] = keys.regularCodec(positions[i]);
          if (i >= columns.size()) {
            noWriteTime.put(names.get(i), "a part of column");
          }
          if (c.type().isMultiCell()) {
            complex[i] = ComplexCodec.of(c.type());
            if (i < columns.size()) {
              complexIds[i] = positions[i];
              udtFields[i] = c.type().isCollection() ? 0 : c.type().userType().fieldNames().size();
            }
            noWriteTime.putIfAbsent(c.name(), "non-frozen " + c.type().cqlName() + " column");
          } else if (c.type().kind() == dev.talus.DataType.Kind.COUNTER) {
            noWriteTime.put(c.name(), "counter column");
          }
        }
      }
    }
    return new Projection(
        List.copyOf(columns),
        new RowView.Shape(names, primaryKey, noWriteTime, complexIds, udtFields),
        kinds,
        positions,
        codecs,
        complex,
        statics,
        List.copyOf(selectors),
        parts);
  }

  /**
   * True if every selected column is a partition key, clustering or single-cell regular column, and
   * nothing is selected in part: {@link #viewSimple} can build the rows.
   */
  boolean plain() {
    if (parts.length > 0 || readsStatics) {
      return false;
    }
    for (ComplexCodec c : complex) {
      if (c != null) {
        return false;
      }
    }
    return true;
  }

  /**
   * The result row of a simple row seen in a source's bytes ({@link SimpleRow}): its clustering
   * {@code clustering} (a copy), its cells' values handed over. Only for a {@link #plain()}
   * projection.
   */
  ResultRow viewSimple(KeyCodec keys, Object[] pkValues, byte[] clustering, SimpleRow r, long now) {
    int n = kinds.length;
    Object[] values = new Object[n];
    long[] writeTimes = null;
    Object[] ck = null;
    for (int i = 0; i < n; i++) {
      switch (kinds[i]) {
        case PARTITION_KEY -> values[i] = pkValues[positions[i]];
        case CLUSTERING -> {
          if (ck == null) {
            ck = keys.decodeClustering(clustering);
          }
          values[i] = ck[positions[i]];
        }
        default -> {
          int c = r.cellOf(positions[i]);
          if (c >= 0) {
            values[i] = codecs[i].deserializeOwned(r.value(c));
            if (writeTimes == null) {
              writeTimes = new long[n];
              Arrays.fill(writeTimes, RowView.noWriteTime());
            }
            writeTimes[i] = r.timestamp(c);
          }
        }
      }
    }
    return new RowView(shape, values, writeTimes, null, null, now);
  }

  /**
   * The result row of {@code r} (null for a partition with only static data) in the partition with
   * key values {@code pkValues}, whose live static row is {@code statics} (null if none or not
   * read).
   */
  ResultRow view(KeyCodec keys, Object[] pkValues, Row r, Row statics, long now) {
    Object[] ck = null;
    int n = kinds.length;
    Object[] values = new Object[n];
    long[] writeTimes = null;
    int[] ttls = null;
    Row[] complexRows = null;
    for (int i = 0; i < n; i++) {
      switch (kinds[i]) {
        case PARTITION_KEY -> values[i] = pkValues[positions[i]];
        case CLUSTERING -> {
          if (r == null) {
            continue;
          }
          if (ck == null) {
            ck = keys.decodeClustering(r.clustering());
          }
          values[i] = ck[positions[i]];
        }
        case REGULAR, STATIC -> {
          Row source = kinds[i] == ColumnDef.Kind.STATIC ? statics : r;
          if (source == null) {
            continue;
          }
          if (complex[i] != null || i >= n - parts.length) {
            Object whole =
                complex[i] != null
                    ? assemble(complex[i], source, positions[i])
                    : decode(codecs[i], source, positions[i]);
            values[i] = i >= n - parts.length ? parts[i - (n - parts.length)].apply(whole) : whole;
            if (complex[i] != null && i < n - parts.length) {
              if (complexRows == null) {
                complexRows = new Row[n];
              }
              complexRows[i] = source;
            }
            continue;
          }
          Cell cell = source.cell(positions[i]);
          if (cell != null) {
            // a regular cell's value array was decoded for this read and this row alone (a
            // static row's serves every row of its partition, so it is copied)
            values[i] =
                kinds[i] == ColumnDef.Kind.REGULAR
                    ? codecs[i].deserializeOwned(cell.value())
                    : codecs[i].deserialize(cell.value());
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
    return new RowView(shape, values, writeTimes, ttls, complexRows, now);
  }

  private static Object decode(TypeCodec<?> codec, Row r, int column) {
    Cell cell = r.cell(column);
    return cell == null ? null : codec.deserialize(cell.value());
  }

  /** The value of a complex column from its (live, path-ordered) element cells in {@code r}. */
  static Object assemble(ComplexCodec codec, Row r, int column) {
    Cell[] cells = r.cells();
    int i = r.firstCellIndex(column);
    if (i < 0) {
      return null;
    }
    List<byte[]> paths = new ArrayList<>();
    List<byte[]> values = new ArrayList<>();
    for (; i < cells.length && cells[i].column() == column; i++) {
      paths.add(cells[i].path());
      values.add(cells[i].value());
    }
    return codec.assemble(paths, values);
  }
}
