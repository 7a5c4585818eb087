package dev.talus.tools;

import dev.talus.DataType;
import dev.talus.ManualClock;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;

/** A small database written by the tests: readings and a queue with every kind of deletion. */
final class Fixtures {
  static final LocalDate DAY = LocalDate.of(2026, 9, 1);
  static final Instant T0 = Instant.parse("2026-09-01T00:00:00Z");

  private Fixtures() {}

  static TalusDb open(Path dir, ManualClock clock) {
    return TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
  }

  /** Writes two tables, flushed into SSTables, and closes the database. */
  static void write(Path dir) {
    ManualClock clock = new ManualClock(T0);
    try (TalusDb db = open(dir, clock)) {
      Table readings =
          db.createTable(
              TableSchema.builder("readings")
                  .partitionKey("sensor_id", DataType.TEXT)
                  .partitionKey("day", DataType.DATE)
                  .clusteringColumn("ts", DataType.TIMESTAMP)
                  .column("value", DataType.DOUBLE)
                  .build());
      for (int i = 0; i < 50; i++) {
        readings
            .insert()
            .value("sensor_id", "s-1")
            .value("day", DAY)
            .value("ts", T0.plusSeconds(60L * i))
            .value("value", 20.0 + i)
            .execute();
      }
      readings
          .insert()
          .value("sensor_id", "s-2")
          .value("day", DAY)
          .value("ts", T0)
          .value("value", 1.5)
          .ttl(Duration.ofHours(1))
          .execute();
      readings.flush();
      clock.advance(Duration.ofMinutes(1));
      readings.delete().eq("sensor_id", "s-1").eq("day", DAY).eq("ts", T0).execute();
      readings
          .delete()
          .eq("sensor_id", "s-1")
          .eq("day", DAY)
          .ge("ts", T0.plusSeconds(600))
          .lt("ts", T0.plusSeconds(1200))
          .execute();
      readings
          .update()
          .where("sensor_id", "s-1")
          .where("day", DAY)
          .where("ts", T0.plusSeconds(60))
          .set("value", null)
          .execute();
      readings.delete().eq("sensor_id", "s-3").eq("day", DAY).execute();
      readings.flush();

      db.createTable(
          TableSchema.builder("queue")
              .partitionKey("q", DataType.TEXT)
              .clusteringColumn("seq", DataType.INT)
              .column("payload", DataType.TEXT)
              .build());
    }
  }
}
