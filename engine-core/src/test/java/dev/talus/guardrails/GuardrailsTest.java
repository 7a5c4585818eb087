package dev.talus.guardrails;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.DataType;
import dev.talus.GuardrailViolationException;
import dev.talus.ManualClock;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusMetricsListener;
import dev.talus.TalusMetricsListener.GuardrailKind;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Partition size and rows guardrails: warnings at SSTable writes, failures on writes. */
class GuardrailsTest {
  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(Instant.parse("2026-09-14T00:00:00Z"));
  private final List<String> events = new CopyOnWriteArrayList<>();
  private TalusDb db;

  private final TalusMetricsListener recorder =
      new TalusMetricsListener() {
        @Override
        public void onGuardrail(String table, GuardrailKind kind, String key) {
          events.add(table + " " + kind + " " + key);
        }
      };

  private TalusDb open(TalusOptions.Builder b) {
    db = TalusDb.open(b.clock(clock).metricsListener(recorder).build());
    return db;
  }

  @AfterEach
  void close() {
    if (db != null) {
      db.close();
    }
  }

  private static TableSchema.Builder events(String name) {
    return TableSchema.builder(name)
        .partitionKey("sensor", DataType.TEXT)
        .clusteringColumn("seq", DataType.INT)
        .column("payload", DataType.TEXT);
  }

  private static void insert(Table t, String sensor, int seq, String payload) {
    t.insert().value("sensor", sensor).value("seq", seq).value("payload", payload).execute();
  }

  @Test
  void rowsWarningIsLoggedOncePerPartitionAndCounted() {
    open(TalusOptions.builder(dir));
    Table t = db.createTable(events("ev").partitionRowsThresholds(10L, null).build());
    for (int i = 0; i < 20; i++) {
      insert(t, "a", i, "x");
      insert(t, "b", i, "x");
      insert(t, "small", i % 5, "x");
    }
    t.flush();
    assertThat(t.stats().guardrailWarnings()).isEqualTo(2);
    for (int i = 20; i < 30; i++) {
      insert(t, "a", i, "x");
    }
    t.flush();
    t.compact(); // the compacted partition crosses the threshold again: still one warning
    assertThat(t.stats().guardrailWarnings()).isEqualTo(2);
    assertThat(events)
        .containsExactlyInAnyOrder(
            "ev PARTITION_ROWS_WARN (sensor=a)", "ev PARTITION_ROWS_WARN (sensor=b)");
    assertThat(t.stats().guardrailFailures()).isZero();
  }

  @Test
  void sizeWarningUsesTheSerializedPartitionSize() {
    open(TalusOptions.builder(dir));
    Table t = db.createTable(events("ev").partitionSizeThresholds(4_000L, 0L).build());
    String big = "y".repeat(1_000);
    for (int i = 0; i < 10; i++) {
      insert(t, "big", i, big);
    }
    insert(t, "tiny", 1, "z");
    t.flush();
    assertThat(t.stats().guardrailWarnings()).isEqualTo(1);
    assertThat(events).containsExactly("ev PARTITION_SIZE_WARN (sensor=big)");
  }

  @Test
  void rowsFailureRejectsTheWriteAndStoresNothing() {
    open(TalusOptions.builder(dir));
    Table t = db.createTable(events("ev").partitionRowsThresholds(0L, 5L).build());
    for (int i = 0; i < 5; i++) {
      insert(t, "s1", i, "x");
    }
    assertThatThrownBy(() -> insert(t, "s1", 5, "x"))
        .isInstanceOf(GuardrailViolationException.class)
        .hasMessageContaining("table ev")
        .hasMessageContaining("(sensor=s1)")
        .hasMessageContaining("limit of 5")
        .hasMessageContaining("Nothing was written");
    assertThat(t.select().eq("sensor", "s1").execute().size()).isEqualTo(5);
    // overwriting an existing row adds no row; another partition is unaffected
    insert(t, "s1", 4, "overwritten");
    insert(t, "s2", 99, "x");
    // after a flush the partition's rows are remembered from the SSTable write
    t.flush();
    assertThatThrownBy(() -> insert(t, "s1", 6, "x"))
        .isInstanceOf(GuardrailViolationException.class);
    // batches are checked too, and the whole batch is refused
    assertThatThrownBy(
            () ->
                db.batch()
                    .add(t.insert().value("sensor", "s3").value("seq", 1).value("payload", "ok"))
                    .add(t.insert().value("sensor", "s1").value("seq", 7).value("payload", "no"))
                    .execute())
        .isInstanceOf(GuardrailViolationException.class);
    assertThat(t.select().eq("sensor", "s3").execute().isEmpty()).isTrue();
    // deletions are always allowed: they are how the partition shrinks
    t.delete().eq("sensor", "s1").eq("seq", 0).execute();
    t.delete().eq("sensor", "s1").execute();
    assertThat(t.select().eq("sensor", "s1").execute().isEmpty()).isTrue();
    assertThat(t.stats().guardrailFailures()).isEqualTo(3);
    assertThat(events).hasSize(3).allMatch(e -> e.equals("ev PARTITION_ROWS_FAIL (sensor=s1)"));
  }

  @Test
  void sizeFailureFromTheEngineDefault() {
    open(TalusOptions.builder(dir).partitionSizeThresholds(0, 8_000));
    Table t = db.createTable(events("ev").build());
    String big = "y".repeat(1_000);
    int written = 0;
    try {
      for (int i = 0; i < 100; i++) {
        insert(t, "s1", i, big);
        written++;
      }
    } catch (GuardrailViolationException e) {
      assertThat(e.getMessage()).contains("(sensor=s1)").contains("limit of 8000");
    }
    assertThat(written).isBetween(3, 8);
    assertThat(t.select().eq("sensor", "s1").execute().size()).isEqualTo(written);
    // a table can turn the engine default off
    Table off = db.createTable(events("off").partitionSizeThresholds(null, 0L).build());
    for (int i = 0; i < 20; i++) {
      insert(off, "s1", i, big);
    }
  }

  @Test
  void thresholdsAreStoredWithTheSchema() {
    open(TalusOptions.builder(dir));
    TableSchema s =
        events("ev").partitionSizeThresholds(1_000L, null).partitionRowsThresholds(0L, 7L).build();
    db.createTable(s);
    db.close();
    open(TalusOptions.builder(dir));
    TableSchema back = db.table("ev").schema();
    assertThat(back).isEqualTo(s);
    assertThat(back.partitionSizeWarnBytes()).isEqualTo(1_000L);
    assertThat(back.partitionSizeFailBytes()).isNull();
    assertThat(back.partitionRowsFail()).isEqualTo(7L);
  }

  @Test
  void invalidThresholdsAreRefused() {
    assertThatThrownBy(() -> events("ev").partitionRowsThresholds(10L, 5L).build())
        .hasMessageContaining("warn <= fail");
    assertThatThrownBy(() -> events("ev").partitionSizeThresholds(-1L, null).build())
        .hasMessageContaining("0 (off)");
    assertThatThrownBy(() -> TalusOptions.builder(dir).partitionRowsThresholds(10, 5).build())
        .hasMessageContaining("warn <= fail");
  }
}
