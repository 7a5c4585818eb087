package dev.talus.read;

import dev.talus.ColumnDef;
import dev.talus.TableSchema;
import dev.talus.data.PartitionKey;
import dev.talus.data.Slice;
import dev.talus.request.ReadRequest;
import dev.talus.request.Restriction;
import dev.talus.schema.Columns;
import dev.talus.schema.KeyCodec;
import dev.talus.schema.PartitionKeys;
import java.util.Arrays;
import java.util.List;

/**
 * The plan of the commonest read, one row by its whole primary key (or one partition of a table
 * without clustering columns): every primary key column restricted once by equality, nothing else
 * restricted. It is built straight from the values, without the general planner's restriction map,
 * clustering groups and rule checks, none of which can refuse or change such a read; the plan
 * equals the one {@link QueryPlanner} builds. Any other shape, or a value the general planner would
 * refuse (null, unknown column), returns null and takes the general planner, whose messages then
 * apply. Stateless.
 */
final class PointPlanner {
  private PointPlanner() {}

  /** The plan of a read naming one row by equality on its whole primary key, or null. */
  static QueryPlanner.Plan plan(KeyCodec keys, ReadRequest r) {
    Object[] given = given(keys, r);
    return given == null ? null : plan(keys, r, given);
  }

  /**
   * The primary key values of a read naming one row by equality on its whole primary key, by
   * position (partition key, then clustering), none null; null for any other read.
   */
  static Object[] given(KeyCodec keys, ReadRequest r) {
    int[] at = positions(keys.schema(), r);
    if (at == null) {
      return null;
    }
    Object[] given = new Object[at.length];
    for (int i = 0; i < at.length; i++) {
      Object v = r.restrictions().get(i).value();
      if (v == null) {
        return null;
      }
      given[at[i]] = v;
    }
    return given;
  }

  /**
   * Where each restriction of {@code r} goes among the primary key columns (partition key, then
   * clustering), if {@code r} names one row by equality on its whole primary key and restricts
   * nothing else; null otherwise. Depends on the request's shape and the schema only, so a prepared
   * read computes it once.
   */
  static int[] positions(TableSchema s, ReadRequest r) {
    if (!r.tupleRestrictions().isEmpty()
        || !r.tokenRestrictions().isEmpty()
        || !r.orderBy().isEmpty()) {
      return null;
    }
    List<ColumnDef> pk = s.partitionKey();
    List<ColumnDef> ck = s.clustering();
    List<Restriction> rs = r.restrictions();
    if (rs.size() != pk.size() + ck.size()) {
      return null;
    }
    int[] at = new int[rs.size()];
    boolean[] taken = new boolean[rs.size()];
    for (int i = 0; i < rs.size(); i++) {
      Restriction x = rs.get(i);
      if (x.op() != Restriction.Op.EQ || x.values().size() != 1) {
        return null;
      }
      ColumnDef c = s.column(x.column()).orElse(null);
      int p = c == null ? -1 : position(pk, ck, c);
      if (p < 0 || taken[p]) {
        return null;
      }
      taken[p] = true;
      at[i] = p;
    }
    return at;
  }

  /**
   * The plan of {@code r}, a read of one row by its whole primary key whose values, by position
   * (partition key, then clustering), are {@code given} (none null); see {@link #positions}.
   */
  static QueryPlanner.Plan plan(KeyCodec keys, ReadRequest r, Object[] given) {
    Object[] pkValues = partitionValues(keys, given);
    return plan(keys, r, given, pkValues, PartitionKeys.of(keys, pkValues));
  }

  /**
   * The partition key values among {@code given}, coerced as the general planner coerces them first
   * (so a value of the wrong type is refused with the same message).
   */
  static Object[] partitionValues(KeyCodec keys, Object[] given) {
    TableSchema s = keys.schema();
    List<ColumnDef> pk = s.partitionKey();
    Object[] pkValues = new Object[pk.size()];
    for (int i = 0; i < pkValues.length; i++) {
      pkValues[i] = Columns.keyValue(s, pk.get(i), given[i]);
    }
    return pkValues;
  }

  /** The clustering values among {@code given}, coerced (and so checked) after the partition's. */
  static Object[] clusteringValues(KeyCodec keys, Object[] given) {
    TableSchema s = keys.schema();
    List<ColumnDef> ck = s.clustering();
    int offset = s.partitionKey().size();
    Object[] ckValues = new Object[ck.size()];
    for (int i = 0; i < ckValues.length; i++) {
      ckValues[i] = Columns.keyValue(s, ck.get(i), given[offset + i]);
    }
    return ckValues;
  }

  /** The plan, from the partition key values already coerced and their key. */
  static QueryPlanner.Plan plan(
      KeyCodec keys, ReadRequest r, Object[] given, Object[] pkValues, PartitionKey key) {
    TableSchema s = keys.schema();
    List<Slice> slices =
        s.clustering().isEmpty()
            ? ClusteringPlanner.EVERYTHING
            : List.of(keys.prefixSlice(Arrays.asList(clusteringValues(keys, given))));
    return new QueryPlanner.Plan(
        List.<Object[]>of(pkValues),
        List.of(key),
        slices,
        r.reversed(),
        false,
        r.limit(),
        r.pageSize(),
        QueryPlanner.projection(s, r),
        List.of(),
        Paging.resume(s, r, 1),
        s,
        r,
        r.perPartitionLimit(),
        null);
  }

  private static int position(List<ColumnDef> pk, List<ColumnDef> ck, ColumnDef c) {
    List<ColumnDef> in = c.kind() == ColumnDef.Kind.PARTITION_KEY ? pk : ck;
    int offset = in == pk ? 0 : pk.size();
    if (c.kind() != ColumnDef.Kind.PARTITION_KEY && c.kind() != ColumnDef.Kind.CLUSTERING) {
      return -1;
    }
    for (int i = 0; i < in.size(); i++) {
      if (in.get(i).name().equals(c.name())) {
        return offset + i;
      }
    }
    return -1;
  }
}
