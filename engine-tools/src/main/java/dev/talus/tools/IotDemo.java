package dev.talus.tools;

import dev.talus.ClusteringOrder;
import dev.talus.CompactionOptions;
import dev.talus.DataType;
import dev.talus.ManualClock;
import dev.talus.ResultRow;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TableStats;
import dev.talus.TalusDb;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The IoT example from the data-modeling guide: readings bucketed by sensor and day, a TTL, and
 * time-window compaction with daily windows, so whole days expire as whole SSTables.
 */
final class IotDemo {
  static final Duration TTL = Duration.ofDays(7);
  static final Duration GC_GRACE = Duration.ofHours(1);
  static final int DAYS = 5;
  static final int READINGS_PER_DAY = 96; // one every 15 minutes
  static final List<String> SENSORS = List.of("s-1", "s-2", "s-3");

  private final TalusDb db;
  private final ManualClock clock;
  private final PrintWriter out;

  IotDemo(TalusDb db, ManualClock clock, PrintWriter out) {
    this.db = db;
    this.clock = clock;
    this.out = out;
  }

  static TableSchema schema() {
    return TableSchema.builder("readings_by_sensor_day")
        .partitionKey("sensor_id", DataType.TEXT)
        .partitionKey("day", DataType.DATE) // the bucket: one partition per sensor and day
        .clusteringColumn("ts", DataType.TIMESTAMP, ClusteringOrder.DESC)
        .column("value", DataType.DOUBLE)
        .defaultTimeToLive(TTL)
        .gcGrace(GC_GRACE)
        .compaction(
            CompactionOptions.timeWindow().windowUnit(ChronoUnit.DAYS).windowSize(1).build())
        .build();
  }

  void run() {
    LocalDate first = LocalDate.of(2026, 10, 1);
    clock.set(first.atStartOfDay().toInstant(ZoneOffset.UTC));
    out.println();
    out.println(
        "Talus demo — the IoT example: readings_by_sensor_day, PRIMARY KEY ((sensor_id, day), ts"
            + " DESC),");
    out.println(
        "  TTL " + TTL.toDays() + " days, gc_grace 1 hour, time-window compaction (1-day windows)");
    Table t = db.createTableIfNotExists(schema());

    int total = DAYS * READINGS_PER_DAY * SENSORS.size();
    int written = 0;
    for (int d = 0; d < DAYS; d++) {
      LocalDate day = first.plusDays(d);
      for (int i = 0; i < READINGS_PER_DAY; i++) {
        Instant ts = day.atStartOfDay().toInstant(ZoneOffset.UTC).plus(Duration.ofMinutes(15L * i));
        clock.set(ts); // readings arrive in real time: each written in its own day's window
        for (String sensor : SENSORS) {
          t.insert()
              .value("sensor_id", sensor)
              .value("day", day)
              .value("ts", ts)
              .value("value", reading(sensor, ts))
              .execute();
          written++;
        }
      }
      t.flush(); // one SSTable per day: each TWCS window holds one day
      out.printf("  %s %s %4d/%d writes, flushed%n", day, bar(written, total), written, total);
    }

    LocalDate last = first.plusDays(DAYS - 1);
    out.println();
    out.println("Q1  latest 3 readings of s-1 on " + last + " (newest first):");
    for (ResultRow r : t.select().eq("sensor_id", "s-1").eq("day", last).limit(3).execute()) {
      out.printf(Locale.ROOT, "    %s  %.2f%n", r.getInstant("ts"), r.getDouble("value"));
    }
    List<LocalDate> week = new ArrayList<>();
    for (int d = 0; d < 7; d++) {
      week.add(first.plusDays(d));
    }
    out.println("Q2  a week of s-1 = seven partitions read in parallel with in(\"day\", …):");
    out.println("    " + perDay(t.select().eq("sensor_id", "s-1").in("day", week).execute()));

    out.println();
    out.println(
        "Deletes: partition (s-2, " + first.plusDays(1) + "), one hour of (s-3, " + last + ")");
    t.delete().eq("sensor_id", "s-2").eq("day", first.plusDays(1)).execute();
    Instant noon = last.atTime(12, 0).toInstant(ZoneOffset.UTC);
    t.delete()
        .eq("sensor_id", "s-3")
        .eq("day", last)
        .ge("ts", noon)
        .lt("ts", noon.plus(Duration.ofHours(1)))
        .execute();
    t.flush();
    out.println(
        "    s-2 week: " + perDay(t.select().eq("sensor_id", "s-2").in("day", week).execute()));
    out.println(
        "    s-3 on "
            + last
            + ": "
            + t.select().eq("sensor_id", "s-3").eq("day", last).execute().size()
            + " readings, "
            + t.lastReadTombstoneCount()
            + " tombstone(s) scanned by that read");

    TableStats before = t.stats();
    // the newest reading of day 3 expires at its write time + TTL; gc_grace later it may go
    Duration jump = Duration.ofDays(5).plus(GC_GRACE).plusMinutes(1);
    clock.advance(jump);
    out.println();
    out.println(
        "Clock +"
            + jump.toDaysPart()
            + "d "
            + jump.toHoursPart()
            + "h "
            + jump.toMinutesPart()
            + "m to "
            + clock.instant()
            + ": readings written before "
            + clock.instant().minus(TTL).minus(GC_GRACE)
            + " are past TTL + gc_grace");
    t.awaitCompactions(); // TWCS drops fully expired SSTables without reading them
    t.compact(); // and purges what gc_grace allows from the rest
    TableStats after = t.stats();
    out.println(
        "    s-1 week now: " + perDay(t.select().eq("sensor_id", "s-1").in("day", week).execute()));
    out.println();
    out.printf("%-34s %12s %12s%n", "Table.stats()", "before", "after");
    row("SSTables", before.sstableCount(), after.sstableCount());
    row("live disk", Fmt.bytes(before.liveDiskBytes()), Fmt.bytes(after.liveDiskBytes()));
    row(
        "estimated droppable tombstones",
        before.estimatedDroppableTombstones(),
        after.estimatedDroppableTombstones());
    row(
        "SSTables dropped whole (expired)",
        before.sstablesDroppedExpired(),
        after.sstablesDroppedExpired());
    row("tombstones purged", before.tombstonesPurged(), after.tombstonesPurged());
    row("compactions completed", before.completedCompactions(), after.completedCompactions());
  }

  private void row(String label, Object before, Object after) {
    out.printf("  %-32s %12s %12s%n", label, before, after);
  }

  /** {@code "10-01: 96, 10-02: 96, … (480 rows)"}: rows per day of a multi-day read. */
  private static String perDay(Iterable<ResultRow> rows) {
    Map<LocalDate, Integer> counts = new TreeMap<>();
    int n = 0;
    for (ResultRow r : rows) {
      counts.merge(r.getDate("day"), 1, Integer::sum);
      n++;
    }
    StringBuilder b = new StringBuilder();
    counts.forEach(
        (day, c) -> b.append(day.toString().substring(5)).append(": ").append(c).append(", "));
    return b.append(n).append(" readings").toString();
  }

  private static String bar(int done, int total) {
    int width = 20;
    int filled = (int) ((long) done * width / total);
    return "[" + "#".repeat(filled) + ".".repeat(width - filled) + "]";
  }

  private static double reading(String sensor, Instant ts) {
    double hour = ts.getEpochSecond() % 86_400 / 3600.0;
    return 20 + sensor.hashCode() % 3 + 4 * Math.sin(hour / 24 * 2 * Math.PI);
  }
}
