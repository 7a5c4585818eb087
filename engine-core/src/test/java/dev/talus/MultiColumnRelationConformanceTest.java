package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Multi-column relations on clustering columns — {@code (b, c) > (x, y)}, mixed bounds, {@code (b,
 * c) IN ((..), (..))} — through the builder API, with Cassandra 5.0's results and validity rules.
 * Each test names the SelectMultiColumnRelationTest method it mirrors and checks before and after a
 * flush.
 */
class MultiColumnRelationConformanceTest {
  private static final List<String> BC = List.of("b", "c");
  private static final List<String> BCD = List.of("b", "c", "d");

  @TempDir Path dir;
  private TalusDb db;
  private Table t;

  @BeforeEach
  void open() {
    db = TalusDb.open(TalusOptions.builder(dir).clock(ManualClock.startingAtDefault()).build());
  }

  @AfterEach
  void close() {
    db.close();
  }

  private void beforeAndAfterFlush(Runnable check) {
    check.run();
    t.flush();
    check.run();
  }

  private static List<Object> v(Object... values) {
    return java.util.Arrays.asList(values); // may hold null
  }

  private Select a0() {
    return t.select().eq("a", 0);
  }

  /** (a, b, c, d) rows "bcd" as in testMultipleClustering, clustering stored in these orders. */
  private void table(ClusteringOrder b, ClusteringOrder c, ClusteringOrder d, String... bcd) {
    t =
        db.createTable(
            TableSchema.builder("m")
                .partitionKey("a", DataType.INT)
                .clusteringColumn("b", DataType.INT, b)
                .clusteringColumn("c", DataType.INT, c)
                .clusteringColumn("d", DataType.INT, d)
                .build());
    for (String r : bcd) {
      String[] x = r.split(",");
      t.insert()
          .value("a", 0)
          .value("b", Integer.parseInt(x[0]))
          .value("c", Integer.parseInt(x[1]))
          .value("d", Integer.parseInt(x[2]))
          .execute();
    }
  }

  private static List<String> rows(Select s) {
    return s.execute().rows().stream()
        .map(r -> r.getInt("b") + "," + r.getInt("c") + "," + r.getInt("d"))
        .toList();
  }

  private static final String[] SIX = {"0,0,0", "0,1,0", "0,1,1", "1,0,0", "1,1,0", "1,1,1"};

