package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Single-column clustering restrictions as Cassandra 5.0 takes them: IN on clustering columns
 * (several: their cartesian product, in clustering order or its reverse), ORDER BY leaving out
 * columns restricted by equality, and filtering on clustering columns inside the named partitions
 * with the opt-in. Each test names the Cassandra test it mirrors and checks before and after a
 * flush.
 */
class ClusteringRestrictionConformanceTest {
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

  private static List<String> bc(Select s) {
    return s.execute().rows().stream().map(r -> r.getInt("b") + ":" + r.getInt("c")).toList();
  }

  /** a text, b int, c int, d int, PRIMARY KEY (a, b, c), as testClusteringColumnRelations. */
  private void abcd(ClusteringOrder bOrder) {
    t =
        db.createTable(
            TableSchema.builder("abcd")
                .partitionKey("a", DataType.TEXT)
                .clusteringColumn("b", DataType.INT, bOrder)
                .clusteringColumn("c", DataType.INT)
                .column("d", DataType.INT)
                .build());
    int[][] rows = {{1, 5, 1}, {2, 6, 2}, {3, 7, 3}};
    for (int[] r : rows) {
      t.insert().value("a", "first").value("b", r[0]).value("c", r[1]).value("d", r[2]).execute();
    }
    t.insert().value("a", "second").value("b", 4).value("c", 8).value("d", 4).execute();
  }

  private Select first() {
    return t.select().eq("a", "first");
  }

