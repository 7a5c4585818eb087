package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README quick start, compiled and run so it never rots. Keep the two in step. */
class QuickStartTest {
  @TempDir Path tmp;

  @Test
  void readmeQuickStartWritesAndReadsLatestFirst() {
    Path data = tmp.resolve("data");
    Instant first;
    ResultSet latest;
    // --- README quick start begins (Path.of("data") there) ---
    try (TalusDb db = TalusDb.open(TalusOptions.builder(data).build())) {
      Table readings =
          db.createTableIfNotExists(
              TableSchema.builder("readings_by_sensor_day")
                  .partitionKey("sensor_id", DataType.TEXT)
                  .partitionKey("day", DataType.DATE) // the bucket
                  .clusteringColumn("ts", DataType.TIMESTAMP, ClusteringOrder.DESC)
                  .column("value", DataType.DOUBLE)
                  .build());
      readings
          .insert()
          .value("sensor_id", "s-1")
          .value("day", LocalDate.of(2026, 9, 1))
          .value("ts", Instant.now().truncatedTo(ChronoUnit.MILLIS))
          .value("value", 21.5)
          .execute();
      latest =
          readings
              .select()
              .eq("sensor_id", "s-1")
              .eq("day", LocalDate.of(2026, 9, 1))
              .limit(50)
              .execute(); // newest first
      // --- README quick start ends ---
      first = latest.rows().get(0).getInstant("ts");
      readings
          .insert()
          .value("sensor_id", "s-1")
          .value("day", LocalDate.of(2026, 9, 1))
          .value("ts", first.plusSeconds(1))
          .value("value", 22.5)
          .execute();
      latest =
          readings.select().eq("sensor_id", "s-1").eq("day", LocalDate.of(2026, 9, 1)).execute();
    }
    assertThat(latest.rows()).extracting(r -> r.getDouble("value")).containsExactly(22.5, 21.5);
  }
}
