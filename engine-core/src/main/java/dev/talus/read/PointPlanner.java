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
    if (!r.tupleRestrictions().isEmpty()
        || !r.tokenRestrictions().isEmpty()
        || !r.orderBy().isEmpty()) {
      return null;
    }
    TableSchema s = keys.schema();
    List<ColumnDef> pk = s.partitionKey();
    List<ColumnDef> ck = s.clustering();
    List<Restriction> rs = r.restrictions();
    if (rs.size() != pk.size() + ck.size()) {
      return null;
    }
    // by position: the partition key columns, then the clustering columns
    Object[] given = new Object[rs.size()];
    for (int i = 0; i < rs.size(); i++) {
      Restriction x = rs.get(i);
      if (x.op() != Restriction.Op.EQ || x.values().size() != 1 || x.value() == null) {
        return null;
      }
      ColumnDef c = s.column(x.column()).orElse(null);
      int at = c == null ? -1 : position(pk, ck, c);
      if (at < 0 || given[at] != null) {
        return null;
      }
      given[at] = x.value();
    }
    // coerced in the general planner's order (partition key, then clustering), so a value of the
    // wrong type is refused with the same message
    Object[] pkValues = new Object[pk.size()];
    for (int i = 0; i < pkValues.length; i++) {
      pkValues[i] = Columns.keyValue(s, pk.get(i), given[i]);
    }
    PartitionKey key = PartitionKeys.of(keys, pkValues);
    List<Slice> slices;
    if (ck.isEmpty()) {
      slices = ClusteringPlanner.EVERYTHING;
    } else {
      Object[] ckValues = new Object[ck.size()];
      for (int i = 0; i < ckValues.length; i++) {
        ckValues[i] = Columns.keyValue(s, ck.get(i), given[pk.size() + i]);
      }
      List<Object> prefix = Arrays.asList(ckValues);
      slices = List.of(new Slice(keys.bound(prefix, false), keys.bound(prefix, true)));
    }
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
