package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Conditional writes through the Java API, single-threaded: IF NOT EXISTS, IF EXISTS, every
 * operator, absent values, collection elements, user type fields, static columns, conditional
 * batches, the refusals, and the timestamp rule (after what was read, even with the clock set back
 * across a reopen). Cases follow Cassandra's InsertUpdateIfConditionTest where it has them.
 */
class ConditionalWriteTest {
  @TempDir Path dir;
  private final ManualClock clock = ManualClock.startingAtDefault();
  private TalusDb db;
  private Table t;

  @BeforeEach
  void open() {
    reopen();
  }

  private void reopen() {
    db = TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
    UserType addr =
        db.createTypeIfNotExists(
            UserType.builder("addr")
                .field("city", DataType.TEXT)
                .field("zip", DataType.INT)
                .build());
    t =
        db.createTableIfNotExists(
            TableSchema.builder("lwt")
                .partitionKey("k", DataType.INT)
                .clusteringColumn("c", DataType.INT)
                .staticColumn("s", DataType.INT)
                .column("v", DataType.INT)
                .column("w", DataType.INT)
                .column("name", DataType.TEXT)
                .column("m", DataType.map(DataType.TEXT, DataType.INT))
                .column("l", DataType.list(DataType.INT))
                .column("a", DataType.udt(addr))
                .build());
  }

  @AfterEach
  void close() {
    db.close();
  }

  private Integer v(int k, int c) {
    return t.select().eq("k", k).eq("c", c).one().map(r -> r.getInt("v")).orElse(null);
  }

  @Test
  void insertIfNotExistsAppliesOnceAndShowsTheExistingRow() {
    ConditionalResult first =
        t.insert().value("k", 1).value("c", 1).value("v", 10).ifNotExists().executeConditional();
    assertThat(first.applied()).isTrue();
    assertThat(first.currentRows()).isEmpty();

    ConditionalResult second =
        t.insert().value("k", 1).value("c", 1).value("v", 20).ifNotExists().executeConditional();
    assertThat(second.applied()).isFalse();
    ResultRow existing = second.current().orElseThrow();
    assertThat(existing.getInt("v")).isEqualTo(10);
    assertThat(existing.columns()).contains("k", "c", "v", "name");
    assertThat(v(1, 1)).isEqualTo(10);
  }

  @Test
  void insertIfNotExistsAppliesAgainOnceTheRowIsDeleted() {
    t.insert().value("k", 1).value("c", 1).value("v", 10).execute();
    t.flush();
    t.delete().eq("k", 1).eq("c", 1).execute();
    assertThat(
            t.insert()
                .value("k", 1)
                .value("c", 1)
                .value("v", 11)
                .ifNotExists()
                .executeConditional()
                .applied())
        .isTrue();
    assertThat(v(1, 1)).isEqualTo(11);
  }

  @Test
  void updateIfExistsNeedsTheRow() {
    ConditionalResult missing =
        t.update().where("k", 2).where("c", 1).set("v", 5).ifExists().executeConditional();
    assertThat(missing.applied()).isFalse();
    assertThat(missing.currentRows()).isEmpty();
    assertThat(t.select().eq("k", 2).execute().isEmpty()).isTrue();

    t.update().where("k", 2).where("c", 1).set("name", "x").execute();
    assertThat(
            t.update()
                .where("k", 2)
                .where("c", 1)
                .set("v", 5)
                .ifExists()
                .executeConditional()
                .applied())
        .isTrue();
    assertThat(v(2, 1)).isEqualTo(5);
  }

  @Test
  void deleteIfExistsAndIfCondition() {
    t.insert().value("k", 3).value("c", 1).value("v", 1).execute();
    assertThat(t.delete().eq("k", 3).eq("c", 1).onlyIf(Condition.eq("v", 2)).executeConditional())
        .extracting(ConditionalResult::applied)
        .isEqualTo(false);
    assertThat(v(3, 1)).isEqualTo(1);
    assertThat(t.delete().eq("k", 3).eq("c", 1).ifExists().executeConditional().applied()).isTrue();
    assertThat(v(3, 1)).isNull();
    assertThat(t.delete().eq("k", 3).eq("c", 1).ifExists().executeConditional().applied())
        .isFalse();
  }

