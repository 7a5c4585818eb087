package dev.talus.model;

import dev.talus.PagingState;
import dev.talus.ResultRow;
import dev.talus.ResultSet;
import dev.talus.Select;
import dev.talus.Table;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;

/**
 * The reads of {@link WideModelTest}: a {@link WideModelTest.Read} run against the engine (paged to
 * the end) and checked against {@link WideModel}'s answer, worked out from first principles: the
 * rows each restriction selects, partitions in partition key order each once, reversed reads over
 * several partitions merged into one order (ties in partition key order), per-partition and global
 * limits.
 */
final class WideModelReads {
  private WideModelReads() {}

  private static boolean selected(WideModelTest.Read r, WideModel.Ck k) {
    return switch (r.kind()) {
      case 0 -> true;
      case 1 -> k.ts() >= r.tsLo() && k.ts() <= r.tsHi();
      case 2 ->
          k.ts() == r.tsLo()
              && WideModel.compareUuid(k.uuid(), WideModel.IDS[r.idLo()]) >= 0
              && WideModel.compareUuid(k.uuid(), WideModel.IDS[r.idHi()]) <= 0;
      case 3 -> k.ts() == r.tsLo() && k.id() == r.idLo();
      case 4 -> r.tsIn().contains(k.ts()) && (r.idIn().isEmpty() || r.idIn().contains(k.id()));
      case 5 -> {
        int above = compareTuple(k, r.tsLo(), r.idLo());
        int below = compareTuple(k, r.tsHi(), r.idHi());
        yield (r.lowerInclusive() ? above >= 0 : above > 0)
            && (r.upperInclusive() ? below <= 0 : below < 0);
      }
      default -> {
        boolean in = false;
        for (int j = 0; j < r.tsIn().size(); j++) {
          in |= k.ts() == r.tsIn().get(j) && k.id() == r.idIn().get(j);
        }
        yield in;
      }
    };
  }

  /** (ts, id) against (ts2, IDS[id2]) as a tuple of values: ts, then the uuid's natural order. */
  private static int compareTuple(WideModel.Ck k, int ts, int id) {
    int c = Integer.compare(k.ts(), ts);
    return c != 0 ? c : WideModel.compareUuid(k.uuid(), WideModel.IDS[id]);
  }

  /** Partition key order: a (text: UTF-8 bytes), then b. */
  private static final java.util.Comparator<WideModel.Pk> PK_ORDER =
      java.util.Comparator.comparing(WideModel.Pk::a).thenComparingInt(WideModel.Pk::b);

