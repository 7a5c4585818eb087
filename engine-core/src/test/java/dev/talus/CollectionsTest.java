package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Non-frozen sets, maps, lists and user types through the public API, as Cassandra's
 * CollectionsTest exercises them: element-wise writes without reading, per-element TTL, overwrite
 * semantics and the tombstone an overwrite leaves, null and empty rules, list operations that read
 * first, and the same answers from the memtable, after a flush, after a compaction and after a
 * reopen.
 */
class CollectionsTest {
  @TempDir Path dir;
  private final ManualClock clock = ManualClock.startingAtDefault();
  private TalusDb db;
  private Table t;

  static final UserType ADDRESS =
      UserType.builder("address").field("street", DataType.TEXT).field("zip", DataType.INT).build();

  /** Where the data is when it is read. */
  enum Stage {
    MEMTABLE,
    FLUSHED,
    COMPACTED,
    REOPENED
  }

  @BeforeEach
  void open() {
    db = open(dir);
    db.createTypeIfNotExists(ADDRESS);
    t =
        db.createTableIfNotExists(
            TableSchema.builder("c")
                .partitionKey("k", DataType.INT)
                .column("s", DataType.set(DataType.TEXT))
                .column("m", DataType.map(DataType.TEXT, DataType.INT))
                .column("l", DataType.list(DataType.TEXT))
                .column("u", DataType.udt(ADDRESS))
                .column("fs", DataType.frozen(DataType.set(DataType.INT)))
                .gcGrace(Duration.ofHours(1))
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
        clock.advance(Duration.ofMillis(1)); // time moves on across a restart
        db = open(dir);
        t = db.table("c");
      }
    }
  }

  private ResultRow row() {
    return t.select().eq("k", 1).one().orElseThrow();
  }

  private Object get(String column) {
    return t.select().eq("k", 1).one().map(r -> r.get(column)).orElse(null);
  }

  private void update(Consumer<Update> u) {
    Update up = t.update().where("k", 1);
    u.accept(up);
    up.execute();
  }

  @ParameterizedTest
  @EnumSource(Stage.class)
  void setElementsAreAddedAndRemovedWithoutReading(Stage stage) {
    update(u -> u.add("s", List.of("b", "a")));
    stage(stage == Stage.COMPACTED ? Stage.FLUSHED : stage);
    update(u -> u.add("s", Set.of("c")).remove("s", Set.of("b")));
    stage(stage);
    Object s = get("s");
    assertThat(s).isInstanceOf(Set.class);
    assertThat(List.<Object>copyOf((Set<?>) s)).as("in element order").containsExactly("a", "c");
    assertThatThrownBy(() -> ((Set<?>) s).clear())
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(row().getSet("s", String.class)).containsExactly("a", "c");
  }

  @ParameterizedTest
  @EnumSource(Stage.class)
  void mapEntriesArePutAndRemoved(Stage stage) {
    update(u -> u.add("m", Map.of("b", 2, "a", 1)));
    stage(stage == Stage.COMPACTED ? Stage.FLUSHED : stage);
    update(u -> u.put("m", "c", 3).remove("m", Set.of("a")).put("m", "b", null));
    stage(stage);
    assertThat(get("m")).isEqualTo(Map.of("c", 3));
    update(u -> u.put("m", "a", 10));
    assertThat(List.<Object>copyOf(((Map<?, ?>) get("m")).keySet())).containsExactly("a", "c");
  }

  @ParameterizedTest
  @EnumSource(Stage.class)
  void listsKeepTheirOrderAndReadBeforePositionalWrites(Stage stage) {
    update(u -> u.add("l", List.of("b", "c")));
    update(u -> u.prepend("l", List.of("x", "a")));
    update(u -> u.add("l", List.of("d", "b")));
    stage(stage);
    assertThat(get("l")).isEqualTo(List.of("x", "a", "b", "c", "d", "b"));
    update(u -> u.put("l", 0, "z"));
    t.delete().eq("k", 1).element("l", 1).execute();
    update(u -> u.remove("l", List.of("b")));
    stage(stage);
    assertThat(get("l")).isEqualTo(List.of("z", "c", "d"));
    assertThatThrownBy(() -> update(u -> u.put("l", 3, "q")))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessage("List index 3 out of bound, list has size 3");
    t.delete().eq("k", 1).columns("l").execute();
    assertThatThrownBy(() -> update(u -> u.put("l", 0, "q")))
        .hasMessage("Attempted to set an element on a list which is null");
    assertThatThrownBy(() -> t.delete().eq("k", 1).element("l", 0).execute())
        .hasMessage("Attempted to delete an element from a list which is null");
  }

  @Test
  void prependedElementsComeBeforeEverythingAndKeepTheirOrder() {
    for (int i = 0; i < 3; i++) {
      int n = i;
      update(u -> u.prepend("l", List.of("p" + n + "a", "p" + n + "b")));
      update(u -> u.add("l", List.of("a" + n)));
    }
    assertThat(get("l"))
        .isEqualTo(List.of("p2a", "p2b", "p1a", "p1b", "p0a", "p0b", "a0", "a1", "a2"));
  }

  @ParameterizedTest
  @EnumSource(Stage.class)
  void replacingACollectionLeavesATombstoneThatShadowsTheOldElementsOnly(Stage stage) {
    update(u -> u.add("s", Set.of("a", "b")));
    stage(stage == Stage.COMPACTED ? Stage.FLUSHED : stage);
    update(u -> u.set("s", Set.of("c")));
    stage(stage);
    assertThat(get("s")).isEqualTo(Set.of("c"));
    assertThat(t.lastReadTombstoneCount()).as("the overwrite's collection deletion").isEqualTo(1);
    StoredPartition.StoredRow stored = t.dump(1).get(0).rows().get(0);
    StoredPartition.StoredCell c =
        stored.cells().stream().filter(x -> "c".equals(x.element())).findFirst().orElseThrow();
    assertThat(stored.collectionDeletions())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.column()).isEqualTo("s");
              assertThat(d.deletion().timestampMicros()).isEqualTo(c.timestampMicros() - 1);
            });
    // the newest source holds the new element; older elements (if still stored) are shadowed
    assertThat(stored.cells())
        .filteredOn(x -> x.timestampMicros() > c.timestampMicros() - 1)
        .extracting(StoredPartition.StoredCell::element)
        .containsExactly("c");
  }

  @Test
  void theOverwriteTombstoneIsPurgedOnlyAfterGcGrace() {
    update(u -> u.add("s", Set.of("a", "b")));
    t.flush();
    update(u -> u.set("s", Set.of("c")));
    t.flush();
    t.compact();
    assertThat(t.dump(1).get(0).rows().get(0).collectionDeletions()).hasSize(1);
    clock.advance(Duration.ofHours(1).plusSeconds(1));
    t.compact();
    assertThat(t.dump(1).get(0).rows().get(0).collectionDeletions()).isEmpty();
    assertThat(get("s")).isEqualTo(Set.of("c"));
    assertThat(t.lastReadTombstoneCount()).isZero();
  }

  @Test
  void nullAndEmptyCollectionsReadAsNull() {
    update(u -> u.set("s", Set.of("a")).set("m", Map.of()).set("l", List.of()));
    assertThat(row().get("m")).isNull();
    assertThat(row().get("l")).isNull();
    update(u -> u.set("s", null));
    assertThat(t.select().eq("k", 1).one()).as("an updated-only row with nothing left").isEmpty();
    t.insert().value("k", 2).value("s", Set.of()).execute();
    assertThat(t.select().eq("k", 2).one().orElseThrow().get("s")).isNull();
    update(u -> u.remove("s", Set.of("never-there")));
    assertThat(get("s")).isNull();
  }

  @Test
  void everyElementHasItsOwnTtl() {
    update(u -> u.add("s", Set.of("long")));
    t.update().where("k", 1).add("s", Set.of("short")).ttl(Duration.ofSeconds(10)).execute();
    t.update().where("k", 1).put("m", "x", 1).ttl(Duration.ofSeconds(20)).execute();
    t.flush();
    assertThat(get("s")).isEqualTo(Set.of("long", "short"));
    clock.advance(Duration.ofSeconds(10));
    assertThat(get("s")).isEqualTo(Set.of("long"));
    assertThat(get("m")).isEqualTo(Map.of("x", 1));
    clock.advance(Duration.ofSeconds(10));
    assertThat(get("m")).isNull();
    assertThat(t.lastReadTombstoneCount()).as("expired elements are tombstones").isEqualTo(2);
  }

  @ParameterizedTest
  @EnumSource(Stage.class)
  void userTypeFieldsAreCellsOfTheirOwn(Stage stage) {
    update(u -> u.set("u", Map.of("street", "Main St", "zip", 12345)));
    stage(stage == Stage.COMPACTED ? Stage.FLUSHED : stage);
    update(u -> u.put("u", "zip", 54321));
    stage(stage);
    UdtValue a = (UdtValue) get("u");
    assertThat(a.get("street")).isEqualTo("Main St");
    assertThat(a.get("zip")).isEqualTo(54321);
    t.delete().eq("k", 1).element("u", "street").execute();
    assertThat(((UdtValue) get("u")).get("street")).isNull();
    assertThatThrownBy(() -> update(u -> u.put("u", "city", "x")))
        .hasMessageContaining("Unknown field city in user type address");
  }

  @Test
  void frozenCollectionsAreOneValueAndRefuseElementWrites() {
    update(u -> u.set("fs", List.of(3, 1, 2)));
    assertThat(List.<Object>copyOf((Set<?>) get("fs"))).containsExactly(1, 2, 3);
    assertThatThrownBy(() -> update(u -> u.add("fs", Set.of(4))))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining(
            "Invalid operation (fs = fs + ...) for frozen frozen<set<int>> column");
    assertThatThrownBy(() -> update(u -> u.add("m", List.of("x"))))
        .hasMessageContaining("expected a map of entries");
    assertThatThrownBy(() -> update(u -> u.add("s", java.util.Arrays.asList("a", null))))
        .hasMessage("null is not supported inside collections");
    assertThatThrownBy(() -> t.update().where("k", 1).increment("s", 1).execute())
        .hasMessageContaining("for non counter column s");
    assertThatThrownBy(() -> update(u -> u.prepend("s", List.of("x"))))
        .hasMessageContaining("for set column s");
  }

  @Test
  void insertReplacesTheCollectionAndWritesTheRowMarker() {
    update(u -> u.add("s", Set.of("old")));
    t.insert().value("k", 1).value("s", Set.of("new")).execute();
    assertThat(get("s")).isEqualTo(Set.of("new"));
    t.delete().eq("k", 1).columns("s").execute();
    assertThat(row().get("s")).as("the row marker keeps the row").isNull();
  }

  @Test
  void aDeleteOfTheWholeCollectionBeatsElementsWrittenAtTheSameTimestamp() {
    t.update().where("k", 1).add("s", Set.of("a")).timestamp(100).execute();
    t.delete().eq("k", 1).columns("s").timestamp(100).execute();
    assertThat(t.select().eq("k", 1).one()).isEmpty();
    Map<String, Integer> m = new LinkedHashMap<>();
    m.put("a", 1);
    t.update().where("k", 1).set("m", m).timestamp(200).execute();
    assertThat(get("m")).as("an overwrite at 200 deletes at 199 only").isEqualTo(m);
  }
}