  /** SelectMultiColumnRelationTest.testMultipleClustering: equalities, slices, reversed, IN. */
  @Test
  void multiColumnRelationsOnAscendingColumns() {
    ClusteringOrder asc = ClusteringOrder.ASC;
    table(asc, asc, asc, SIX);
    beforeAndAfterFlush(
        () -> {
          assertThat(rows(a0().in(BCD, List.of()))).isEmpty();
          assertThat(rows(a0().eq(List.of("b"), v(1)))).containsExactly("1,0,0", "1,1,0", "1,1,1");
          assertThat(rows(a0().eq(BC, v(1, 1)))).containsExactly("1,1,0", "1,1,1");
          assertThat(rows(a0().eq(BCD, v(1, 1, 1)))).containsExactly("1,1,1");
          assertThat(rows(a0().gt(List.of("b"), v(0)))).containsExactly("1,0,0", "1,1,0", "1,1,1");
          assertThat(rows(a0().gt(BC, v(1, 0)))).containsExactly("1,1,0", "1,1,1");
          assertThat(rows(a0().ge(BC, v(1, 0)))).containsExactly("1,0,0", "1,1,0", "1,1,1");
          assertThat(rows(a0().gt(BCD, v(1, 1, 0)))).containsExactly("1,1,1");
          assertThat(rows(a0().ge(BCD, v(1, 1, 0)))).containsExactly("1,1,0", "1,1,1");
          assertThat(rows(a0().lt(BC, v(0, 1)))).containsExactly("0,0,0");
          assertThat(rows(a0().le(BC, v(0, 1)))).containsExactly("0,0,0", "0,1,0", "0,1,1");
          assertThat(rows(a0().lt(BCD, v(0, 1, 1)))).containsExactly("0,0,0", "0,1,0");
          assertThat(rows(a0().le(BCD, v(0, 1, 1)))).containsExactly("0,0,0", "0,1,0", "0,1,1");
          // mixed bounds: (b, c, d) > (0, 1, 0) AND (b) < (1), AND b < 1, AND (b, c) < (1, 1)
          assertThat(rows(a0().gt(BCD, v(0, 1, 0)).lt(List.of("b"), v(1))))
              .containsExactly("0,1,1");
          assertThat(rows(a0().gt(BCD, v(0, 1, 0)).lt("b", 1))).containsExactly("0,1,1");
          assertThat(rows(a0().gt(BCD, v(0, 1, 1)).lt(BC, v(1, 1)))).containsExactly("1,0,0");
          assertThat(rows(a0().gt(BCD, v(0, 1, 1)).lt(BCD, v(1, 1, 0)))).containsExactly("1,0,0");
          // reversed
          assertThat(rows(a0().ge(List.of("b"), v(0)).orderBy("b", ClusteringOrder.DESC)))
              .containsExactly("1,1,1", "1,1,0", "1,0,0", "0,1,1", "0,1,0", "0,0,0");
          assertThat(rows(a0().ge(BC, v(1, 0)).reversed()))
              .containsExactly("1,1,1", "1,1,0", "1,0,0");
          assertThat(rows(a0().gt(BCD, v(0, 1, 1)).lt(BC, v(1, 1)).reversed()))
              .containsExactly("1,0,0");
          // IN: clustering order whatever the order of the tuples, each once
          assertThat(rows(a0().in(BCD, List.of(v(0, 1, 1), v(0, 1, 0), v(0, 1, 1)))))
              .containsExactly("0,1,0", "0,1,1");
          assertThat(rows(a0().in(BC, List.of(v(0, 1))))).containsExactly("0,1,0", "0,1,1");
          assertThat(rows(a0().in(BC, List.of(v(0, 1))).reversed()))
              .containsExactly("0,1,1", "0,1,0");
          assertThat(rows(a0().in(BC, List.of()).reversed())).isEmpty();
        });
    // IN on both the partition key and the clustering columns
    t.insert().value("a", 1).value("b", 0).value("c", 1).value("d", 0).execute();
    t.insert().value("a", 1).value("b", 0).value("c", 1).value("d", 1).execute();
    List<String> both =
        t.select().in("a", 1, 0).in(BCD, List.of(v(0, 1, 1), v(0, 1, 0))).execute().rows().stream()
            .map(r -> r.getInt("a") + ":" + r.getInt("d"))
            .toList();
    assertThat(both).containsExactly("0:0", "0:1", "1:0", "1:1");
  }

  /**
   * SelectMultiColumnRelationTest.testMultiAndSingleColumnRelationMix and
   * testSeveralMultiColumnRelation: single-column and multi-column relations together.
   */
  @Test
  void singleAndMultiColumnRelationsMix() {
    ClusteringOrder asc = ClusteringOrder.ASC;
    table(asc, asc, asc, SIX);
    beforeAndAfterFlush(
        () -> {
          List<String> cd = List.of("c", "d");
          assertThat(rows(a0().eq("b", 1).eq(cd, v(0, 0)))).containsExactly("1,0,0");
          assertThat(rows(a0().in("b", 0, 1).eq(cd, v(0, 0)))).containsExactly("0,0,0", "1,0,0");
          assertThat(rows(a0().eq("b", 1).in(List.of("c"), List.of(v(0), v(1)))))
              .containsExactly("1,0,0", "1,1,0", "1,1,1");
          assertThat(rows(a0().in("b", 0, 1).in(cd, List.of(v(0, 0), v(1, 1)))))
              .containsExactly("0,0,0", "0,1,1", "1,0,0", "1,1,1");
          assertThat(rows(a0().in(List.of("b"), List.of(v(0), v(1))).gt(cd, v(0, 0))))
              .containsExactly("0,1,0", "0,1,1", "1,1,0", "1,1,1");
          assertThat(rows(a0().eq("b", 1).gt(cd, v(0, 0)).le(List.of("c"), v(1))))
              .containsExactly("1,1,0", "1,1,1");
          assertThat(rows(a0().eq("b", 1).gt(cd, v(0, 0)).le("c", 1)))
              .containsExactly("1,1,0", "1,1,1");
          assertThat(rows(a0().eq("b", 1).ge(cd, v(0, 0)).lt(cd, v(1, 1))))
              .containsExactly("1,0,0", "1,1,0");
          assertThat(rows(a0().eq(BC, v(0, 1)).eq("d", 0))).containsExactly("0,1,0");
          assertThat(rows(a0().in(BC, List.of(v(0, 1), v(0, 0))).eq("d", 0)))
              .containsExactly("0,0,0", "0,1,0");
          assertThat(rows(a0().eq(BC, v(0, 1)).in("d", 0, 2))).containsExactly("0,1,0");
          assertThat(rows(a0().eq(BC, v(0, 1)).ge("d", 0))).containsExactly("0,1,0", "0,1,1");
          assertThat(rows(a0().lt("d", 1).eq(BC, v(0, 1)).ge("d", 0))).containsExactly("0,1,0");
          assertThat(rows(a0().lt(List.of("d"), v(1)).in(BC, List.of(v(0, 1), v(0, 0))).ge("d", 0)))
              .containsExactly("0,0,0", "0,1,0");
        });
  }