  /** current v = 5; each row: operator, value, whether the condition holds. */
  @ParameterizedTest
  @CsvSource({
    "EQ,5,true", "EQ,6,false", "NE,5,false", "NE,6,true", "LT,6,true", "LT,5,false",
    "LE,5,true", "LE,4,false", "GT,4,true", "GT,5,false", "GE,5,true", "GE,6,false"
  })
  void everyOperator(Condition.Op op, int value, boolean holds) {
    t.insert().value("k", 4).value("c", 1).value("v", 5).execute();
    ConditionalResult r =
        t.update()
            .where("k", 4)
            .where("c", 1)
            .set("v", 100)
            .onlyIf(Condition.column("v", op, value))
            .executeConditional();
    assertThat(r.applied()).isEqualTo(holds);
    assertThat(v(4, 1)).isEqualTo(holds ? 100 : 5);
    if (!holds) {
      assertThat(r.current().orElseThrow().columns()).containsExactly("k", "c", "v");
      assertThat(r.current().orElseThrow().getInt("v")).isEqualTo(5);
    }
  }

  @Test
  void inAndTextComparisons() {
    t.insert().value("k", 5).value("c", 1).value("name", "bob").execute();
    assertThat(cond(5, Condition.in("name", "alice", "carol"))).isFalse();
    assertThat(cond(5, Condition.in("name", "alice", "bob"))).isTrue();
    assertThat(cond(5, Condition.lt("name", "carl"), Condition.gt("name", "al"))).isTrue();
    assertThat(cond(5, Condition.lt("name", "carl"), Condition.gt("name", "bz"))).isFalse();
  }

  private boolean cond(int k, Condition... conditions) {
    return t.update()
        .where("k", k)
        .where("c", 1)
        .set("w", 0)
        .onlyIf(conditions)
        .executeConditional()
        .applied();
  }

  @Test
  void absentValuesFollowCassandra() {
    // a missing row: every column is absent
    assertThat(cond(6, Condition.eq("v", null))).isTrue();
    assertThat(cond(6, Condition.ne("v", 1))).isTrue();
    assertThat(cond(6, Condition.eq("v", 1))).isFalse();
    assertThat(cond(6, Condition.gt("v", 1))).isFalse();
    assertThat(cond(6, Condition.in("v", 1, null))).isTrue();
    assertThatThrownBy(() -> cond(6, Condition.lt("v", null)))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("Invalid comparison with null for operator \"<\"");
    t.insert().value("k", 6).value("c", 1).value("v", 1).execute();
    assertThat(cond(6, Condition.eq("v", null))).isFalse();
    assertThat(cond(6, Condition.ne("v", null))).isTrue();
  }

  @Test
  void conditionsOnCollectionElementsAndFields() {
    UserType addr = t.schema().column("a").orElseThrow().type().userType();
    t.insert()
        .value("k", 7)
        .value("c", 1)
        .value("m", Map.of("x", 1, "y", 2))
        .value("l", List.of(10, 20))
        .value("a", addr.value(Map.of("city", "Oslo", "zip", 150)))
        .execute();
    assertThat(cond(7, Condition.element("m", "x", Condition.Op.EQ, 1))).isTrue();
    assertThat(cond(7, Condition.element("m", "y", Condition.Op.GT, 2))).isFalse();
    assertThat(cond(7, Condition.element("m", "z", Condition.Op.EQ, null))).isTrue();
    assertThat(cond(7, Condition.element("l", 1, Condition.Op.EQ, 20))).isTrue();
    assertThat(cond(7, Condition.element("l", 5, Condition.Op.EQ, null))).isTrue();
    assertThat(cond(7, Condition.element("a", "city", Condition.Op.EQ, "Oslo"))).isTrue();
    assertThat(cond(7, Condition.element("a", "zip", Condition.Op.LT, 100))).isFalse();
    assertThat(cond(7, Condition.eq("m", Map.of("x", 1, "y", 2)))).isTrue();
    assertThat(cond(7, Condition.eq("l", List.of(10)))).isFalse();
    // an empty non-frozen collection is no value
    assertThat(cond(8, Condition.eq("m", Map.of()))).isTrue();
    assertThatThrownBy(() -> cond(7, Condition.gt("m", Map.of("x", 0))))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("Slice conditions (>) are not supported on map<text, int>");
    assertThatThrownBy(() -> cond(7, Condition.element("v", 0, Condition.Op.EQ, 1)))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("Invalid element access");
    assertThatThrownBy(() -> cond(7, Condition.element("a", "street", Condition.Op.EQ, "x")))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("Unknown field street");
  }