  static String check(WideModelTest.Read r, Table t, WideModel model, long now) {
    // in(...) on both key columns reads their cartesian product, in partition key order, each
    // partition once (the generator's lists hold repeats)
    List<WideModel.Pk> targets = new ArrayList<>();
    List<String> as = r.pks().stream().map(WideModel.Pk::a).toList();
    List<Integer> bs = r.pks().stream().map(WideModel.Pk::b).toList();
    for (String a : as) {
      for (int b : bs) {
        WideModel.Pk pk = new WideModel.Pk(a, b);
        if (!targets.contains(pk)) {
          targets.add(pk);
        }
      }
    }
    targets.sort(PK_ORDER);
    List<WideModel.Row> expected = new ArrayList<>();
    for (WideModel.Pk pk : targets) {
      List<WideModel.Row> rows = new ArrayList<>();
      for (WideModel.Row row : model.partition(pk, now)) {
        if (selected(r, row.ck())) {
          rows.add(row);
        }
      }
      if (r.reversed()) {
        Collections.reverse(rows);
      }
      expected.addAll(rows.subList(0, Math.min(rows.size(), r.perPartitionLimit())));
    }
    if (r.reversed() && targets.size() > 1) {
      // an order over several partitions merges their rows; a stable sort keeps ties in
      // partition key order, as Cassandra's does
      expected.sort((x, y) -> WideModel.ORDER.compare(y.ck(), x.ck()));
    }
    if (expected.size() > r.limit()) {
      expected = expected.subList(0, r.limit());
    }
    List<WideModel.Row> actual = new ArrayList<>();
    PagingState state = null;
    int pages = 0;
    do {
      Select s = t.select();
      // every other one-row read goes through a prepared select, its key values bound as markers
      boolean prepared = r.kind() == 3 && r.pks().size() == 1 && (r.tsLo() + r.idLo()) % 2 == 0;
      Object[] bound = null;
      if (prepared) {
        WideModel.Pk pk = r.pks().get(0);
        bound =
            new Object[] {
              pk.a(), pk.b(), WideModel.T0.plusSeconds(r.tsLo()), WideModel.IDS[r.idLo()]
            };
        s.eq("a", Select.marker())
            .eq("b", Select.marker())
            .eq("ts", Select.marker())
            .eq("id", Select.marker());
      } else if (r.pks().size() == 1) {
        s.eq("a", r.pks().get(0).a()).eq("b", r.pks().get(0).b());
      } else {
        s.in("a", as).in("b", bs);
      }
      switch (r.kind()) {
        case 0 -> {}
        case 1 ->
            s.ge("ts", WideModel.T0.plusSeconds(r.tsLo()))
                .le("ts", WideModel.T0.plusSeconds(r.tsHi()));
        case 2 ->
            s.eq("ts", WideModel.T0.plusSeconds(r.tsLo()))
                .ge("id", WideModel.IDS[r.idLo()])
                .le("id", WideModel.IDS[r.idHi()]);
        case 3 -> {
          if (!prepared) {
            s.eq("ts", WideModel.T0.plusSeconds(r.tsLo())).eq("id", WideModel.IDS[r.idLo()]);
          }
        }
        case 4 -> {
          s.in("ts", r.tsIn().stream().map(WideModel.T0::plusSeconds).toList());
          if (!r.idIn().isEmpty()) {
            s.in("id", r.idIn().stream().map(i -> WideModel.IDS[i]).toList());
          }
        }
        case 5 -> {
          List<String> tsId = List.of("ts", "id");
          List<Object> lower = List.of(WideModel.T0.plusSeconds(r.tsLo()), WideModel.IDS[r.idLo()]);
          List<Object> upper = List.of(WideModel.T0.plusSeconds(r.tsHi()), WideModel.IDS[r.idHi()]);
          if (r.lowerInclusive()) {
            s.ge(tsId, lower);
          } else {
            s.gt(tsId, lower);
          }
          if (r.upperInclusive()) {
            s.le(tsId, upper);
          } else {
            s.lt(tsId, upper);
          }
        }
        default -> {
          List<List<Object>> pairs = new ArrayList<>();
          for (int j = 0; j < r.tsIn().size(); j++) {
            pairs.add(
                List.of(WideModel.T0.plusSeconds(r.tsIn().get(j)), WideModel.IDS[r.idIn().get(j)]));
          }
          s.in(List.of("ts", "id"), pairs);
        }
      }
      if (r.perPartitionLimit() != Integer.MAX_VALUE) {
        s.perPartitionLimit(r.perPartitionLimit());
      }
      if (r.reversed()) {
        s.reversed();
      }
      if (r.limit() != Integer.MAX_VALUE) {
        s.limit(r.limit());
      }
      if (r.pageSize() != Integer.MAX_VALUE) {
        s.pageSize(r.pageSize());
      }
      if (state != null) {
        s.pagingState(state);
      }
      ResultSet rs = prepared ? s.prepare().execute(bound) : s.execute();
      for (ResultRow row : rs) {
        byte[] bl = row.getBytes("bl");
        actual.add(
            new WideModel.Row(
                new WideModel.Pk(row.getString("a"), row.getInt("b")),
                new WideModel.Ck(
                    (int) (row.getInstant("ts").getEpochSecond() - WideModel.T0.getEpochSecond()),
                    List.of(WideModel.IDS).indexOf(row.getUuid("id"))),
                row.getLong("n"),
                row.getDouble("d"),
                row.getBoolean("f"),
                bl == null ? null : HexFormat.of().formatHex(bl),
                row.writeTime("n")));
      }
      state = rs.pagingState().orElse(null);
      if (++pages > 1000) {
        return "paging does not terminate";
      }
    } while (state != null);
    return expected.equals(actual) ? null : "expected " + expected + "\n   but got " + actual;
  }
}
