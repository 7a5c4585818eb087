package dev.talus.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.ClusteringOrder;
import dev.talus.DataType;
import dev.talus.TableSchema;
import dev.talus.request.ReadRequest;
import dev.talus.request.Restriction;
import dev.talus.schema.KeyCodec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The one-row planner against the general one: random tables (one or two partition key columns,
 * zero to three clustering columns of mixed order and type) and random reads, most naming one row,
 * the rest one step off (a column left out or restricted twice, IN, a range, null, a value of the
 * wrong type, an unknown or regular column, an order, a projection, a page size). Whenever the
 * one-row planner answers, its plan must equal the general planner's field by field; when it
 * refuses, with the general planner's message. Seed: {@code -Dtalus.pointplan.seed=N} replays one.
 */
class PointPlannerPropertyTest {
  private static final DataType[] TYPES = {DataType.INT, DataType.BIGINT, DataType.TEXT};

  @Test
  void onePlanEqualsTheGeneralPlan() {
    long seed = Long.getLong("talus.pointplan.seed", 20261201L);
    System.out.println("PointPlannerPropertyTest seed " + seed);
    Random rnd = new Random(seed);
    int answered = 0;
    int refusedAlike = 0;
    for (int t = 0; t < 60; t++) {
      TableSchema s = schema(rnd, t);
      KeyCodec keys = new KeyCodec(s);
      for (int q = 0; q < 50; q++) {
        ReadRequest r = request(rnd, s);
        QueryPlanner.Plan point;
        try {
          point = PointPlanner.plan(keys, r);
        } catch (RuntimeException e) {
          Throwable general = thrown(() -> QueryPlanner.general(keys, r));
          assertThat(general).as("seed %d: %s", seed, r).isNotNull();
          assertThat(general.getMessage()).as("seed %d: %s", seed, r).isEqualTo(e.getMessage());
          refusedAlike++;
          continue;
        }
        if (point == null) {
          continue;
        }
        QueryPlanner.Plan general = QueryPlanner.general(keys, r);
        assertSame(point, general, "seed " + seed + ": " + r);
        answered++;
      }
    }
    assertThat(answered).as("one-row plans compared").isGreaterThan(600);
    assertThat(refusedAlike).as("refusals compared").isGreaterThan(20);
  }

  private static Throwable thrown(Runnable r) {
    try {
      r.run();
      return null;
    } catch (RuntimeException e) {
      return e;
    }
  }

  private static void assertSame(QueryPlanner.Plan a, QueryPlanner.Plan b, String what) {
    assertThat(a.keys()).as(what).isEqualTo(b.keys());
    assertThat(a.partitionValues()).as(what).hasSameSizeAs(b.partitionValues());
    for (int i = 0; i < a.partitionValues().size(); i++) {
      assertThat(a.partitionValues().get(i)).as(what).isEqualTo(b.partitionValues().get(i));
    }
    assertThat(a.slices()).as(what).isEqualTo(b.slices());
    assertThat(a.reversed()).as(what).isEqualTo(b.reversed());
    assertThat(a.merged()).as(what).isEqualTo(b.merged());
    assertThat(a.limit()).as(what).isEqualTo(b.limit());
    assertThat(a.pageSize()).as(what).isEqualTo(b.pageSize());
    assertThat(a.projection()).as(what).isEqualTo(b.projection());
    assertThat(a.filters()).as(what).isEqualTo(b.filters());
    assertThat(a.resume()).as(what).usingRecursiveComparison().isEqualTo(b.resume());
    assertThat(a.schema()).as(what).isEqualTo(b.schema());
    assertThat(a.request()).as(what).isSameAs(b.request());
    assertThat(a.perPartitionLimit()).as(what).isEqualTo(b.perPartitionLimit());
    assertThat(a.scan()).as(what).isEqualTo(b.scan());
    assertThat(a.isEmpty()).as(what).isEqualTo(b.isEmpty());
  }

  private static TableSchema schema(Random rnd, int n) {
    TableSchema.Builder b = TableSchema.builder("t" + n);
    int pks = 1 + rnd.nextInt(2);
    for (int i = 0; i < pks; i++) {
      b.partitionKey("p" + i, TYPES[rnd.nextInt(TYPES.length)]);
    }
    int cks = rnd.nextInt(4);
    for (int i = 0; i < cks; i++) {
      b.clusteringColumn(
          "c" + i,
          TYPES[rnd.nextInt(TYPES.length)],
          rnd.nextBoolean() ? ClusteringOrder.ASC : ClusteringOrder.DESC);
    }
    b.column("v", DataType.INT);
    return b.build();
  }

  private static Object value(Random rnd, DataType type) {
    if (type == DataType.INT) {
      return rnd.nextInt(7) - 3;
    }
    if (type == DataType.BIGINT) {
      return (long) (rnd.nextInt(7) - 3);
    }
    return "s" + rnd.nextInt(5);
  }

  private static ReadRequest request(Random rnd, TableSchema s) {
    List<Restriction> rs = new ArrayList<>();
    List<dev.talus.ColumnDef> key = new ArrayList<>(s.partitionKey());
    key.addAll(s.clustering());
    for (dev.talus.ColumnDef c : key) {
      rs.add(new Restriction(c.name(), Restriction.Op.EQ, List.of(value(rnd, c.type()))));
    }
    Collections.shuffle(rs, rnd);
    List<String> columns = List.of();
    List<Map.Entry<String, ClusteringOrder>> orderBy = List.of();
    boolean reversed = false;
    int limit = Integer.MAX_VALUE;
    int pageSize = Integer.MAX_VALUE;
    int perPartitionLimit = Integer.MAX_VALUE;
    int steps = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(2) : 0;
    for (int k = 0; k < steps; k++) {
      int at = rnd.nextInt(rs.size());
      Restriction x = rs.get(at);
      switch (rnd.nextInt(12)) {
        case 0 -> rs.remove(at);
        case 1 -> rs.add(x);
        case 2 -> rs.set(at, new Restriction(x.column(), Restriction.Op.IN, x.values()));
        case 3 -> rs.set(at, new Restriction(x.column(), Restriction.Op.GE, x.values()));
        case 4 -> rs.set(at, new Restriction(x.column(), Restriction.Op.EQ, nullValue()));
        case 5 -> rs.set(at, new Restriction(x.column(), Restriction.Op.EQ, List.of(1.5d)));
        case 6 -> rs.set(at, new Restriction("nope", Restriction.Op.EQ, x.values()));
        case 7 -> rs.set(at, new Restriction("v", Restriction.Op.EQ, List.of(1)));
        case 8 ->
            orderBy =
                s.clustering().isEmpty()
                    ? List.of(Map.entry("p0", ClusteringOrder.ASC))
                    : List.of(Map.entry(s.clustering().get(0).name(), ClusteringOrder.DESC));
        case 9 -> reversed = true;
        case 10 -> columns = List.of("v", s.partitionKey().get(0).name());
        default -> {
          limit = 1 + rnd.nextInt(3);
          pageSize = 1 + rnd.nextInt(3);
          perPartitionLimit = 1 + rnd.nextInt(3);
        }
      }
      if (rs.isEmpty()) {
        break;
      }
    }
    return new ReadRequest(
        rs,
        List.of(),
        columns,
        orderBy,
        reversed,
        limit,
        pageSize,
        null,
        false,
        perPartitionLimit,
        List.of(),
        List.of());
  }

  private static List<Object> nullValue() {
    List<Object> one = new ArrayList<>(1);
    one.add(null);
    return one;
  }
}