  /**
   * SelectMultiColumnRelationTest.testMultipleClusteringReversedComponents: a tuple compares
   * values, whatever each column's clustering order; rows still come in clustering order.
   */
  @Test
  void tupleOrderIsValueOrderOverColumnsOfMixedOrder() {
    table(
        ClusteringOrder.DESC,
        ClusteringOrder.ASC,
        ClusteringOrder.DESC,
        "1,0,0",
        "1,1,1",
        "1,1,0",
        "0,0,0",
        "0,1,1",
        "0,1,0");
    beforeAndAfterFlush(
        () -> {
          assertThat(rows(a0().gt(List.of("b"), v(0)))).containsExactly("1,0,0", "1,1,1", "1,1,0");
          assertThat(rows(a0().le(List.of("b"), v(1))))
              .containsExactly("1,0,0", "1,1,1", "1,1,0", "0,0,0", "0,1,1", "0,1,0");
          assertThat(rows(a0().in(BCD, List.of(v(1, 1, 1), v(0, 1, 1)))))
              .containsExactly("1,1,1", "0,1,1");
          assertThat(rows(a0().in(BCD, List.of(v(0, 1, 1), v(1, 1, 1)))))
              .containsExactly("1,1,1", "0,1,1");
          assertThat(rows(a0().in(BC, List.of(v(0, 1))))).containsExactly("0,1,1", "0,1,0");
          assertThat(rows(a0().gt(BC, v(1, 0)))).containsExactly("1,1,1", "1,1,0");
        });
  }