  /**
   * SelectSingleColumnRelationTest.testClusteringColumnRelations: IN on one or two clustering
   * columns reads their cartesian product in clustering order, whatever order the values come in,
   * each once; a range may follow an IN.
   */
  @Test
  void inOnClusteringColumns() {
    abcd(ClusteringOrder.ASC);
    beforeAndAfterFlush(
        () -> {
          assertThat(bc(first().eq("b", 2).in("c", 6, 7))).containsExactly("2:6");
          assertThat(bc(first().in("b", 2, 3).in("c", 6, 7))).containsExactly("2:6", "3:7");
          assertThat(bc(first().in("b", 3, 2).in("c", 7, 6))).containsExactly("2:6", "3:7");
          assertThat(bc(first().in("c", 7, 6).in("b", 3, 2, 3))).containsExactly("2:6", "3:7");
          assertThat(bc(first().in("b", List.of(3, 2)).eq("c", 7))).containsExactly("3:7");
          assertThat(bc(first().ge("c", 6).in("b", 3, 2))).containsExactly("2:6", "3:7");
          assertThat(bc(first().gt("c", 6).in("b", 3, 2))).containsExactly("3:7");
          assertThat(bc(first().le("c", 6).in("b", 3, 2))).containsExactly("2:6");
          assertThat(bc(first().lt("c", 7).in("b", 3, 2))).containsExactly("2:6");
          assertThat(bc(first().ge("c", 6).le("c", 7).in("b", 3, 2))).containsExactly("2:6", "3:7");
          assertThat(bc(first().gt("c", 6).le("c", 7).in("b", 3, 2))).containsExactly("3:7");
          assertThat(bc(first().gt("c", 6).lt("c", 7).in("b", 3, 2))).isEmpty();
          assertThat(bc(first().in("c", 7, 6).in("b", 3, 2).orderBy("b", ClusteringOrder.DESC)))
              .containsExactly("3:7", "2:6");
          // an IN on the partition key and on clustering columns: partitions in key order
          assertThat(bc(t.select().in("a", "second", "first").in("b", 4, 1)))
              .containsExactly("1:5", "4:8");
        });
    assertThatThrownBy(() -> first().gt("c", 6).eq("c", 7).in("b", 3, 2).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("both by equality and by a range");
    assertThatThrownBy(() -> first().in("b", 2, 3).eq("b", 2).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("column b is restricted twice");
    assertThatThrownBy(() -> first().gt("b", 6).gt("b", 3).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("two lower bounds");
    assertThatThrownBy(() -> first().lt("b", 6).le("b", 3).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("two upper bounds");
    assertThatThrownBy(() -> first().in("b", 1, null).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("cannot be null");
  }

  /** SelectSingleColumnRelationTest.testClusteringColumnRelationsWithClusteringOrder. */
  @Test
  void inOnAClusteringColumnStoredDesc() {
    abcd(ClusteringOrder.DESC);
    beforeAndAfterFlush(
        () -> {
          assertThat(bc(first().in("c", 7, 6).in("b", 3, 2).orderBy("b", ClusteringOrder.DESC)))
              .containsExactly("3:7", "2:6");
          assertThat(bc(first().in("c", 7, 6).in("b", 3, 2).orderBy("b", ClusteringOrder.ASC)))
              .containsExactly("2:6", "3:7");
          assertThat(bc(first().in("c", 7, 6).in("b", 2, 3))).containsExactly("3:7", "2:6");
        });
  }

  /** SelectSingleColumnRelationTest.testEmptyIN: an IN without values selects nothing. */
  @Test
  void anEmptyInOnAClusteringColumnSelectsNothing() {
    abcd(ClusteringOrder.ASC);
    assertThat(bc(first().in("b"))).isEmpty();
    assertThat(bc(first().in("b", 1, 2).in("c"))).isEmpty();
    assertThat(bc(first().in("b", List.of()).reversed())).isEmpty();
  }

  /**
   * SelectOrderByTest.testSelectInStatementWithDesc and testInOrderByWithoutSelecting: IN on the
   * last clustering column, ordered by a column restricted by equality.
   */
  @Test
  void inOnTheLastColumnOrderedByAnEqualityRestrictedOne() {
    t =
        db.createTable(
            TableSchema.builder("k")
                .partitionKey("k", DataType.INT)
                .clusteringColumn("c1", DataType.INT)
                .clusteringColumn("c2", DataType.INT)
                .column("v", DataType.INT)
                .build());
    for (int c2 = 0; c2 <= 2; c2++) {
      t.insert().value("k", 0).value("c1", 0).value("c2", c2).value("v", c2).execute();
    }
    beforeAndAfterFlush(
        () -> {
          Supplier<Select> q = () -> t.select().eq("k", 0).eq("c1", 0).in("c2", 2, 0);
          assertThat(q.get().orderBy("c1", ClusteringOrder.DESC).execute().rows())
              .extracting(r -> r.getInt("c2"))
              .containsExactly(2, 0);
          assertThat(q.get().execute().rows()).extracting(r -> r.getInt("v")).containsExactly(0, 2);
          assertThat(
                  q.get()
                      .orderBy("c1", ClusteringOrder.ASC)
                      .orderBy("c2", ClusteringOrder.ASC)
                      .execute()
                      .rows())
              .extracting(r -> r.getInt("v"))
              .containsExactly(0, 2);
        });
  }

  /**
   * SelectOrderByTest.testAllowSkippingEqualityAndSingleValueInRestrictedClusteringColumns: ORDER
   * BY may leave out columns restricted by equality (or an IN of one value), not others.
   */
  @Test
  void orderByMayLeaveOutColumnsRestrictedByEquality() {
    t =
        db.createTable(
            TableSchema.builder("skip")
                .partitionKey("a", DataType.INT)
                .clusteringColumn("b", DataType.INT)
                .clusteringColumn("c", DataType.INT)
                .column("d", DataType.INT)
                .build());
    for (int b = 0; b <= 1; b++) {
      for (int c = 0; c <= 2; c++) {
        t.insert().value("a", 0).value("b", b).value("c", c).value("d", b * 3 + c).execute();
      }
    }
    Supplier<Select> b0 = () -> t.select().eq("a", 0).eq("b", 0);
    beforeAndAfterFlush(
        () -> {
          assertThat(bc(b0.get().orderBy("c", ClusteringOrder.ASC)))
              .containsExactly("0:0", "0:1", "0:2");
          assertThat(bc(b0.get().orderBy("c", ClusteringOrder.DESC)))
              .containsExactly("0:2", "0:1", "0:0");
          assertThat(bc(t.select().eq("a", 0).in("b", 0).orderBy("c", ClusteringOrder.DESC)))
              .containsExactly("0:2", "0:1", "0:0");
          assertThat(
                  bc(
                      t.select()
                          .eq("a", 0)
                          .eq(List.of("b", "c"), List.of(1, 1))
                          .orderBy("c", ClusteringOrder.DESC)))
              .containsExactly("1:1");
        });
    for (Supplier<Select> bad :
        List.<Supplier<Select>>of(
            () -> t.select().eq("a", 0).orderBy("c", ClusteringOrder.ASC),
            () -> t.select().eq("a", 0).in("b", 0, 1).orderBy("c", ClusteringOrder.ASC),
            () -> t.select().eq("a", 0).gt("b", 0).orderBy("c", ClusteringOrder.ASC))) {
      assertThatThrownBy(() -> bad.get().execute())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("leaving out only columns restricted by equality");
    }
    assertThatThrownBy(() -> b0.get().orderBy("d", ClusteringOrder.ASC).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("cannot order skip by d");
  }

  private void abcde() {
    t =
        db.createTable(
            TableSchema.builder("f")
                .partitionKey("a", DataType.INT)
                .clusteringColumn("b", DataType.INT)
                .clusteringColumn("c", DataType.INT)
                .clusteringColumn("d", DataType.INT)
                .column("e", DataType.INT)
                .build());
    for (int b = 0; b <= 2; b++) {
      for (int c = 0; c <= 2; c++) {
        for (int d = 0; d <= 2; d++) {
          t.insert()
              .value("a", 0)
              .value("b", b)
              .value("c", c)
              .value("d", d)
              .value("e", 1)
              .execute();
        }
      }
    }
  }

  private static List<String> bcd(Select s) {
    return bcd(s.execute());
  }

  private static List<String> bcd(ResultSet rs) {
    return rs.rows().stream().map(r -> "" + r.getInt("b") + r.getInt("c") + r.getInt("d")).toList();
  }

  /** Every clustering (b, c, d) of the 27 in order that satisfies {@code keep}. */
  private static List<String> where(java.util.function.IntPredicate keep) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < 27; i++) {
      if (keep.test(i)) {
        out.add("" + i / 9 + i / 3 % 3 + i % 3);
      }
    }
    return out;
  }

  /**
   * Filtering on clustering columns inside the named partitions with the opt-in
   * (SelectSingleColumnRelationTest.testAllowFilteringWithClusteringColumn,
   * SelectMultiColumnRelationTest.testMultiAndSingleColumnRelationMix): ranges on several columns,
   * equality after a range or after a column left open. Without the opt-in the refusal teaches the
   * rule and offers it.
   */
  @Test
  void filteringOnClusteringColumnsNeedsTheOptIn() {
    abcde();
    Supplier<Select> p = () -> t.select().eq("a", 0);
    beforeAndAfterFlush(
        () -> {
          assertThat(bcd(p.get().gt("b", 0).lt("c", 2).allowFiltering()))
              .isEqualTo(where(i -> i / 9 > 0 && i / 3 % 3 < 2));
          assertThat(bcd(p.get().eq("b", 1).gt("c", 0).lt("d", 2).allowFiltering()))
              .isEqualTo(where(i -> i / 9 == 1 && i / 3 % 3 > 0 && i % 3 < 2));
          assertThat(bcd(p.get().ge("b", 1).eq("d", 1).allowFiltering()))
              .isEqualTo(where(i -> i / 9 >= 1 && i % 3 == 1));
          assertThat(bcd(p.get().eq("c", 2).allowFiltering()))
              .isEqualTo(where(i -> i / 3 % 3 == 2));
          assertThat(bcd(p.get().in("b", 2, 0).eq("d", 0).allowFiltering()))
              .isEqualTo(where(i -> i / 9 != 1 && i % 3 == 0));
          assertThat(bcd(p.get().eq(List.of("c", "d"), List.of(1, 2)).allowFiltering()))
              .isEqualTo(where(i -> i / 3 % 3 == 1 && i % 3 == 2));
          assertThat(bcd(p.get().gt("b", 1).eq("c", 2).reversed().limit(2).allowFiltering()))
              .containsExactly("222", "221");
        });
    for (Supplier<Select> q :
        List.<Supplier<Select>>of(
            () -> p.get().gt("b", 0).lt("c", 2),
            () -> p.get().eq("b", 1).gt("c", 0).lt("d", 2),
            () -> p.get().ge("b", 1).eq("d", 1),
            () -> p.get().eq("c", 2))) {
      assertThatThrownBy(() -> q.get().execute())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("Rule:")
          .hasMessageContaining("opt in with allowFiltering()");
    }
    assertThatThrownBy(() -> p.get().gt("b", 0).lt("c", 2).execute())
        .hasMessageContaining("ranges on both b and c");
    // what Cassandra cannot filter either
    assertThatThrownBy(() -> p.get().gt("b", 0).in("c", 1, 2).allowFiltering().execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("IN restrictions are not supported on indexed columns");
  }

  /**
   * Filtering composes with limits and paging: pages of a filtered read concatenate to the unpaged
   * result.
   */
  @Test
  void filteredClusteringReadsPage() {
    abcde();
    Supplier<Select> q = () -> t.select().eq("a", 0).ge("b", 1).eq("d", 2).allowFiltering();
    List<String> whole = bcd(q.get());
    assertThat(whole).isEqualTo(where(i -> i / 9 >= 1 && i % 3 == 2));
    for (int pageSize = 1; pageSize <= 4; pageSize++) {
      List<String> paged = new ArrayList<>();
      PagingState state = null;
      do {
        Select s = q.get().pageSize(pageSize);
        if (state != null) {
          s.pagingState(state);
        }
        ResultSet page = s.execute();
        paged.addAll(bcd(page));
        state = page.pagingState().orElse(null);
      } while (state != null);
      assertThat(paged).as("page size %d", pageSize).isEqualTo(whole);
    }
  }

  /** IN on clustering columns with LIMIT, PER PARTITION LIMIT and paging, forwards and reversed. */
  @Test
  void inOnClusteringColumnsWithLimitsAndPaging() {
    abcde();
    t.insert().value("a", 1).value("b", 2).value("c", 0).value("d", 0).execute();
    for (boolean reversed : new boolean[] {false, true}) {
      Supplier<Select> q =
          () -> {
            Select s = t.select().in("a", 1, 0).in("b", 2, 0).in("c", 0, 2);
            return reversed ? s.reversed() : s;
          };
      List<String> whole =
          q.get().execute().rows().stream()
              .map(r -> "" + r.getInt("a") + r.getInt("b") + r.getInt("c") + r.getInt("d"))
              .toList();
      assertThat(whole).hasSize(13);
      assertThat(whole.get(0)).isEqualTo(reversed ? "0222" : "0000");
      for (int pageSize = 1; pageSize <= 5; pageSize++) {
        for (int limit : new int[] {3, 100}) {
          List<String> paged = new ArrayList<>();
          PagingState state = null;
          do {
            Select s = q.get().limit(limit).pageSize(pageSize);
            if (state != null) {
              s.pagingState(state);
            }
            ResultSet page = s.execute();
            page.forEach(
                r -> paged.add("" + r.getInt("a") + r.getInt("b") + r.getInt("c") + r.getInt("d")));
            state = page.pagingState().orElse(null);
          } while (state != null);
          assertThat(paged).isEqualTo(whole.subList(0, Math.min(limit, whole.size())));
        }
      }
      // the per-partition limit: the first two of each partition, in the read's order
      List<String> perPartition =
          q.get().perPartitionLimit(2).execute().rows().stream()
              .map(r -> r.getInt("a") + ":" + r.getInt("b") + r.getInt("c") + r.getInt("d"))
              .toList();
      assertThat(perPartition)
          .containsExactly(
              reversed
                  ? new String[] {"0:222", "0:221", "1:200"}
                  : new String[] {"0:000", "0:001", "1:200"});
    }
  }
}
