package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reads across partitions with {@code in(...)} on the partition key, as Cassandra 5.0 answers them:
 * partitions in partition key order, each once; with an order, the rows of all of them merged into
 * it, the limits applied to the merged result. Each test names the Cassandra test it mirrors; each
 * runs before and after a flush where Cassandra's does ({@code beforeAndAfterFlush}).
 */
class InQueryConformanceTest {
  @TempDir Path dir;
  private TalusDb db;

  @BeforeEach
  void open() {
    db = TalusDb.open(TalusOptions.builder(dir).clock(ManualClock.startingAtDefault()).build());
  }

  @AfterEach
  void close() {
    db.close();
  }

  /** Checks {@code check} on the memtable, then again after a flush. */
  private static void beforeAndAfterFlush(Table t, Runnable check) {
    check.run();
    t.flush();
    check.run();
  }

  private static List<String> rows(Select s, Function<ResultRow, String> f) {
    return s.execute().rows().stream().map(f).toList();
  }

  private Table kc1c2() {
    Table t =
        db.createTable(
            TableSchema.builder("kc")
                .partitionKey("k", DataType.INT)
                .clusteringColumn("c1", DataType.INT)
                .clusteringColumn("c2", DataType.INT)
                .column("v", DataType.INT)
                .build());
    int v = 0;
    for (int k = 0; k <= 1; k++) {
      for (int c2 = 0; c2 <= 2; c2++) {
        t.insert().value("k", k).value("c1", k).value("c2", c2).value("v", v++).execute();
      }
    }
    return t;
  }

  /**
   * SelectOrderByTest.testInOrderByWithoutSelecting: {@code k IN (1, 0)} returns k = 0 first.
   * Cassandra builds the keys of an IN as a sorted set, so partitions come back in partition key
   * order (not in token order: Murmur3 puts 1 before 0), each once; the same with ORDER BY c1.
   */
  @Test
  void partitionsComeBackInPartitionKeyOrder() {
    Table t = kc1c2();
    beforeAndAfterFlush(
        t,
        () -> {
          Function<ResultRow, String> v = r -> String.valueOf(r.getInt("v"));
          assertThat(rows(t.select().in("k", 1, 0).columns("v"), v))
              .containsExactly("0", "1", "2", "3", "4", "5");
          assertThat(rows(t.select().in("k", 1, 0).orderBy("c1", ClusteringOrder.ASC), v))
              .containsExactly("0", "1", "2", "3", "4", "5");
          assertThat(rows(t.select().in("k", 1, 0).orderBy("c1", ClusteringOrder.DESC), v))
              .containsExactly("5", "4", "3", "2", "1", "0");
        });
  }

  /**
   * SelectSingleColumnRelationTest.testINWithDuplicateValue and
   * SelectMultiColumnRelationTest.testINWithDuplicateValue: a repeated value selects its partition
   * (and row) once.
   */
  @Test
  void aRepeatedValueSelectsItsPartitionOnce() {
    Table t =
        db.createTable(
            TableSchema.builder("dup")
                .partitionKey("k1", DataType.INT)
                .clusteringColumn("k2", DataType.INT)
                .column("v", DataType.INT)
                .build());
    t.insert().value("k1", 1).value("k2", 1).value("v", 1).execute();
    beforeAndAfterFlush(
        t,
        () -> {
          assertThat(t.select().in("k1", 1, 1).execute().size()).isEqualTo(1);
          assertThat(t.select().in("k1", 1, 1).in("k2", 1, 1).execute().size()).isEqualTo(1);
          assertThat(t.select().eq("k1", 1).in("k2", 1, 1).execute().size()).isEqualTo(1);
          assertThat(t.select().in("k1", 1, 1).orderBy("k2", ClusteringOrder.DESC).execute().size())
              .isEqualTo(1);
        });
  }

