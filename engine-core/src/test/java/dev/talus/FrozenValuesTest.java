package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Frozen collections, tuples, frozen user types and vectors through the public API: each is one
 * value (one cell), written whole and read back equal from the memtable, after a flush, after a
 * compaction of two SSTables and after a reopen; frozen values and tuples as clustering and
 * partition key columns sort in their natural order.
 */
class FrozenValuesTest {
  @TempDir Path dir;
  private final ManualClock clock = ManualClock.startingAtDefault();
  private TalusDb db;

  static final UserType POINT =
      UserType.builder("point").field("x", DataType.INT).field("label", DataType.TEXT).build();

  enum Stage {
    MEMTABLE,
    FLUSHED,
    COMPACTED,
    REOPENED
  }

  @BeforeEach
  void open() {
    db = open(dir);
    db.createTypeIfNotExists(POINT);
    db.createTableIfNotExists(
        TableSchema.builder("v")
            .partitionKey("k", DataType.frozen(DataType.list(DataType.INT)))
            .clusteringColumn("c", DataType.tuple(DataType.INT, DataType.TEXT), ClusteringOrder.ASC)
            .column("fm", DataType.frozen(DataType.map(DataType.TEXT, DataType.INT)))
            .column("pt", DataType.frozen(DataType.udt(POINT)))
            .column("emb", DataType.vector(DataType.FLOAT, 3))
            .column("ivec", DataType.vector(DataType.INT, 2))
            .build());
  }

  private TalusDb open(Path d) {
    return TalusDb.open(TalusOptions.builder(d).clock(clock).backgroundCompaction(false).build());
  }

  @AfterEach
  void close() {
    db.close();
  }

  private Table t() {
    return db.table("v");
  }

  private void stage(Stage s) {
    switch (s) {
      case MEMTABLE -> {}
      case FLUSHED -> t().flush();
      case COMPACTED -> {
        t().flush();
        t().compact();
      }
      case REOPENED -> {
        db.close();
        db = open(dir);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Stage.class)
  void frozenValuesTuplesAndVectorsAreOneValueEach(Stage stage) {
    List<Integer> key = List.of(1, 2);
    t().insert()
        .value("k", key)
        .value("c", TupleValue.of(2, "b"))
        .value("fm", Map.of("b", 2, "a", 1))
        .value("pt", Map.of("x", 7, "label", "seven"))
        .value("emb", new float[] {0.5f, -1f, 2f})
        .value("ivec", List.of(3, 4))
        .execute();
    if (stage == Stage.COMPACTED) {
      t().flush(); // a second SSTable for the compaction to merge
    }
    t().insert()
        .value("k", key)
        .value("c", TupleValue.of(1, "z"))
        .value("ivec", List.of(1, 1))
        .execute();
    // a whole frozen value is replaced, never merged element by element
    t().update()
        .where("k", key)
        .where("c", TupleValue.of(2, "b"))
        .set("fm", Map.of("c", 3))
        .execute();
    stage(stage);
    List<ResultRow> rows = t().select().eq("k", key).execute().rows();
    assertThat(rows).hasSize(2);
    assertThat(rows.get(0).get("c"))
        .as("tuples sort component by component")
        .isEqualTo(TupleValue.of(1, "z"));
    ResultRow r = rows.get(1);
    assertThat(r.get("k")).isEqualTo(key);
    assertThat(r.get("fm")).isEqualTo(Map.of("c", 3));
    UdtValue pt = (UdtValue) r.get("pt");
    assertThat(pt.get("x")).isEqualTo(7);
    assertThat(pt.get("label")).isEqualTo("seven");
    assertThat((float[]) r.get("emb")).containsExactly(0.5f, -1f, 2f);
    assertThat(r.get("ivec")).isEqualTo(List.of(3, 4));
    assertThat(r.writeTime("fm")).as("a frozen value is one cell with one write time").isNotNull();
    assertThat(r.getMap("fm", String.class, Integer.class)).isEqualTo(Map.of("c", 3));
    assertThat(r.getUdt("pt").get("x")).isEqualTo(7);
    assertThat(r.getTuple("c")).isEqualTo(TupleValue.of(2, "b"));
    assertThat(r.getList("ivec", Integer.class)).containsExactly(3, 4);
    assertThat(r.getList("k", Integer.class)).containsExactly(1, 2);
    r.getFloatVector("emb")[0] = 99f;
    assertThat(r.getFloatVector("emb")[0]).as("a vector is handed out as a copy").isEqualTo(0.5f);
    assertThatThrownBy(() -> r.getMap("fm", Integer.class, Integer.class))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessage("column fm holds String elements, not Integer");
    assertThatThrownBy(() -> r.getSet("fm", String.class))
        .isInstanceOf(InvalidQueryException.class);
  }

  @ParameterizedTest
  @EnumSource(Stage.class)
  void frozenPartitionKeysAndTupleClusteringsKeepTheirNaturalOrder(Stage stage) {
    List<TupleValue> clusterings =
        List.of(
            TupleValue.of(-5, "a"),
            TupleValue.of(0, ""),
            TupleValue.of(0, "a"),
            TupleValue.of(3, "b"));
    List<TupleValue> shuffled = new ArrayList<>(clusterings);
    java.util.Collections.reverse(shuffled);
    for (TupleValue c : shuffled) {
      t().insert().value("k", List.of()).value("c", c).execute();
    }
    t().insert().value("k", List.of(1)).value("c", TupleValue.of(1, "x")).execute();
    stage(stage);
    List<Object> read = new ArrayList<>();
    for (ResultRow r : t().select().eq("k", List.of()).execute()) {
      read.add(r.get("c"));
    }
    assertThat(read).containsExactlyElementsOf(clusterings);
    assertThat(t().select().eq("k", List.of()).gt("c", TupleValue.of(0, "")).execute().size())
        .as("a range over tuples compares them in natural order")
        .isEqualTo(2);
    assertThat(t().select().eq("k", List.of(1)).one()).isPresent();
  }

  @Test
  void vectorLengthsAndFrozennessAreCheckedOnWrite() {
    assertThatThrownBy(
            () ->
                t().insert()
                    .value("k", List.of(1))
                    .value("c", TupleValue.of(1, "a"))
                    .value("emb", new float[] {1f, 2f})
                    .execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("3");
    assertThatThrownBy(
            () ->
                t().update()
                    .where("k", List.of(1))
                    .where("c", TupleValue.of(1, "a"))
                    .add("fm", Map.of("x", 1))
                    .execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("frozen");
    assertThat(t().select().eq("k", List.of(1)).one())
        .as("a refused write stores nothing")
        .isEmpty();
  }
}
