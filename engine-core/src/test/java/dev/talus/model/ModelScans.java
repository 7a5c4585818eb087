package dev.talus.model;

import dev.talus.PagingState;
import dev.talus.ResultRow;
import dev.talus.ResultSet;
import dev.talus.Select;
import dev.talus.Table;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Scans in the model-based test: the model's partitions in token order (the engine's {@link
 * Table#token}), each in clustering order, compared with a paged scan of the whole table, of the
 * tokens after the first partition's, or filtered on a clustering range with the opt-in; without a
 * limit, the same scan's aggregates, groups (by {@code p} and by {@code (p, c1)}, paged) and
 * distinct partitions are compared with the model's rows too.
 */
final class ModelScans {
  private ModelScans() {}

  /**
   * kind 0: the whole table; 1: {@code c1} in [lo, hi] with allowFiltering; 2: tokens after the
   * lowest partition's token.
   */
  record Scan(int kind, int lo, int hi, int limit, int pageSize) implements ModelBasedTest.Op {}

  static String check(Scan r, Table t, Model model, long now) {
    List<Integer> partitions =
        IntStream.range(0, ModelBasedTest.PARTITIONS)
            .boxed()
            .sorted(Comparator.comparingLong((Integer p) -> t.token(p)))
            .toList();
    List<Model.ModelRow> expected = new ArrayList<>();
    for (int i = r.kind == 2 ? 1 : 0; i < partitions.size(); i++) {
      // without a clustering restriction a static-only partition reads as one row, as in Cassandra
      for (Model.ModelRow row : model.partition(partitions.get(i), now, r.kind != 1)) {
        if (r.kind != 1 || (row.c1() >= r.lo && row.c1() <= r.hi)) {
          expected.add(row);
        }
      }
    }
    if (expected.size() > r.limit) {
      expected = expected.subList(0, r.limit);
    }
    List<Model.ModelRow> actual = new ArrayList<>();
    PagingState state = null;
    int pages = 0;
    do {
      Select s = t.select();
      if (r.kind == 1) {
        s.ge("c1", r.lo).le("c1", r.hi).allowFiltering();
      } else if (r.kind == 2) {
        s.tokenGt(t.token(partitions.get(0)));
      }
      if (r.limit != Integer.MAX_VALUE) {
        s.limit(r.limit);
      }
      if (r.pageSize != Integer.MAX_VALUE) {
        s.pageSize(r.pageSize);
      }
      if (state != null) {
        s.pagingState(state);
      }
      ResultSet rs = s.execute();
      for (ResultRow row : rs) {
        actual.add(
            new Model.ModelRow(
                row.getInt("p"),
                row.getInt("c1"),
                row.getString("c2"),
                row.getInt("v1"),
                row.getString("v2"),
                row.writeTime("v1"),
                ModelBasedTest.stringSet(row.get("tags")),
                row.getInt("s")));
      }
      state = rs.pagingState().orElse(null);
      if (++pages > 1000) {
        return "scan paging does not terminate";
      }
    } while (state != null);
    if (!expected.equals(actual)) {
      return "expected " + expected + "\n   but got " + actual;
    }
    return r.limit == Integer.MAX_VALUE ? aggregates(r, t, partitions, expected) : null;
  }

  /**
   * count(*), count(v1), sum(v1), min(v2) and max(v1) of the same scan, against the model's rows.
   */
  private static String aggregates(
      Scan r, Table t, List<Integer> partitions, List<Model.ModelRow> rows) {
    java.util.function.Supplier<Select> q =
        () -> {
          Select s = t.select();
          if (r.kind == 1) {
            s.ge("c1", r.lo).le("c1", r.hi).allowFiltering();
          } else if (r.kind == 2) {
            s.tokenGt(t.token(partitions.get(0)));
          }
          return s;
        };
    List<Integer> v1 = rows.stream().map(Model.ModelRow::v1).filter(v -> v != null).toList();
    List<String> v2 = rows.stream().map(Model.ModelRow::v2).filter(v -> v != null).toList();
    List<Object> want =
        List.of(
            (long) rows.size(),
            (long) v1.size(),
            v1.stream().mapToInt(Integer::intValue).sum(),
            v2.stream().min(String::compareTo).map(Object.class::cast).orElse("null"),
            v1.stream().max(Integer::compare).map(Object.class::cast).orElse("null"));
    List<Object> got =
        List.of(
            q.get().count(),
            q.get().count("v1"),
            q.get().sum("v1"),
            java.util.Objects.requireNonNullElse(q.get().min("v2"), "null"),
            java.util.Objects.requireNonNullElse(q.get().max("v1"), "null"));
    if (!want.equals(got)) {
      return "aggregates: expected " + want + " but got " + got;
    }
    return grouped(r, q, rows);
  }

  /**
   * The same scan grouped by {@code p} or by {@code (p, c1)} — row counts and {@code sum(v1)} per
   * group, paged by groups — and, unfiltered, its distinct partitions, against the model's rows.
   */
  private static String grouped(
      Scan r, java.util.function.Supplier<Select> q, List<Model.ModelRow> rows) {
    // one grouping per scan (by the clustering range's parity), to keep the model test's time
    for (boolean byC1 : new boolean[] {Math.floorMod(r.lo, 2) == 1}) {
      java.util.Map<String, List<Object>> want = new java.util.LinkedHashMap<>();
      for (Model.ModelRow row : rows) {
        String key = byC1 ? row.p() + ":" + row.c1() : String.valueOf(row.p());
        List<Object> acc = want.computeIfAbsent(key, k -> new ArrayList<>(List.of(0L, 0)));
        acc.set(0, (Long) acc.get(0) + 1);
        acc.set(1, (Integer) acc.get(1) + (row.v1() == null ? 0 : row.v1()));
      }
      java.util.Map<String, List<Object>> got = new java.util.LinkedHashMap<>();
      PagingState state = null;
      int pages = 0;
      do {
        Select s = byC1 ? q.get().groupBy("p", "c1") : q.get().groupBy("p");
        if (r.pageSize != Integer.MAX_VALUE) {
          s.pageSize(r.pageSize);
        }
        if (state != null) {
          s.pagingState(state);
        }
        dev.talus.Aggregator[] acc = new dev.talus.Aggregator[2];
        state =
            s.forEachGroupedRow(
                    (row, first) -> {
                      if (first) {
                        acc[0] =
                            dev.talus.Aggregator.of(
                                dev.talus.Aggregator.Function.COUNT, dev.talus.DataType.INT, "*");
                        acc[1] =
                            dev.talus.Aggregator.of(
                                dev.talus.Aggregator.Function.SUM, dev.talus.DataType.INT, "v1");
                      }
                      acc[0].add(1);
                      acc[1].add(row.get("v1"));
                      String key =
                          byC1 ? row.get("p") + ":" + row.get("c1") : String.valueOf(row.get("p"));
                      got.put(key, List.of(acc[0].result(), acc[1].result()));
                    })
                .orElse(null);
        if (++pages > 1000) {
          return "grouped paging does not terminate";
        }
      } while (state != null);
      if (!want.equals(got)) {
        return "groupBy " + (byC1 ? "(p, c1)" : "p") + ": expected " + want + " but got " + got;
      }
    }
    if (r.kind == 1) {
      return null; // DISTINCT takes no clustering restriction
    }
    List<Integer> partitions = rows.stream().map(Model.ModelRow::p).distinct().toList();
    List<Integer> distinct = new ArrayList<>();
    for (ResultRow row : q.get().distinct().execute()) {
      distinct.add(row.getInt("p"));
    }
    return partitions.equals(distinct)
        ? null
        : "distinct: expected " + partitions + " but got " + distinct;
  }
}
