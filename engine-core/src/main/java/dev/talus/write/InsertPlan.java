package dev.talus.write;

import dev.talus.ColumnDef;
import dev.talus.DataType;
import dev.talus.InvalidQueryException;
import dev.talus.TableSchema;
import dev.talus.codec.TypeCodec;
import dev.talus.data.Cell;
import dev.talus.data.DeletionTime;
import dev.talus.data.LivenessInfo;
import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionUpdate;
import dev.talus.data.Row;
import dev.talus.schema.Columns;
import dev.talus.schema.KeyCodec;
import dev.talus.schema.PartitionKeys;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * An INSERT of a fixed list of columns, planned once for one table schema ({@link KeyCodec}): which
 * value is which key component, which regular column (its id and codec) and in what order the cells
 * sort. Executing it coerces and checks the values exactly as {@link WritePlanner} does for the
 * same INSERT — the same checks in the same order, so the same first error — and builds the one-row
 * update directly. Only the common shape is planned: every primary key column given, regular scalar
 * (or frozen) columns, no counter table; {@link #of} returns null for anything else (static,
 * collection, user-type or unknown columns, a missing key column, a TTL the planner refuses), which
 * the general planner then takes with its own messages.
 *
 * <p>Immutable and thread-safe.
 */
public final class InsertPlan {
  private final KeyCodec keys;
  private final TableSchema schema;

  /** Positions among the values of the partition key and clustering columns, in schema order. */
  private final int[] pkAt;

  private final int[] ckAt;
  private final ColumnDef[] pkColumns;
  private final ColumnDef[] ckColumns;

  /** The regular columns' positions, in the order they were given (the order they are checked). */
  private final int[] regularAt;

  private final ColumnDef[] regularColumns;
  private final int[] regularIds;
  private final TypeCodec<?>[] coercers;
  private final TypeCodec<?>[] serializers;

  /**
   * The cells' order by column id: cell {@code k} of the row is built from regular value {@code
   * order[k]}.
   */
  private final int[] order;

  private final int ttl;

  private InsertPlan(KeyCodec keys, List<String> columns, int ttl) {
    this.keys = keys;
    this.schema = keys.schema();
    this.ttl = ttl;
    List<ColumnDef> pk = schema.partitionKey();
    List<ColumnDef> ck = schema.clustering();
    pkColumns = pk.toArray(new ColumnDef[0]);
    ckColumns = ck.toArray(new ColumnDef[0]);
    pkAt = new int[pk.size()];
    ckAt = new int[ck.size()];
    int regulars = columns.size() - pk.size() - ck.size();
    regularAt = new int[regulars];
    regularColumns = new ColumnDef[regulars];
    regularIds = new int[regulars];
    coercers = new TypeCodec<?>[regulars];
    serializers = new TypeCodec<?>[regulars];
    int r = 0;
    for (int i = 0; i < columns.size(); i++) {
      ColumnDef c = schema.column(columns.get(i)).orElseThrow();
      switch (c.kind()) {
        case PARTITION_KEY -> pkAt[pk.indexOf(c)] = i;
        case CLUSTERING -> ckAt[ck.indexOf(c)] = i;
        default -> {
          regularAt[r] = i;
          regularColumns[r] = c;
          regularIds[r] = keys.regularId(c.name());
          coercers[r] = TypeCodec.of(c.type());
          serializers[r] = keys.regularCodec(regularIds[r]);
          r++;
        }
      }
    }
    Integer[] byId = new Integer[regulars];
    for (int k = 0; k < regulars; k++) {
      byId[k] = k;
    }
    Arrays.sort(byId, (a, b) -> Integer.compare(regularIds[a], regularIds[b]));
    order = new int[regulars];
    for (int k = 0; k < regulars; k++) {
      order[k] = byId[k];
    }
  }

  /**
   * The plan of an INSERT of {@code columns} (distinct names, in the order given) with {@code ttl}
   * (null: the table's default) into the table of {@code keys}, or null if the general planner must
   * take it.
   */
  public static InsertPlan of(KeyCodec keys, List<String> columns, Duration ttl) {
    TableSchema s = keys.schema();
    if (s.isCounterTable() || columns.size() != columns.stream().distinct().count()) {
      return null;
    }
    int keyColumns = 0;
    for (String name : columns) {
      ColumnDef c = s.column(name).orElse(null);
      if (c == null
          || c.isStatic()
          || c.type().isMultiCell()
          || c.type().kind() == DataType.Kind.COUNTER) {
        return null;
      }
      keyColumns += c.isPrimaryKey() ? 1 : 0;
    }
    if (keyColumns != s.partitionKey().size() + s.clustering().size()) {
      return null; // a key column is missing
    }
    int seconds;
    try {
      seconds = WritePlanner.ttlSeconds(s, ttl);
    } catch (InvalidQueryException e) {
      return null;
    }
    return new InsertPlan(keys, columns, seconds);
  }

  /** The schema this plan was made for. */
  public KeyCodec keys() {
    return keys;
  }

  /**
   * The update writing {@code values} (one per column, in the plan's column order) at {@code ts}.
   *
   * @throws InvalidQueryException for a value the INSERT refuses, with the general planner's
   *     message
   */
  PartitionUpdate update(Object[] values, long ts, long now) {
    Object[] pk = new Object[pkAt.length];
    for (int i = 0; i < pk.length; i++) {
      pk[i] = Columns.keyValue(schema, pkColumns[i], values[pkAt[i]]);
    }
    Object[] ck = new Object[ckAt.length];
    for (int i = 0; i < ck.length; i++) {
      ck[i] = Columns.keyValue(schema, ckColumns[i], values[ckAt[i]]);
    }
    PartitionKey key = PartitionKeys.of(keys, pk);
    byte[] clustering = keys.row(Arrays.asList(ck));
    Cell[] given = new Cell[regularAt.length];
    for (int k = 0; k < given.length; k++) {
      Object v = values[regularAt[k]];
      int id = regularIds[k];
      if (v == null) {
        given[k] = Cell.tombstone(id, ts, now);
      } else {
        Object canonical = Columns.coerce(schema, regularColumns[k], coercers[k], v);
        byte[] bytes = serializers[k].serializeOwned(canonical); // nothing else holds canonical
        WritePlanner.checkValueSize(schema, regularColumns[k], bytes);
        given[k] = ttl > 0 ? Cell.expiring(id, ts, ttl, now, bytes) : Cell.live(id, ts, bytes);
      }
    }
    Cell[] cells = new Cell[given.length];
    for (int k = 0; k < cells.length; k++) {
      cells[k] = given[order[k]];
    }
    LivenessInfo l = ttl > 0 ? LivenessInfo.expiring(ts, ttl, now) : LivenessInfo.of(ts);
    Row row = new Row(clustering, l, DeletionTime.LIVE, Row.NO_COMPLEX_DELETIONS, cells);
    return new PartitionUpdate(key, DeletionTime.LIVE, List.of(), List.of(row));
  }
}
