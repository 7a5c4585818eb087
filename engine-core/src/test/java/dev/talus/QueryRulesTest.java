package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The query-first rules: every rejected query shape with its message, and the accepted shapes with
 * their results. Table: PRIMARY KEY ((p1 text, p2 int), a int ASC, b int DESC, c int ASC), regular
 * v text, w int.
 */
class QueryRulesTest {
  @TempDir Path dir;
  private TalusDb db;
  private Table t;

  @BeforeEach
  void open() {
    db = TalusDb.open(TalusOptions.builder(dir).clock(ManualClock.startingAtDefault()).build());
    t =
        db.createTable(
            TableSchema.builder("q")
                .partitionKey("p1", DataType.TEXT)
                .partitionKey("p2", DataType.INT)
                .clusteringColumn("a", DataType.INT, ClusteringOrder.ASC)
                .clusteringColumn("b", DataType.INT, ClusteringOrder.DESC)
                .clusteringColumn("c", DataType.INT, ClusteringOrder.ASC)
                .column("v", DataType.TEXT)
                .column("w", DataType.INT)
                .build());
    for (int p2 = 1; p2 <= 2; p2++) {
      for (int a = 1; a <= 3; a++) {
        for (int b = 1; b <= 3; b++) {
          for (int c = 1; c <= 3; c++) {
            t.insert()
                .value("p1", "x")
                .value("p2", p2)
                .value("a", a)
                .value("b", b)
                .value("c", c)
                .value("v", "v" + a + b + c)
                .value("w", a * 100 + b * 10 + c)
                .execute();
          }
        }
      }
    }
  }

  @AfterEach
  void close() {
    db.close();
  }

  private static Select pk(Select s) {
    return s.eq("p1", "x").eq("p2", 1);
  }

  private static Arguments rejected(
      String name, Function<Select, Select> query, boolean ruleAndFix, String... fragments) {
    return Arguments.of(name, query, ruleAndFix, List.of(fragments));
  }