  @Test
  void conditionsOnStaticColumnsNameThePartitionAlone() {
    ConditionalResult r =
        t.update().where("k", 9).set("s", 1).onlyIf(Condition.eq("s", null)).executeConditional();
    assertThat(r.applied()).isTrue();
    ConditionalResult again =
        t.update().where("k", 9).set("s", 2).onlyIf(Condition.eq("s", null)).executeConditional();
    assertThat(again.applied()).isFalse();
    assertThat(again.current().orElseThrow().getInt("s")).isEqualTo(1);
    // a static condition alongside a row write, on a row that does not exist yet
    assertThat(
            t.update()
                .where("k", 9)
                .where("c", 1)
                .set("v", 7)
                .onlyIf(Condition.eq("s", 1))
                .executeConditional()
                .applied())
        .isTrue();
    assertThat(v(9, 1)).isEqualTo(7);
    assertThatThrownBy(
            () ->
                t.update()
                    .where("k", 9)
                    .set("s", 3)
                    .onlyIf(Condition.eq("v", 7))
                    .executeConditional())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("must restrict every PRIMARY KEY column");
  }

  @Test
  void staticOnlyInsertIfNotExistsLooksAtThePartition() {
    assertThat(t.insert().value("k", 10).value("s", 1).ifNotExists().executeConditional().applied())
        .isTrue();
    ConditionalResult r =
        t.insert().value("k", 10).value("s", 2).ifNotExists().executeConditional();
    assertThat(r.applied()).isFalse();
    assertThat(r.current().orElseThrow().getInt("s")).isEqualTo(1);
  }

  @Test
  void conditionalBatchAppliesAllOrNothing() {
    t.insert().value("k", 11).value("c", 1).value("v", 1).execute();
    Batch fails =
        db.batch()
            .add(t.update().where("k", 11).where("c", 1).set("v", 2).onlyIf(Condition.eq("v", 1)))
            .add(t.insert().value("k", 11).value("c", 2).value("v", 2).ifNotExists())
            .add(t.update().where("k", 11).where("c", 3).set("v", 3).onlyIf(Condition.eq("v", 9)));
    ConditionalResult r = fails.executeConditional();
    assertThat(r.applied()).isFalse();
    assertThat(r.currentRows()).hasSize(1);
    assertThat(r.currentRows().get(0).getInt("c")).isEqualTo(1);
    assertThat(v(11, 1)).isEqualTo(1);
    assertThat(v(11, 2)).isNull();

    ConditionalResult ok =
        db.batch()
            .add(t.update().where("k", 11).where("c", 1).set("v", 2).onlyIf(Condition.eq("v", 1)))
            .add(t.insert().value("k", 11).value("c", 2).value("v", 2).ifNotExists())
            .add(t.update().where("k", 11).where("c", 3).set("v", 3))
            .executeConditional();
    assertThat(ok.applied()).isTrue();
    assertThat(List.of(v(11, 1), v(11, 2), v(11, 3))).containsExactly(2, 2, 3);
    List<Long> times =
        t.select().eq("k", 11).execute().rows().stream().map(x -> x.writeTime("v")).toList();
    assertThat(times).hasSize(3).containsOnly(times.get(0));
  }

  @Test
  void conditionalBatchStaysInOnePartitionOfOneTable() {
    Table other =
        db.createTableIfNotExists(
            TableSchema.builder("other")
                .partitionKey("k", DataType.INT)
                .column("v", DataType.INT)
                .build());
    assertThatThrownBy(
            () ->
                db.batch()
                    .add(t.insert().value("k", 1).value("c", 1).ifNotExists())
                    .add(t.insert().value("k", 2).value("c", 1))
                    .executeConditional())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessage("Batch with conditions cannot span multiple partitions");
    assertThatThrownBy(
            () ->
                db.batch()
                    .add(t.insert().value("k", 1).value("c", 1).ifNotExists())
                    .add(other.insert().value("k", 1).value("v", 1))
                    .executeConditional())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessage("Batch with conditions cannot span multiple tables");
    assertThatThrownBy(
            () -> db.batch().add(t.insert().value("k", 1).value("c", 1).ifNotExists()).execute())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("executeConditional");
    assertThat(t.select().eq("k", 1).execute().isEmpty()).isTrue();
  }