  /**
   * SelectMultiColumnRelationTest.testMixedOrderColumns1 (part): bounds over columns of alternating
   * order become several slices; the result is every row whose tuple lies between them, in
   * clustering order.
   */
  @Test
  void boundsOverAlternatingOrders() {
    String[] rows = {
      "2,0,-1,0", "2,0,-1,1", "2,0,1,1", "1,-1,0,0", "1,-1,1,1", "1,-1,1,0", "1,0,1,-1", "1,0,1,1",
      "1,0,0,-1", "1,0,0,0", "1,0,0,1", "1,0,-1,-1", "1,1,0,-1", "1,1,0,0", "1,1,0,1", "1,1,-1,0",
      "0,0,0,0", "-1,0,-1,0", "-1,0,0,0"
    };
    t =
        db.createTable(
            TableSchema.builder("mixed")
                .partitionKey("a", DataType.INT)
                .clusteringColumn("b", DataType.INT, ClusteringOrder.DESC)
                .clusteringColumn("c", DataType.INT, ClusteringOrder.ASC)
                .clusteringColumn("d", DataType.INT, ClusteringOrder.DESC)
                .clusteringColumn("e", DataType.INT, ClusteringOrder.ASC)
                .build());
    for (String r : rows) {
      String[] x = r.split(",");
      t.insert()
          .value("a", 0)
          .value("b", Integer.parseInt(x[0]))
          .value("c", Integer.parseInt(x[1]))
          .value("d", Integer.parseInt(x[2]))
          .value("e", Integer.parseInt(x[3]))
          .execute();
    }
    List<String> bcde = List.of("b", "c", "d", "e");
    Function<Select, List<String>> run =
        s ->
            s.execute().rows().stream()
                .map(
                    r ->
                        r.getInt("b")
                            + ","
                            + r.getInt("c")
                            + ","
                            + r.getInt("d")
                            + ","
                            + r.getInt("e"))
                .toList();
    beforeAndAfterFlush(
        () -> {
          // (b,c,d,e) <= (2,0,1,1) AND (b) > (-1): everything but b = -1
          assertThat(run.apply(a0().le(bcde, v(2, 0, 1, 1)).gt(List.of("b"), v(-1))))
              .containsExactly(
                  "2,0,1,1",
                  "2,0,-1,0",
                  "2,0,-1,1",
                  "1,-1,1,0",
                  "1,-1,1,1",
                  "1,-1,0,0",
                  "1,0,1,-1",
                  "1,0,1,1",
                  "1,0,0,-1",
                  "1,0,0,0",
                  "1,0,0,1",
                  "1,0,-1,-1",
                  "1,1,0,-1",
                  "1,1,0,0",
                  "1,1,0,1",
                  "1,1,-1,0",
                  "0,0,0,0");
          assertThat(run.apply(a0().ge(List.of("b", "c", "d"), v(1, 1, 0)).lt(bcde, v(1, 1, 0, 1))))
              .containsExactly("1,1,0,-1", "1,1,0,0");
          assertThat(run.apply(a0().lt(bcde, v(1, 0, 0, 0)).gt(bcde, v(1, 0, -1, -1))))
              .containsExactly("1,0,0,-1");
          assertThat(run.apply(a0().le(bcde, v(1, 0, 0, 0))))
              .containsExactly(
                  "1,-1,1,0",
                  "1,-1,1,1",
                  "1,-1,0,0",
                  "1,0,0,-1",
                  "1,0,0,0",
                  "1,0,-1,-1",
                  "0,0,0,0",
                  "-1,0,0,0",
                  "-1,0,-1,0");
          assertThat(run.apply(a0().gt(bcde, v(1, 0, 0, 0))))
              .containsExactly(
                  "2,0,1,1",
                  "2,0,-1,0",
                  "2,0,-1,1",
                  "1,0,1,-1",
                  "1,0,1,1",
                  "1,0,0,1",
                  "1,1,0,-1",
                  "1,1,0,0",
                  "1,1,0,1",
                  "1,1,-1,0");
          // reversed: the same rows backwards
          List<String> forward = run.apply(a0().gt(bcde, v(1, 0, 0, 0)));
          List<String> backward =
              new ArrayList<>(run.apply(a0().gt(bcde, v(1, 0, 0, 0)).reversed()));
          java.util.Collections.reverse(backward);
          assertThat(backward).isEqualTo(forward);
        });
  }

  private void refused(Select s, String... fragments) {
    assertThatThrownBy(s::execute)
        .isInstanceOf(InvalidQueryException.class)
        .satisfies(
            e -> {
              for (String f : fragments) {
                assertThat(e.getMessage()).contains(f);
              }
            });
  }

