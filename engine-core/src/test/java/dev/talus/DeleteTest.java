package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Partition, row, column and range deletions through the public API. */
class DeleteTest {
  @TempDir Path dir;
  private final ManualClock clock = ManualClock.startingAtDefault();
  private TalusDb db;

  @BeforeEach
  void open() {
    db = TalusDb.open(TalusOptions.builder(dir).clock(clock).build());
  }

  @AfterEach
  void close() {
    db.close();
  }

  /** Table (k text) / (a int order, b int order) / v text, partitions "p" and "q" filled. */
  private Table twoLevel(ClusteringOrder aOrder, ClusteringOrder bOrder) {
    Table t =
        db.createTable(
            TableSchema.builder("two_" + aOrder + "_" + bOrder)
                .partitionKey("k", DataType.TEXT)
                .clusteringColumn("a", DataType.INT, aOrder)
                .clusteringColumn("b", DataType.INT, bOrder)
                .column("v", DataType.TEXT)
                .build());
    for (String k : List.of("p", "q")) {
      for (int a = 1; a <= 3; a++) {
        for (int b = 1; b <= 10; b++) {
          t.insert()
              .value("k", k)
              .value("a", a)
              .value("b", b)
              .value("v", k + a + "-" + b)
              .execute();
        }
      }
    }
    return t;
  }

  private static List<String> keys(Table t, String k) {
    return t.select().eq("k", k).execute().rows().stream()
        .map(r -> r.getInt("a") + "-" + r.getInt("b"))
        .sorted()
        .toList();
  }

  private static List<String> expected(IntPredicate keptB, int deletedA) {
    return IntStream.rangeClosed(1, 3)
        .boxed()
        .flatMap(
            a ->
                IntStream.rangeClosed(1, 10)
                    .filter(b -> a != deletedA || keptB.test(b))
                    .mapToObj(b -> a + "-" + b))
        .sorted()
        .toList();
  }

  private static final List<String> ALL = expected(b -> true, 0);

  @Test
  void partitionDeleteRemovesEveryRowOfThatPartitionOnly() {
    Table t = twoLevel(ClusteringOrder.ASC, ClusteringOrder.ASC);
    t.delete().eq("k", "p").execute();
    assertThat(t.select().eq("k", "p").execute().rows()).isEmpty();
    assertThat(keys(t, "q")).isEqualTo(ALL);
  }

  @Test
  void writesAfterAPartitionDeleteAreVisible() {
    Table t = twoLevel(ClusteringOrder.ASC, ClusteringOrder.ASC);
    t.delete().eq("k", "p").execute();
    t.insert().value("k", "p").value("a", 2).value("b", 2).value("v", "back").execute();
    assertThat(keys(t, "p")).containsExactly("2-2");
  }

  @Test
  void rowDeleteRemovesOneRow() {
    Table t = twoLevel(ClusteringOrder.ASC, ClusteringOrder.DESC);
    t.delete().eq("k", "p").eq("a", 2).eq("b", 5).execute();
    assertThat(keys(t, "p")).isEqualTo(expected(b -> b != 5, 2));
    assertThat(keys(t, "q")).isEqualTo(ALL);
    assertThat(t.select().eq("k", "p").eq("a", 2).eq("b", 5).one()).isEmpty();
  }

  @Test
  void columnDeleteRemovesOnlyThatColumn() {
    Table t = twoLevel(ClusteringOrder.ASC, ClusteringOrder.ASC);
    t.delete().eq("k", "p").eq("a", 1).eq("b", 1).columns("v").execute();
    ResultRow r = t.select().eq("k", "p").eq("a", 1).eq("b", 1).one().orElseThrow();
    assertThat(r.isNull("v")).isTrue();
    assertThat(t.select().eq("k", "p").eq("a", 1).eq("b", 2).one().orElseThrow().getString("v"))
        .isEqualTo("p1-2");
  }

