package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README quick start, compiled and run so it never rots. */
class QuickStartTest {
  @TempDir Path dir;

  @Test
  void readmeQuickStartWritesAndReadsLatestFirst() {
    // --- README quick start begins ---
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).build())) {
      Table readings =
          db.createTableIfNotExists(
              TableSchema.builder("readings_by_sensor_day")
                  .partitionKey("sensor_id", DataType.TEXT)
                  .partitionKey("day", DataType.DATE)
                  .clusteringColumn("ts", DataType.TIMESTAMP, ClusteringOrder.DESC)
                  .column("value", DataType.DOUBLE)
                  .build());
      Instant t0 = Instant.parse("2026-09-01T10:00:00Z");
      for (int i = 0; i < 3; i++) {
        readings
            .insert()
            .value("sensor_id", "s-1")
            .value("day", java.time.LocalDate.of(2026, 9, 1))
            .value("ts", t0.plusSeconds(i))
            .value("value", 20.0 + i)
            .execute();
      }
      ResultSet latest =
          readings
              .select()
              .eq("sensor_id", "s-1")
              .eq("day", java.time.LocalDate.of(2026, 9, 1))
              .limit(2)
              .execute();
      // --- README quick start ends ---
      List<Double> values = latest.rows().stream().map(r -> r.getDouble("value")).toList();
      assertThat(values).containsExactly(22.0, 21.0);
    }
  }
}