  @Test
  void refusals() {
    assertThatThrownBy(
            () ->
                t.insert()
                    .value("k", 1)
                    .value("c", 1)
                    .timestamp(5)
                    .ifNotExists()
                    .executeConditional())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessage("Cannot provide custom timestamp for conditional updates");
    assertThatThrownBy(
            () ->
                t.update()
                    .where("k", 1)
                    .where("c", 1)
                    .set("v", 1)
                    .onlyIf(Condition.eq("c", 1))
                    .executeConditional())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessage("PRIMARY KEY column 'c' cannot have IF conditions");
    assertThatThrownBy(
            () ->
                t.update()
                    .where("k", 1)
                    .where("c", 1)
                    .set("v", 1)
                    .onlyIf(Condition.eq("v", "text"))
                    .executeConditional())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("bad value in a condition on v");
    assertThatThrownBy(() -> t.update().where("k", 1).where("c", 1).ifExists().onlyIf())
        .isInstanceOf(InvalidQueryException.class);
    assertThatThrownBy(
            () -> t.insert().value("k", 1).value("c", 1).value("v", 1).ifNotExists().execute())
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> t.insert().value("k", 1).value("c", 1).executeConditional())
        .isInstanceOf(IllegalStateException.class);
    Table counters =
        db.createTableIfNotExists(
            TableSchema.builder("cnt")
                .partitionKey("k", DataType.INT)
                .column("n", DataType.COUNTER)
                .build());
    assertThatThrownBy(
            () ->
                counters
                    .update()
                    .where("k", 1)
                    .increment("n", 1)
                    .onlyIf(Condition.eq("n", 1L))
                    .executeConditional())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessage("Conditional updates are not supported on counter tables");
    assertThat(t.select().eq("k", 1).execute().isEmpty()).isTrue();
  }

  @Test
  void aConditionalWriteSupersedesWhatItReadEvenWithAFutureTimestamp() {
    long future = clock.instant().plus(Duration.ofHours(1)).toEpochMilli() * 1000;
    t.insert().value("k", 12).value("c", 1).value("v", 1).timestamp(future).execute();
    assertThat(
            t.update()
                .where("k", 12)
                .where("c", 1)
                .set("v", 2)
                .onlyIf(Condition.eq("v", 1))
                .executeConditional()
                .applied())
        .isTrue();
    assertThat(v(12, 1)).isEqualTo(2);
    long written = t.select().eq("k", 12).eq("c", 1).one().orElseThrow().writeTime("v");
    assertThat(written).isGreaterThan(future);
  }

  @Test
  void timestampsIncreaseAcrossAReopenWithTheClockSetBack() {
    t.insert().value("k", 13).value("c", 1).value("v", 0).ifNotExists().executeConditional();
    long before = t.select().eq("k", 13).eq("c", 1).one().orElseThrow().writeTime("v");
    db.close();
    clock.set(clock.instant().minus(Duration.ofDays(1)));
    reopen();
    for (int i = 0; i < 3; i++) {
      assertThat(
              t.update()
                  .where("k", 13)
                  .where("c", 1)
                  .set("v", i + 1)
                  .onlyIf(Condition.eq("v", i))
                  .executeConditional()
                  .applied())
          .isTrue();
      long now = t.select().eq("k", 13).eq("c", 1).one().orElseThrow().writeTime("v");
      assertThat(now).isGreaterThan(before);
      before = now;
    }
    assertThat(v(13, 1)).isEqualTo(3);
  }

  @Test
  void anAppliedConditionalWriteIsLoggedAndSurvivesAReopen() {
    t.insert().value("k", 14).value("c", 1).value("v", 1).ifNotExists().executeConditional();
    t.update()
        .where("k", 14)
        .where("c", 1)
        .set("v", 2)
        .onlyIf(Condition.eq("v", 1))
        .executeConditional();
    db.close();
    reopen();
    assertThat(v(14, 1)).isEqualTo(2);
  }
}
