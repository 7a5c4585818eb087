package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A prepared select returns what the same select with the values in place returns — one-row reads
 * (the fast shape), other shapes, after writes, deletions, TTLs, flushes and schema changes — and
 * refuses what it cannot take with a message that says so.
 */
class PreparedSelectTest {
  @TempDir Path dir;

  private final ManualClock clock = ManualClock.startingAtDefault();
  private TalusDb db;
  private Table t;

  @BeforeEach
  void open() {
    db = TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
    t =
        db.createTable(
            TableSchema.builder("t")
                .partitionKey("p", DataType.INT)
                .clusteringColumn("c", DataType.BIGINT, ClusteringOrder.DESC)
                .column("v", DataType.TEXT)
                .column("n", DataType.INT)
                .build());
  }

  @AfterEach
  void close() {
    db.close();
  }

  private static String describe(List<ResultRow> rows) {
    StringBuilder b = new StringBuilder();
    for (ResultRow r : rows) {
      b.append(r.columns()).append('=');
      for (String col : r.columns()) {
        b.append(r.get(col)).append('/');
      }
      b.append(r.writeTime("v")).append(' ');
    }
    return b.toString();
  }

  @Test
  void oneRowReadsEqualTheSelectWithTheValuesInPlaceThroughRandomChanges() {
    long seed = 4242;
    System.out.println("PreparedSelectTest seed " + seed);
    Random rnd = new Random(seed);
    PreparedSelect byKey = t.select().eq("p", Select.marker()).eq("c", Select.marker()).prepare();
    PreparedSelect oneColumn =
        t.select().columns("v").eq("c", Select.marker()).eq("p", Select.marker()).prepare();
    assertThat(byKey.markerCount()).isEqualTo(2);
    int hits = 0;
    for (int step = 0; step < 2_000; step++) {
      int p = rnd.nextInt(3);
      long c = rnd.nextInt(6);
      switch (rnd.nextInt(10)) {
        case 0 -> t.flush();
        case 1 -> t.delete().eq("p", p).eq("c", c).execute();
        case 2 -> t.delete().eq("p", p).ge("c", c).lt("c", c + 2).execute();
        case 3 -> clock.advance(Duration.ofSeconds(1 + rnd.nextInt(5)));
        case 4 ->
            t.insert()
                .value("p", p)
                .value("c", c)
                .value("v", "ttl" + step)
                .ttl(Duration.ofSeconds(1 + rnd.nextInt(4)))
                .execute();
        case 5 -> t.update().where("p", p).where("c", c).set("n", step).execute();
        case 6 -> {
          if (rnd.nextInt(20) == 0) {
            t.compact();
          }
        }
        default -> t.insert().value("p", p).value("c", c).value("v", "s" + step).execute();
      }
      int qp = rnd.nextInt(4); // partition 3 never exists
      long qc = rnd.nextInt(7);
      List<ResultRow> plain = t.select().eq("p", qp).eq("c", qc).execute().rows();
      assertThat(describe(byKey.execute(qp, qc).rows()))
          .as("seed %d step %d p=%d c=%d", seed, step, qp, qc)
          .isEqualTo(describe(plain));
      assertThat(describe(oneColumn.execute(qc, qp).rows()))
          .isEqualTo(describe(t.select().columns("v").eq("p", qp).eq("c", qc).execute().rows()));
      hits += plain.size();
    }
    assertThat(hits).as("reads that found a row").isGreaterThan(200);
  }

  @Test
  void otherShapesEqualTheSelectWithTheValuesInPlace() {
    for (int p = 0; p < 3; p++) {
      for (long c = 0; c < 10; c++) {
        t.insert().value("p", p).value("c", c).value("v", p + ":" + c).execute();
      }
    }
    t.flush();
    PreparedSelect range =
        t.select()
            .eq("p", Select.marker())
            .ge("c", Select.marker())
            .lt("c", Select.marker())
            .limit(3)
            .prepare();
    assertThat(describe(range.execute(1, 2L, 8L).rows()))
        .isEqualTo(
            describe(t.select().eq("p", 1).ge("c", 2L).lt("c", 8L).limit(3).execute().rows()));
    PreparedSelect in = t.select().in("p", Select.marker(), 2).eq("c", Select.marker()).prepare();
    assertThat(in.markerCount()).isEqualTo(2);
    assertThat(describe(in.execute(0, 5L).rows()))
        .isEqualTo(describe(t.select().in("p", 0, 2).eq("c", 5L).execute().rows()));
    PreparedSelect partition = t.select().eq("p", Select.marker()).prepare();
    assertThat(partition.execute(2).size()).isEqualTo(10);
    PreparedSelect noMarkers = t.select().eq("p", 0).eq("c", 1L).prepare();
    assertThat(noMarkers.one().orElseThrow().getString("v")).isEqualTo("0:1");
  }

  @Test
  void aSchemaChangeAfterPreparingIsSeenAtTheNextExecution() {
    t.insert().value("p", 1).value("c", 1L).value("v", "x").execute();
    PreparedSelect byKey = t.select().eq("p", Select.marker()).eq("c", Select.marker()).prepare();
    assertThat(byKey.one(1, 1L).orElseThrow().columns()).containsExactly("p", "c", "v", "n");
    t.alter().addColumn("w", DataType.TEXT).apply();
    t.update().where("p", 1).where("c", 1L).set("w", "new").execute();
    ResultRow r = byKey.one(1, 1L).orElseThrow();
    assertThat(r.columns()).contains("w");
    assertThat(r.getString("w")).isEqualTo("new");
  }

  @Test
  void valuesAreCheckedPerExecutionAsTheSelectChecksThem() {
    PreparedSelect byKey = t.select().eq("p", Select.marker()).eq("c", Select.marker()).prepare();
    assertThatThrownBy(() -> byKey.execute(1))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("2 bind marker(s) and was given 1 value(s)");
    String wrongType = message(() -> t.select().eq("p", "one").eq("c", 1L).execute());
    assertThat(message(() -> byKey.execute("one", 1L))).isEqualTo(wrongType);
    String nullKey = message(() -> t.select().eq("p", 1).eq("c", (Object) null).execute());
    assertThat(message(() -> byKey.execute(1, null))).isEqualTo(nullKey);
  }

  @Test
  void markersNeedPrepareAndAreRefusedWhereAPreparedSelectCannotTakeThem() {
    assertThatThrownBy(() -> t.select().eq("p", Select.marker()).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("prepare() the select");
    assertThatThrownBy(
            () -> t.select().eq("p", 1).gt(List.of("c"), List.of(Select.marker())).prepare())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("multi-column restrictions");
    assertThatThrownBy(() -> t.select().eq("p", 1).groupBy("p").prepare())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("grouped and ANN selects");
  }

  @Test
  void aTableWithAnIndexIsReadThroughTheFullPath() {
    t.createIndex(IndexDef.sai("by_n", "n"));
    t.insert().value("p", 1).value("c", 2L).value("v", "x").value("n", 7).execute();
    PreparedSelect byKey = t.select().eq("p", Select.marker()).eq("c", Select.marker()).prepare();
    assertThat(byKey.one(1, 2L).orElseThrow().getString("v")).isEqualTo("x");
    PreparedSelect byN = t.select().eq("n", Select.marker()).prepare();
    List<String> vs = new ArrayList<>();
    byN.execute(7).forEach(r -> vs.add(r.getString("v")));
    assertThat(vs).containsExactly("x");
  }

  private static String message(Runnable r) {
    try {
      r.run();
      return "no exception";
    } catch (RuntimeException e) {
      return e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }
}