  @Test
  void columnDeleteNeedsTheFullPrimaryKey() {
    Table t = twoLevel(ClusteringOrder.ASC, ClusteringOrder.ASC);
    assertThatThrownBy(() -> t.delete().eq("k", "p").eq("a", 1).columns("v").execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("full primary key");
    assertThat(keys(t, "p")).isEqualTo(ALL);
  }

  @ParameterizedTest
  @EnumSource(ClusteringOrder.class)
  void rangeDeleteByClusteringPrefix(ClusteringOrder order) {
    Table t = twoLevel(order, order);
    t.delete().eq("k", "p").eq("a", 2).execute();
    assertThat(keys(t, "p")).isEqualTo(expected(b -> false, 2));
    assertThat(keys(t, "q")).isEqualTo(ALL);
  }

  static Stream<Arguments> slices() {
    return Stream.of(ClusteringOrder.values())
        .flatMap(
            order ->
                Stream.of(
                    Arguments.of(
                        order,
                        "gt 4",
                        (UnaryOperator<Delete>) d -> d.gt("b", 4),
                        (IntPredicate) b -> b <= 4),
                    Arguments.of(
                        order,
                        "ge 4",
                        (UnaryOperator<Delete>) d -> d.ge("b", 4),
                        (IntPredicate) b -> b < 4),
                    Arguments.of(
                        order,
                        "lt 4",
                        (UnaryOperator<Delete>) d -> d.lt("b", 4),
                        (IntPredicate) b -> b >= 4),
                    Arguments.of(
                        order,
                        "le 4",
                        (UnaryOperator<Delete>) d -> d.le("b", 4),
                        (IntPredicate) b -> b > 4),
                    Arguments.of(
                        order,
                        "gt 3 lt 7",
                        (UnaryOperator<Delete>) d -> d.gt("b", 3).lt("b", 7),
                        (IntPredicate) b -> b <= 3 || b >= 7),
                    Arguments.of(
                        order,
                        "ge 3 le 7",
                        (UnaryOperator<Delete>) d -> d.ge("b", 3).le("b", 7),
                        (IntPredicate) b -> b < 3 || b > 7),
                    Arguments.of(
                        order,
                        "gt 10",
                        (UnaryOperator<Delete>) d -> d.gt("b", 10),
                        (IntPredicate) b -> true),
                    Arguments.of(
                        order,
                        "ge 1",
                        (UnaryOperator<Delete>) d -> d.ge("b", 1),
                        (IntPredicate) b -> false)));
  }

  @ParameterizedTest(name = "{0} b {1}")
  @MethodSource("slices")
  void rangeDeleteBySliceOnTheLastClusteringColumn(
      ClusteringOrder order, String name, UnaryOperator<Delete> slice, IntPredicate kept) {
    Table t = twoLevel(ClusteringOrder.ASC, order);
    slice.apply(t.delete().eq("k", "p").eq("a", 2)).execute();
    assertThat(keys(t, "p")).as(name).isEqualTo(expected(kept, 2));
    assertThat(keys(t, "q")).isEqualTo(ALL);
  }

  @ParameterizedTest(name = "{0} a {1}")
  @MethodSource("slices")
  void rangeDeleteBySliceOnTheFirstClusteringColumn(
      ClusteringOrder order, String name, UnaryOperator<Delete> sliceOnB, IntPredicate kept) {
    Table t =
        db.createTable(
            TableSchema.builder("one_" + order)
                .partitionKey("k", DataType.TEXT)
                .clusteringColumn("b", DataType.INT, order)
                .column("v", DataType.TEXT)
                .build());
    for (int b = 1; b <= 10; b++) {
      t.insert().value("k", "p").value("b", b).value("v", "v" + b).execute();
    }
    sliceOnB.apply(t.delete().eq("k", "p")).execute();
    List<Integer> got =
        t.select().eq("k", "p").execute().rows().stream().map(r -> r.getInt("b")).toList();
    List<Integer> want = IntStream.rangeClosed(1, 10).filter(kept).boxed().toList();
    assertThat(got).as(name).isEqualTo(order == ClusteringOrder.ASC ? want : reverse(want));
  }

  private static List<Integer> reverse(List<Integer> l) {
    List<Integer> r = new java.util.ArrayList<>(l);
    java.util.Collections.reverse(r);
    return r;
  }

  @Test
  void rangeDeleteThenReinsertWithANewerTimestampIsVisible() {
    Table t = twoLevel(ClusteringOrder.ASC, ClusteringOrder.DESC);
    t.delete().eq("k", "p").eq("a", 2).ge("b", 3).timestamp(5_000_000_000_000_000L).execute();
    t.insert()
        .value("k", "p")
        .value("a", 2)
        .value("b", 5)
        .value("v", "newer")
        .timestamp(5_000_000_000_000_001L)
        .execute();
    t.insert()
        .value("k", "p")
        .value("a", 2)
        .value("b", 6)
        .value("v", "same")
        .timestamp(5_000_000_000_000_000L)
        .execute();
    assertThat(keys(t, "p")).isEqualTo(expected(b -> b < 3 || b == 5, 2));
    assertThat(t.select().eq("k", "p").eq("a", 2).eq("b", 5).one().orElseThrow().getString("v"))
        .isEqualTo("newer");
  }

  @Test
  void reinsertAfterARangeDeleteWithClockTimestampsIsVisible() {
    Table t = twoLevel(ClusteringOrder.DESC, ClusteringOrder.ASC);
    t.delete().eq("k", "p").lt("a", 3).execute();
    t.insert().value("k", "p").value("a", 1).value("b", 1).value("v", "again").execute();
    assertThat(t.select().eq("k", "p").execute().rows())
        .extracting(r -> r.getInt("a") + "-" + r.getInt("b"))
        .containsExactlyElementsOf(
            Stream.concat(IntStream.rangeClosed(1, 10).mapToObj(b -> "3-" + b), Stream.of("1-1"))
                .toList());
  }

  @Test
  void overlappingRangeDeletesCombine() {
    Table t = twoLevel(ClusteringOrder.ASC, ClusteringOrder.ASC);
    t.delete().eq("k", "p").eq("a", 1).le("b", 4).execute();
    t.delete().eq("k", "p").eq("a", 1).ge("b", 3).lt("b", 8).execute();
    t.delete().eq("k", "p").eq("a", 3).execute();
    List<String> want =
        ALL.stream()
            .filter(s -> !s.startsWith("3-"))
            .filter(s -> !(s.startsWith("1-") && Integer.parseInt(s.substring(2)) < 8))
            .toList();
    assertThat(keys(t, "p")).isEqualTo(want);
  }

  @Test
  void rangeDeleteOlderThanTheDataDeletesNothing() {
    Table t =
        db.createTable(
            TableSchema.builder("ts")
                .partitionKey("k", DataType.TEXT)
                .clusteringColumn("b", DataType.INT)
                .column("v", DataType.TEXT)
                .build());
    for (int b = 1; b <= 5; b++) {
      t.insert().value("k", "p").value("b", b).value("v", "x").timestamp(1_000).execute();
    }
    t.delete().eq("k", "p").gt("b", 0).timestamp(999).execute();
    assertThat(t.select().eq("k", "p").execute().size()).isEqualTo(5);
    t.delete().eq("k", "p").gt("b", 2).timestamp(1_000).execute();
    assertThat(t.select().eq("k", "p").execute().rows())
        .extracting(r -> r.getInt("b"))
        .containsExactly(1, 2);
  }

  @Test
  void deleteRestrictedByARegularColumnIsRejected() {
    Table t = twoLevel(ClusteringOrder.ASC, ClusteringOrder.ASC);
    assertThatThrownBy(() -> t.delete().eq("k", "p").eq("v", "x").execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("regular column");
  }

  @Test
  void deleteSkippingAClusteringColumnIsRejectedAndDeletesNothing() {
    Table t = twoLevel(ClusteringOrder.ASC, ClusteringOrder.ASC);
    assertThatThrownBy(() -> t.delete().eq("k", "p").eq("b", 1).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("Rule:");
    assertThatThrownBy(() -> t.delete().eq("k", "p").gt("b", 1).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("Rule:");
    assertThat(keys(t, "p")).isEqualTo(ALL);
  }
}