  static Stream<Arguments> rejectedQueries() {
    return Stream.of(
        rejected(
            "no partition key at all: a scan filtering on a clustering column",
            s -> s.eq("a", 1),
            true,
            "restricts [a] but not the partition key [p1, p2]",
            "every partition",
            "allowFiltering()"),
        rejected(
            "no partition key at all: a scan filtering on a regular column",
            s -> s.eq("v", "v111"),
            true,
            "restricts [v] but not the partition key [p1, p2]",
            "one table per query"),
        rejected(
            "one of two partition key columns missing",
            s -> s.eq("p1", "x"),
            true,
            "p2",
            "full partition key"),
        rejected(
            "one of two partition key columns, with allowFiltering: no partial-key scan",
            s -> s.eq("p1", "x").allowFiltering(),
            true,
            "p2",
            "full partition key"),
        rejected(
            "slice on a partition key column",
            s -> s.eq("p1", "x").gt("p2", 0),
            true,
            "partition key column p2",
            "eq(...) or in(...)"),
        rejected(
            "partition key column restricted twice",
            s -> s.eq("p1", "x").eq("p2", 1).eq("p2", 2),
            true,
            "p2"),
        rejected(
            "first clustering column skipped",
            s -> pk(s).eq("b", 1),
            true,
            "skips a",
            "left to right"),
        rejected(
            "middle clustering column skipped",
            s -> pk(s).eq("a", 1).eq("c", 1),
            true,
            "skips b",
            "left to right"),
        rejected(
            "range on a clustering column after a skipped one",
            s -> pk(s).gt("b", 1),
            true,
            "range",
            "a, which precedes it"),
        rejected(
            "restricting a column after a range",
            s -> pk(s).gt("a", 1).eq("b", 1),
            true,
            "after a range on a",
            "last restricted"),
        rejected(
            "ranges on two clustering columns",
            s -> pk(s).eq("a", 1).gt("b", 1).lt("c", 3),
            true,
            "ranges on both b and c",
            "last restricted"),
        rejected(
            "range then equality deeper in",
            s -> pk(s).ge("a", 1).eq("c", 1),
            true,
            "after a range on a"),
        rejected(
            "ordering with mixed directions",
            s -> pk(s).orderBy("a", ClusteringOrder.ASC).orderBy("b", ClusteringOrder.ASC),
            true,
            "mixes directions",
            "reverse every column or none"),
        rejected(
            "ordering by a regular column",
            s -> pk(s).orderBy("v", ClusteringOrder.ASC),
            true,
            "cannot order q by v",
            "no sort step"),
        rejected(
            "ordering by a partition key column",
            s -> pk(s).orderBy("p2", ClusteringOrder.ASC),
            true,
            "cannot order q by p2"),
        rejected(
            "ordering by an unknown column",
            s -> pk(s).orderBy("nope", ClusteringOrder.ASC),
            true,
            "cannot order q by nope"),
        rejected(
            "ordering by clustering columns out of declared order",
            s -> pk(s).orderBy("b", ClusteringOrder.DESC),
            true,
            "declared order",
            "b is out of place"),
        rejected(
            "ordering that skips a clustering column",
            s -> pk(s).orderBy("a", ClusteringOrder.ASC).orderBy("c", ClusteringOrder.ASC),
            true,
            "c is out of place"),
        rejected(
            "filtering on a regular column without allowFiltering",
            s -> pk(s).eq("v", "v111"),
            true,
            "regular column v",
            "allowFiltering()"),
        rejected(
            "range filter on a regular column without allowFiltering",
            s -> pk(s).gt("w", 5),
            true,
            "regular column w",
            "allowFiltering()"),
        rejected("unknown column", s -> pk(s).eq("nope", 1), false, "unknown column nope", "q"),
        rejected(
            "unknown projected column",
            s -> pk(s).columns("v", "nope"),
            false,
            "unknown column nope"),
        rejected(
            "wrong value type on a key column",
            s -> s.eq("p1", "x").eq("p2", "one"),
            false,
            "bad value for column p2"),
        rejected(
            "wrong value type on a clustering column",
            s -> pk(s).eq("a", "one"),
            false,
            "bad value for column a"),
        rejected(
            "wrong value type on a filtered column",
            s -> pk(s).eq("w", "one").allowFiltering(),
            false,
            "bad value for column w"),
        rejected(
            "null partition key value",
            s -> s.eq("p1", null).eq("p2", 1),
            false,
            "p1",
            "cannot be null"),
        rejected("null clustering value", s -> pk(s).eq("a", null), false, "a", "cannot be null"),
        rejected("null in in()", s -> s.eq("p1", "x").in("p2", 1, null), false, "cannot be null"),
        rejected(
            "in() on a clustering column after a range",
            s -> pk(s).gt("a", 1).in("b", 1, 2),
            true,
            "after a range on a",
            "allowFiltering()"),
        rejected(
            "in() on a clustering column to filter",
            s -> pk(s).gt("a", 1).in("b", 1, 2).allowFiltering(),
            false,
            "cannot be used for filtering"),
        rejected(
            "filter against null",
            s -> pk(s).eq("v", null).allowFiltering(),
            false,
            "against null"),
        rejected(
            "two lower bounds on one column", s -> pk(s).gt("a", 1).ge("a", 2), false, "two lower"),
        rejected(
            "equality and range on one column",
            s -> pk(s).eq("a", 1).gt("a", 0),
            false,
            "both by equality and by a range"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rejectedQueries")
  void rejectedQueryNamesTheProblem(
      String name, Function<Select, Select> query, boolean ruleAndFix, List<String> fragments) {
    assertThatThrownBy(() -> query.apply(t.select()).execute())
        .as(name)
        .isInstanceOf(InvalidQueryException.class)
        .satisfies(
            e -> {
              for (String f : fragments) {
                assertThat(e.getMessage()).as(name).contains(f);
              }
              if (ruleAndFix) {
                assertThat(e.getMessage()).as(name).contains("Rule:").contains("Fix:");
              }
            });
  }

  @Test
  void nonPositiveLimitAndPageSizeAreRejected() {
    assertThatThrownBy(() -> t.select().limit(0)).isInstanceOf(InvalidQueryException.class);
    assertThatThrownBy(() -> t.select().pageSize(-1)).isInstanceOf(InvalidQueryException.class);
  }

  // ---------------- accepted queries ----------------

  private static String key(ResultRow r) {
    return "" + r.getInt("a") + r.getInt("b") + r.getInt("c");
  }

  private List<String> run(Select s) {
    return s.execute().rows().stream().map(QueryRulesTest::key).toList();
  }

  /** Every row of partition (x, 1) in clustering order: a ASC, b DESC, c ASC. */
  private static List<String> clusteringOrder() {
    List<String> out = new ArrayList<>();
    for (int a = 1; a <= 3; a++) {
      for (int b = 3; b >= 1; b--) {
        for (int c = 1; c <= 3; c++) {
          out.add("" + a + b + c);
        }
      }
    }
    return out;
  }

  private static List<String> reversedOrder() {
    List<String> l = new ArrayList<>(clusteringOrder());
    Collections.reverse(l);
    return l;
  }

  @Test
  void fullPartitionKeyReturnsRowsInClusteringOrder() {
    assertThat(run(pk(t.select()))).isEqualTo(clusteringOrder());
  }

  @Test
  void prefixEqualityAndSliceOnTheNextColumn() {
    assertThat(run(pk(t.select()).eq("a", 2).gt("b", 1)))
        .containsExactly("231", "232", "233", "221", "222", "223");
    assertThat(run(pk(t.select()).eq("a", 2).eq("b", 2).le("c", 2))).containsExactly("221", "222");
    assertThat(run(pk(t.select()).ge("a", 3))).isEqualTo(clusteringOrder().subList(18, 27));
  }

  @Test
  void sliceWithBothBounds() {
    assertThat(run(pk(t.select()).eq("a", 1).ge("b", 1).lt("b", 3)))
        .containsExactly("121", "122", "123", "111", "112", "113");
    assertThat(run(pk(t.select()).gt("a", 1).le("a", 2)))
        .isEqualTo(clusteringOrder().subList(9, 18));
    assertThat(run(pk(t.select()).gt("a", 2).lt("a", 2))).isEmpty();
  }

  @Test
  void reversedReturnsTheExactReverse() {
    assertThat(run(pk(t.select()).reversed())).isEqualTo(reversedOrder());
    assertThat(run(pk(t.select()).eq("a", 2).gt("b", 1).reversed()))
        .containsExactly("223", "222", "221", "233", "232", "231");
  }

  @Test
  void orderByClusteringOrderOrItsExactReverse() {
    assertThat(run(pk(t.select()).orderBy("a", ClusteringOrder.ASC))).isEqualTo(clusteringOrder());
    assertThat(
            run(
                pk(t.select())
                    .orderBy("a", ClusteringOrder.ASC)
                    .orderBy("b", ClusteringOrder.DESC)
                    .orderBy("c", ClusteringOrder.ASC)))
        .isEqualTo(clusteringOrder());
    assertThat(run(pk(t.select()).orderBy("a", ClusteringOrder.DESC))).isEqualTo(reversedOrder());
    assertThat(
            run(
                pk(t.select())
                    .orderBy("a", ClusteringOrder.DESC)
                    .orderBy("b", ClusteringOrder.ASC)
                    .orderBy("c", ClusteringOrder.DESC)))
        .isEqualTo(reversedOrder());
  }

  @Test
  void allowFilteringWithEqualityAndRangeOnRegularColumns() {
    assertThat(run(pk(t.select()).eq("v", "v213").allowFiltering())).containsExactly("213");
    assertThat(run(pk(t.select()).gt("w", 320).allowFiltering()))
        .containsExactly("331", "332", "333", "321", "322", "323");
    assertThat(run(pk(t.select()).eq("a", 1).ge("w", 122).lt("w", 131).allowFiltering()))
        .containsExactly("122", "123");
  }

  /** Filtering on clustering columns compares values, also on a column stored DESC (b). */
  @Test
  void allowFilteringOnClusteringColumnsOfEitherOrder() {
    assertThat(run(pk(t.select()).gt("a", 1).ge("b", 2).lt("c", 3).allowFiltering()))
        .containsExactly("231", "232", "221", "222", "331", "332", "321", "322");
    assertThat(run(pk(t.select()).eq("b", 3).eq("c", 1).reversed().allowFiltering()))
        .containsExactly("331", "231", "131");
  }

  @Test
  void filteringSkipsRowsWithoutTheColumn() {
    t.insert().value("p1", "x").value("p2", 1).value("a", 9).value("b", 9).value("c", 9).execute();
    assertThat(run(pk(t.select()).ge("w", 0).allowFiltering())).isEqualTo(clusteringOrder());
  }

  @Test
  void projectionReturnsOnlyTheNamedColumns() {
    ResultRow r =
        pk(t.select()).eq("a", 1).eq("b", 2).eq("c", 3).columns("w", "c").one().orElseThrow();
    assertThat(r.columns()).containsExactly("w", "c");
    assertThat(r.getInt("w")).isEqualTo(123);
    assertThat(r.getInt("c")).isEqualTo(3);
    assertThatThrownBy(() -> r.get("v"))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("not in this result");
  }

  @Test
  void limitReturnsTheFirstRowsInOrder() {
    assertThat(run(pk(t.select()).limit(4))).isEqualTo(clusteringOrder().subList(0, 4));
    assertThat(run(pk(t.select()).reversed().limit(2))).containsExactly("313", "312");
    assertThat(run(pk(t.select()).limit(1000))).hasSize(27);
  }

  /**
   * Partitions come back in partition key order whatever the order given, as Cassandra builds them
   * (SelectOrderByTest.testInOrderByWithoutSelecting: {@code k IN (1, 0)} returns k = 0 first).
   */
  @Test
  void inOnAPartitionKeyColumnReadsEachPartitionInPartitionKeyOrder() {
    List<String> got =
        t.select().eq("p1", "x").in("p2", 2, 1, 3).eq("a", 1).eq("b", 1).execute().rows().stream()
            .map(r -> r.getInt("p2") + ":" + key(r))
            .toList();
    assertThat(got).containsExactly("1:111", "1:112", "1:113", "2:111", "2:112", "2:113");
  }
}
