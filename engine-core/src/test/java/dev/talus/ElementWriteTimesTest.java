package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Per-cell write times and TTLs of non-frozen collections and user types ({@link
 * ResultRow#writeTimes}, {@link ResultRow#ttls}), as Cassandra 5.0's WritetimeOrTTLTest expects
 * them from {@code writetime()} and {@code ttl()} of such a column.
 */
class ElementWriteTimesTest {
  static final long T1 = 1_000;
  static final long T2 = 2_000;

  static final UserType PAIR =
      UserType.builder("pair").field("f1", DataType.INT).field("f2", DataType.INT).build();

  @TempDir Path dir;
  private final ManualClock clock = ManualClock.startingAtDefault();
  private TalusDb db;
  private Table t;

  enum Stage {
    MEMTABLE,
    FLUSHED,
    COMPACTED,
    REOPENED
  }

  @BeforeEach
  void open() {
    db = open(dir);
    db.createTypeIfNotExists(PAIR);
    t =
        db.createTable(
            TableSchema.builder("w")
                .partitionKey("k", DataType.INT)
                .clusteringColumn("c", DataType.INT)
                .column("l", DataType.list(DataType.INT))
                .column("s", DataType.set(DataType.INT))
                .column("m", DataType.map(DataType.TEXT, DataType.INT))
                .column("u", DataType.udt(PAIR))
                .column("fl", DataType.frozen(DataType.list(DataType.INT)))
                .column("v", DataType.INT)
                .staticColumn("st", DataType.set(DataType.TEXT))
                .build());
  }

  private TalusDb open(Path d) {
    return TalusDb.open(TalusOptions.builder(d).clock(clock).backgroundCompaction(false).build());
  }

  @AfterEach
  void close() {
    db.close();
  }

  private void stage(Stage s) {
    switch (s) {
      case MEMTABLE -> {}
      case FLUSHED -> t.flush();
      case COMPACTED -> {
        t.flush();
        t.compact();
      }
      case REOPENED -> {
        db.close();
        db = open(dir);
        t = db.table("w");
      }
    }
  }

  private ResultRow row() {
    return t.select().eq("k", 1).eq("c", 1).one().orElseThrow();
  }

  private static List<Object> list(Object... v) {
    return Arrays.asList(v);
  }

  @ParameterizedTest
  @EnumSource(Stage.class)
  void eachElementHasItsOwnWriteTimeAndTtl(Stage stage) {
    t.insert().value("k", 1).value("c", 1).value("l", List.of(10)).timestamp(T1).execute();
    t.update()
        .where("k", 1)
        .where("c", 1)
        .add("l", List.of(20))
        .timestamp(T2)
        .ttl(Duration.ofSeconds(20_000))
        .execute();
    t.update().where("k", 1).where("c", 1).add("s", Set.of(2, 1)).timestamp(T1).execute();
    t.update()
        .where("k", 1)
        .where("c", 1)
        .add("s", Set.of(0))
        .timestamp(T2)
        .ttl(Duration.ofSeconds(10_000))
        .execute();
    t.update().where("k", 1).where("c", 1).put("m", "b", 2).timestamp(T1).execute();
    t.update().where("k", 1).where("c", 1).put("m", "a", 1).timestamp(T2).execute();
    stage(stage);
    clock.advance(Duration.ofSeconds(100));
    ResultRow r = row();
    // list: in list order; set and map: in element order
    assertThat(r.writeTimes("l")).isEqualTo(List.of(T1, T2));
    assertThat(r.ttls("l")).isEqualTo(list(null, 19_900));
    assertThat(r.get("s")).isEqualTo(Set.of(0, 1, 2));
    assertThat(r.writeTimes("s")).isEqualTo(List.of(T2, T1, T1));
    assertThat(r.ttls("s")).isEqualTo(list(9_900, null, null));
    assertThat(r.writeTimes("m")).isEqualTo(List.of(T2, T1));
    assertThat(r.ttls("m")).isEqualTo(list(null, null));
  }

  @Test
  void aUserTypeHasOneEntryPerFieldWithNullForAFieldWithoutAValue() {
    t.update().where("k", 1).where("c", 1).put("u", "f2", 7).timestamp(T1).execute();
    ResultRow r = row();
    assertThat(r.writeTimes("u")).isEqualTo(list(null, T1));
    assertThat(r.ttls("u")).isEqualTo(list(null, null));
    t.update()
        .where("k", 1)
        .where("c", 1)
        .put("u", "f1", 3)
        .timestamp(T2)
        .ttl(Duration.ofSeconds(50))
        .execute();
    r = row();
    assertThat(r.writeTimes("u")).isEqualTo(List.of(T2, T1));
    assertThat(r.ttls("u")).isEqualTo(list(50, null));
  }

  @Test
  void nullOrEmptyCollectionsAndExpiredOrRemovedElements() {
    t.insert()
        .value("k", 1)
        .value("c", 1)
        .value("v", 1)
        .value("l", List.of())
        .timestamp(T1)
        .execute();
    ResultRow r = row();
    assertThat(r.writeTimes("l")).isNull();
    assertThat(r.ttls("l")).isNull();
    assertThat(r.writeTimes("s")).isNull();
    assertThat(r.writeTimes("u")).isNull();
    t.update().where("k", 1).where("c", 1).add("s", Set.of(1, 2)).timestamp(T1).execute();
    t.update()
        .where("k", 1)
        .where("c", 1)
        .add("s", Set.of(3))
        .timestamp(T2)
        .ttl(Duration.ofSeconds(10))
        .execute();
    t.update().where("k", 1).where("c", 1).remove("s", Set.of(1)).timestamp(T2).execute();
    clock.advance(Duration.ofSeconds(11));
    assertThat(row().writeTimes("s")).isEqualTo(List.of(T1)); // only 2 is left
  }

  @Test
  void staticCollectionsToo() {
    t.update().where("k", 1).add("st", Set.of("x")).timestamp(T2).execute();
    t.insert().value("k", 1).value("c", 1).value("v", 1).timestamp(T1).execute();
    assertThat(row().writeTimes("st")).isEqualTo(List.of(T2));
  }

  @Test
  void oneCellColumnsAndPrimaryKeysAreRefusedWithTheMethodToUse() {
    t.insert()
        .value("k", 1)
        .value("c", 1)
        .value("v", 1)
        .value("fl", List.of(1))
        .value("s", Set.of(1))
        .timestamp(T1)
        .execute();
    ResultRow r = row();
    assertThat(r.writeTime("fl")).isEqualTo(T1);
    assertThatThrownBy(() -> r.writeTimes("fl"))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("writeTimes() of fl is undefined")
        .hasMessageContaining("stored in one cell")
        .hasMessageContaining("Use writeTime(column)");
    assertThatThrownBy(() -> r.ttls("v"))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("Use ttl(column)");
    assertThatThrownBy(() -> r.writeTimes("k"))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("primary key column");
    assertThatThrownBy(() -> r.writeTime("s"))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("ResultRow.writeTimes(column) and ttls(column) return them");
    ResultRow element = t.select().eq("k", 1).eq("c", 1).element("s", 1).one().orElseThrow();
    String name = element.columns().get(element.columns().size() - 1);
    assertThatThrownBy(() -> element.writeTimes(name))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("is undefined");
  }

  @Test
  void aMapWrittenWholeHasTheWritesTimestampOnEveryElement() {
    t.insert()
        .value("k", 1)
        .value("c", 1)
        .value("m", Map.of("a", 1, "b", 2, "c", 3))
        .timestamp(T2)
        .ttl(Duration.ofSeconds(60))
        .execute();
    ResultRow r = row();
    assertThat(r.writeTimes("m")).isEqualTo(List.of(T2, T2, T2));
    assertThat(r.ttls("m")).isEqualTo(List.of(60, 60, 60));
    assertThatThrownBy(() -> r.writeTimes("m").add(1L))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