  /**
   * SelectMultiColumnRelationTest.testMultiClusteringInvalidQueries and
   * testSingleClusteringInvalidQueries, testSinglePartitionInvalidQueries,
   * testMultiColumnRestrictionsWithIndex ("Multi-column slice restrictions cannot be used for
   * filtering").
   */
  @Test
  void invalidMultiColumnRelationsAreRefused() {
    ClusteringOrder asc = ClusteringOrder.ASC;
    table(asc, asc, asc, SIX);
    refused(a0().gt(BC, v(1, 2, 3)), "expects 2 values", "got 3");
    refused(a0().gt(BC, v(1, null)), "cannot be null");
    refused(a0().eq(List.of("d", "c", "b"), v(0, 0, 0)), "consecutive clustering columns");
    refused(a0().gt(List.of("b", "d"), v(0, 0)), "consecutive clustering columns");
    refused(a0().in(BCD, List.of(v(0, 1))), "expects 3 values");
    refused(a0().eq(List.of("c", "d"), v(0, 0)), "skips b");
    refused(a0().gt(List.of("c", "d"), v(0, 0)), "by a range but b");
    refused(a0().gt(BCD, v(0, 1, 0)).lt("c", 1), "do not start at the same clustering column");
    refused(a0().gt("c", 1).lt(BCD, v(1, 1, 0)), "do not start at the same clustering column");
    refused(a0().gt(BC, v(0, 0)).lt(List.of("c"), v(0)), "do not start at the same clustering");
    refused(a0().gt("b", 0).in(List.of("c", "d"), List.of(v(0, 0), v(1, 1))), "after a range on b");
    refused(a0().gt("b", 0).gt(List.of("c", "d"), v(0, 0)), "ranges on both b and c");
    refused(a0().eq(List.of("b"), v(0)).gt(List.of("b"), v(0)), "column b is restricted both");
    refused(a0().gt(List.of("b"), v(0)).gt(List.of("b"), v(1)), "two lower bounds");
    refused(a0().gt(List.of("b"), v(0)).gt("b", 1), "two lower bounds");
    refused(a0().eq(List.of("a", "b"), v(0, 0)), "not a clustering column");
    refused(a0().eq(List.of(), v()), "names no column");
    refused(
        a0().gt(List.of("c", "d"), v(0, 0)).allowFiltering(),
        "Multi-column slice restrictions cannot be used for filtering");
    // a multi-column equality may filter, as in Cassandra
    assertThat(rows(a0().eq(List.of("c", "d"), v(1, 1)).allowFiltering()))
        .containsExactly("0,1,1", "1,1,1");
  }

  /**
   * SelectTest.testEmptyRestrictionValueWithMultipleClusteringColumns: empty blobs are values like
   * any other in tuples, equalities and IN.
   */
  @Test
  void emptyBlobValuesInTuples() {
    t =
        db.createTable(
            TableSchema.builder("blobs")
                .partitionKey("pk", DataType.BLOB)
                .clusteringColumn("c1", DataType.BLOB)
                .clusteringColumn("c2", DataType.BLOB)
                .column("v", DataType.BLOB)
                .build());
    byte[] pk = "foo123".getBytes();
    byte[] one = "1".getBytes();
    byte[] two = "2".getBytes();
    byte[] empty = new byte[0];
    t.insert().value("pk", pk).value("c1", one).value("c2", one).value("v", one).execute();
    t.insert().value("pk", pk).value("c1", one).value("c2", two).value("v", two).execute();
    List<String> c12 = List.of("c1", "c2");
    Function<Select, List<String>> v =
        s -> s.execute().rows().stream().map(r -> new String(r.getBytes("v"))).toList();
    beforeAndAfterFlush(
        () -> {
          assertThat(v.apply(t.select().eq("pk", pk).eq(c12, v(one, empty)))).isEmpty();
          assertThat(v.apply(t.select().eq("pk", pk).in(c12, List.of(v(empty, one), v(one, one)))))
              .containsExactly("1");
          assertThat(v.apply(t.select().eq("pk", pk).gt(c12, v(empty, one))))
              .containsExactly("1", "2");
          assertThat(v.apply(t.select().eq("pk", pk).le(c12, v(one, empty)))).isEmpty();
        });
    t.insert()
        .value("pk", pk)
        .value("c1", empty)
        .value("c2", one)
        .value("v", "4".getBytes())
        .execute();
    beforeAndAfterFlush(
        () -> {
          assertThat(v.apply(t.select().eq("pk", pk).eq(c12, v(empty, one)))).containsExactly("4");
          assertThat(v.apply(t.select().eq("pk", pk).ge(c12, v(empty, one))))
              .containsExactly("4", "1", "2");
          assertThat(v.apply(t.select().eq("pk", pk).le(c12, v(empty, one)))).containsExactly("4");
          assertThat(v.apply(t.select().eq("pk", pk).lt(c12, v(empty, one)))).isEmpty();
        });
  }
}
