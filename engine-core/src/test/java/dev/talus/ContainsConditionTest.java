package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code IF c CONTAINS v} and {@code IF m CONTAINS KEY k} (Cassandra 5.0) on sets, lists and maps,
 * frozen or not, in memtables and SSTables, with Cassandra's refusals.
 */
class ContainsConditionTest {
  @TempDir Path dir;

  private TalusDb db;
  private Table t;

  @BeforeEach
  void open() {
    db =
        TalusDb.open(
            TalusOptions.builder(dir)
                .clock(ManualClock.startingAtDefault())
                .backgroundCompaction(false)
                .build());
    t =
        db.createTable(
            TableSchema.builder("t")
                .partitionKey("k", DataType.INT)
                .column("s", DataType.set(DataType.TEXT))
                .column("l", DataType.list(DataType.INT))
                .column("m", DataType.map(DataType.TEXT, DataType.INT))
                .column("fm", DataType.frozen(DataType.map(DataType.TEXT, DataType.INT)))
                .column("v", DataType.INT)
                .build());
    t.insert()
        .value("k", 1)
        .value("s", Set.of("a", "b"))
        .value("l", List.of(1, 2))
        .value("m", Map.of("x", 10))
        .value("fm", Map.of("y", 20))
        .execute();
  }

  @org.junit.jupiter.api.AfterEach
  void close() {
    db.close();
  }

  private boolean applies(Condition c) {
    return t.update().where("k", 1).set("v", 1).onlyIf(c).executeConditional().applied();
  }

  @Test
  void containsAndContainsKeyHoldExactlyWhenTheElementIsThere() {
    for (int round = 0; round < 2; round++) {
      assertThat(applies(Condition.contains("s", "a"))).isTrue();
      assertThat(applies(Condition.contains("s", "z"))).isFalse();
      assertThat(applies(Condition.contains("l", 2))).isTrue();
      assertThat(applies(Condition.contains("l", 3))).isFalse();
      assertThat(applies(Condition.contains("m", 10))).isTrue();
      assertThat(applies(Condition.contains("m", 11))).isFalse();
      assertThat(applies(Condition.containsKey("m", "x"))).isTrue();
      assertThat(applies(Condition.containsKey("m", "y"))).isFalse();
      assertThat(applies(Condition.containsKey("fm", "y"))).isTrue();
      assertThat(applies(Condition.contains("fm", 20))).isTrue();
      assertThat(applies(Condition.contains("fm", 10))).isFalse();
      t.flush(); // the second round reads the same values from an SSTable
    }
    t.update().where("k", 1).remove("s", Set.of("a", "b")).execute();
    assertThat(applies(Condition.contains("s", "a"))).isFalse(); // an empty set is no value
    ConditionalResult r =
        t.update()
            .where("k", 2)
            .set("v", 1)
            .onlyIf(Condition.contains("l", 1))
            .executeConditional();
    assertThat(r.applied()).isFalse(); // no row: no value
  }

  @Test
  void refusedOnOtherColumnsAndWithNull() {
    assertThatThrownBy(() -> applies(Condition.contains("v", 1)))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessage("Cannot use CONTAINS on non-collection column v");
    assertThatThrownBy(() -> applies(Condition.containsKey("s", "a")))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessage("Cannot use CONTAINS KEY on non-map column s");
    assertThatThrownBy(() -> applies(Condition.contains("s", null)))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("Invalid null value for CONTAINS condition on s");
    assertThatThrownBy(() -> applies(Condition.contains("l", "text")))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("bad value in a condition on l");
  }
}