  /**
   * An IN without values selects nothing (SelectMultiColumnRelationTest.testMultipleClustering,
   * "Empty query"); the rest of the query is still checked.
   */
  @Test
  void anEmptyInSelectsNothing() {
    Table t = kc1c2();
    assertThat(t.select().in("k").execute().isEmpty()).isTrue();
    assertThat(t.select().in("k", List.of()).orderBy("c1", ClusteringOrder.DESC).execute().rows())
        .isEmpty();
    assertThatThrownBy(() -> t.select().in("k").eq("c2", 1).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("skips c1");
  }

  private Table myIds() {
    Table t =
        db.createTable(
            TableSchema.builder("ids")
                .partitionKey("my_id", DataType.TEXT)
                .clusteringColumn("col1", DataType.INT)
                .column("value", DataType.TEXT)
                .build());
    t.insert().value("my_id", "key1").value("col1", 1).value("value", "a").execute();
    t.insert().value("my_id", "key2").value("col1", 3).value("value", "c").execute();
    t.insert().value("my_id", "key3").value("col1", 2).value("value", "b").execute();
    t.insert().value("my_id", "key4").value("col1", 4).value("value", "d").execute();
    return t;
  }

  /** SelectOrderByTest.testOrderByForInClause, first table: the partitions' rows are merged. */
  @Test
  void orderByMergesThePartitionsRows() {
    Table t = myIds();
    beforeAndAfterFlush(
        t,
        () -> {
          Supplier<Select> q =
              () ->
                  t.select()
                      .in("my_id", "key1", "key2", "key3")
                      .orderBy("col1", ClusteringOrder.ASC);
          Function<ResultRow, String> col1 = r -> String.valueOf(r.getInt("col1"));
          assertThat(rows(q.get(), col1)).containsExactly("1", "2", "3");
          assertThat(rows(q.get().limit(2), col1)).containsExactly("1", "2");
          assertThat(rows(q.get().limit(10), col1)).containsExactly("1", "2", "3");
          assertThat(rows(q.get(), r -> r.getInt("col1") + r.getString("my_id")))
              .containsExactly("1key1", "2key3", "3key2");
        });
  }

  /**
   * SelectOrderByTest.testOrderByForInClause, composite partition keys with one and two clustering
   * columns, ascending and descending, with LIMIT.
   */
  @Test
  void orderByMergesAcrossCompositePartitionKeys() {
    Table one =
        db.createTable(
            TableSchema.builder("one")
                .partitionKey("pk1", DataType.INT)
                .partitionKey("pk2", DataType.INT)
                .clusteringColumn("c", DataType.INT)
                .column("v", DataType.TEXT)
                .build());
    one.insert().value("pk1", 1).value("pk2", 1).value("c", 2).value("v", "A").execute();
    one.insert().value("pk1", 1).value("pk2", 2).value("c", 1).value("v", "B").execute();
    one.insert().value("pk1", 1).value("pk2", 3).value("c", 3).value("v", "C").execute();
    one.insert().value("pk1", 1).value("pk2", 1).value("c", 4).value("v", "D").execute();
    Function<ResultRow, String> v = r -> r.getString("v");
    beforeAndAfterFlush(
        one,
        () -> {
          Supplier<Select> q =
              () -> one.select().eq("pk1", 1).in("pk2", 1, 2).orderBy("c", ClusteringOrder.ASC);
          assertThat(rows(q.get(), v)).containsExactly("B", "A", "D");
          assertThat(rows(q.get().limit(2), v)).containsExactly("B", "A");
          assertThat(rows(q.get().limit(10), v)).containsExactly("B", "A", "D");
        });

    Table two =
        db.createTable(
            TableSchema.builder("two")
                .partitionKey("pk1", DataType.INT)
                .partitionKey("pk2", DataType.INT)
                .clusteringColumn("c1", DataType.INT)
                .clusteringColumn("c2", DataType.INT)
                .column("v", DataType.TEXT)
                .build());
    two.insert()
        .value("pk1", 1)
        .value("pk2", 1)
        .value("c1", 4)
        .value("c2", 4)
        .value("v", "A")
        .execute();
    two.insert()
        .value("pk1", 1)
        .value("pk2", 2)
        .value("c1", 1)
        .value("c2", 2)
        .value("v", "B")
        .execute();
    two.insert()
        .value("pk1", 1)
        .value("pk2", 3)
        .value("c1", 3)
        .value("c2", 3)
        .value("v", "C")
        .execute();
    two.insert()
        .value("pk1", 1)
        .value("pk2", 1)
        .value("c1", 4)
        .value("c2", 1)
        .value("v", "D")
        .execute();
    beforeAndAfterFlush(
        two,
        () -> {
          Supplier<Select> asc =
              () ->
                  two.select()
                      .eq("pk1", 1)
                      .in("pk2", 1, 2)
                      .orderBy("c1", ClusteringOrder.ASC)
                      .orderBy("c2", ClusteringOrder.ASC);
          assertThat(rows(asc.get(), v)).containsExactly("B", "D", "A");
          assertThat(rows(asc.get().limit(2), v)).containsExactly("B", "D");
          Supplier<Select> desc =
              () ->
                  two.select()
                      .eq("pk1", 1)
                      .in("pk2", 1, 2)
                      .orderBy("c1", ClusteringOrder.DESC)
                      .orderBy("c2", ClusteringOrder.DESC);
          assertThat(rows(desc.get(), v)).containsExactly("A", "D", "B");
          assertThat(rows(desc.get().limit(2), v)).containsExactly("A", "D");
          assertThat(rows(desc.get().limit(10), v)).containsExactly("A", "D", "B");
          // reversed() is the same order as ORDER BY every column reversed
          assertThat(rows(two.select().eq("pk1", 1).in("pk2", 1, 2).reversed(), v))
              .containsExactly("A", "D", "B");
        });
  }

  /**
   * SelectOrderByTest.testInOrderByWithTwoPartitionKeyColumns, with the clustering column stored
   * ASC and DESC.
   */
  @ParameterizedTest(name = "col_3 {0}")
  @ValueSource(strings = {"ASC", "DESC"})
  void orderByOverTwoPartitionKeyColumns(ClusteringOrder stored) {
    Table t =
        db.createTable(
            TableSchema.builder("t" + stored)
                .partitionKey("col_1", DataType.INT)
                .partitionKey("col_2", DataType.INT)
                .clusteringColumn("col_3", DataType.INT, stored)
                .build());
    int[][] rows = {{1, 1, 1}, {1, 1, 2}, {1, 1, 13}, {1, 2, 10}, {1, 2, 11}};
    for (int[] r : rows) {
      t.insert().value("col_1", r[0]).value("col_2", r[1]).value("col_3", r[2]).execute();
    }
    Function<ResultRow, String> key = r -> r.getInt("col_2") + ":" + r.getInt("col_3");
    beforeAndAfterFlush(
        t,
        () -> {
          assertThat(
                  rows(
                      t.select()
                          .eq("col_1", 1)
                          .in("col_2", 1, 2)
                          .orderBy("col_3", ClusteringOrder.ASC),
                      key))
              .containsExactly("1:1", "1:2", "2:10", "2:11", "1:13");
          assertThat(
                  rows(
                      t.select()
                          .in("col_2", 2, 1)
                          .eq("col_1", 1)
                          .orderBy("col_3", ClusteringOrder.DESC),
                      key))
              .containsExactly("1:13", "2:11", "2:10", "1:2", "1:1");
        });
  }

  private Table abc() {
    Table t =
        db.createTable(
            TableSchema.builder("abc")
                .partitionKey("a", DataType.INT)
                .clusteringColumn("b", DataType.INT)
                .column("c", DataType.INT)
                .build());
    for (int i = 0; i < 5; i++) {
      for (int j = 0; j < 5; j++) {
        t.insert().value("a", i).value("b", j).value("c", j).execute();
      }
    }
    return t;
  }

  private static String ab(ResultRow r) {
    return r.getInt("a") + ":" + r.getInt("b");
  }

  /**
   * SelectLimitTest.testPerPartitionLimit: the per-partition limit per partition, then LIMIT over
   * the partitions in order; with ORDER BY, over the merged rows, ties in partition key order.
   */
  @Test
  void perPartitionLimitAndLimitWithAndWithoutOrder() {
    Table t = abc();
    assertThat(rows(t.select().in("a", 2, 3).perPartitionLimit(2), InQueryConformanceTest::ab))
        .containsExactly("2:0", "2:1", "3:0", "3:1");
    assertThat(
            rows(
                t.select().in("a", 2, 3).perPartitionLimit(2).limit(3), InQueryConformanceTest::ab))
        .containsExactly("2:0", "2:1", "3:0");
    assertThat(
            rows(
                t.select().in("a", 1, 2, 3).perPartitionLimit(2).limit(3),
                InQueryConformanceTest::ab))
        .containsExactly("1:0", "1:1", "2:0");
    assertThat(
            rows(
                t.select().in("a", 3, 2).orderBy("b", ClusteringOrder.DESC).perPartitionLimit(2),
                InQueryConformanceTest::ab))
        .containsExactly("2:4", "3:4", "2:3", "3:3");
    assertThat(
            rows(
                t.select()
                    .in("a", 3, 2)
                    .orderBy("b", ClusteringOrder.DESC)
                    .perPartitionLimit(3)
                    .limit(4),
                InQueryConformanceTest::ab))
        .containsExactly("2:4", "3:4", "2:3", "3:3");
    assertThat(
            rows(
                t.select()
                    .eq("a", 2)
                    .gt("b", 2)
                    .orderBy("b", ClusteringOrder.DESC)
                    .perPartitionLimit(2),
                InQueryConformanceTest::ab))
        .containsExactly("2:4", "2:3");
  }

  private static List<String> pageThrough(Supplier<Select> query, int pageSize) {
    List<String> all = new ArrayList<>();
    PagingState state = null;
    int pages = 0;
    do {
      Select s = query.get().pageSize(pageSize);
      if (state != null) {
        s.pagingState(state);
      }
      ResultSet page = s.execute();
      page.forEach(r -> all.add(ab(r)));
      state = page.pagingState().orElse(null);
      assertThat(++pages).as("runaway paging").isLessThan(100);
    } while (state != null);
    return all;
  }

  /**
   * SelectLimitTest.testPerPartitionLimitWithStaticDataAndPaging: the per-partition limit holds
   * across pages, whatever the page size, also when a page ends inside a partition.
   */
  @Test
  void perPartitionLimitHoldsAcrossPages() {
    Table t = abc();
    for (int pageSize = 1; pageSize < 8; pageSize++) {
      assertThat(pageThrough(() -> t.select().in("a", 2, 3).perPartitionLimit(2), pageSize))
          .as("page size %d", pageSize)
          .containsExactly("2:0", "2:1", "3:0", "3:1");
      assertThat(
              pageThrough(
                  () -> t.select().in("a", 1, 2, 3).perPartitionLimit(2).limit(3), pageSize))
          .containsExactly("1:0", "1:1", "2:0");
      assertThat(pageThrough(() -> t.select().eq("a", 2).perPartitionLimit(3), pageSize))
          .containsExactly("2:0", "2:1", "2:2");
      assertThat(
              pageThrough(
                  () -> t.select().eq("a", 2).reversed().gt("b", 2).perPartitionLimit(2), pageSize))
          .containsExactly("2:4", "2:3");
    }
  }

  /**
   * Talus pages through merged rows too; Cassandra refuses to page an IN query with ORDER BY
   * ("Cannot page queries with both ORDER BY and a IN restriction on the partition key"), a
   * documented difference. Pages concatenate to the unpaged result, ties across partitions
   * included.
   */
  @Test
  void mergedRowsPageLikeTheUnpagedResult() {
    Table t = abc();
    for (ClusteringOrder o : ClusteringOrder.values()) {
      Supplier<Select> q = () -> t.select().in("a", 4, 0, 2).orderBy("b", o);
      List<String> whole = rows(q.get(), InQueryConformanceTest::ab);
      assertThat(whole).hasSize(15);
      assertThat(whole.subList(0, 3))
          .containsExactly(
              o == ClusteringOrder.ASC
                  ? new String[] {"0:0", "2:0", "4:0"}
                  : new String[] {"0:4", "2:4", "4:4"});
      for (int pageSize = 1; pageSize < 8; pageSize++) {
        assertThat(pageThrough(q, pageSize)).as("page size %d", pageSize).isEqualTo(whole);
        assertThat(pageThrough(() -> q.get().limit(7), pageSize)).isEqualTo(whole.subList(0, 7));
      }
    }
    // merged, the per-partition limit cannot follow the pages: refused, naming why
    assertThatThrownBy(
            () ->
                t.select()
                    .in("a", 1, 2)
                    .orderBy("b", ClusteringOrder.ASC)
                    .perPartitionLimit(2)
                    .pageSize(2)
                    .execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("Cassandra refuses to page any ordered IN query");
  }

  /**
   * SelectLimitTest.testFilteringOnClusteringColumnsWithLimitAndStaticColumns: IN with equality on
   * the clustering column, ordered and limited.
   */
  @Test
  void inWithClusteringEqualityOrderedAndLimited() {
    Table t = abc();
    assertThat(
            rows(
                t.select()
                    .in("a", 0, 1, 2, 3)
                    .eq("b", 1)
                    .orderBy("b", ClusteringOrder.DESC)
                    .limit(2),
                InQueryConformanceTest::ab))
        .containsExactly("0:1", "1:1");
    assertThat(rows(t.select().in("a", 0, 1, 2, 3).eq("b", 1).limit(2), InQueryConformanceTest::ab))
        .containsExactly("0:1", "1:1");
  }
}
