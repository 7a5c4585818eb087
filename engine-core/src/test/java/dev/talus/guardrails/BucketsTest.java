package dev.talus.guardrails;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.Buckets;
import dev.talus.Buckets.TimeBucket;
import dev.talus.ClusteringOrder;
import dev.talus.DataType;
import dev.talus.InvalidQueryException;
import dev.talus.ManualClock;
import dev.talus.ResultRow;
import dev.talus.ResultSet;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Time and hash buckets, and the seeds' "read a week = seven partitions in parallel". */
class BucketsTest {
  @TempDir Path dir;
  private static final Instant T = Instant.parse("2026-09-14T05:42:10Z");

  @Test
  void timeBucketValuesPerType() {
    assertThat(Buckets.timeBucket(TimeBucket.HOUR, T, DataType.TIMESTAMP))
        .isEqualTo(Instant.parse("2026-09-14T05:00:00Z"));
    assertThat(Buckets.timeBucket(TimeBucket.DAY, T, DataType.TIMESTAMP))
        .isEqualTo(Instant.parse("2026-09-14T00:00:00Z"));
    assertThat(Buckets.timeBucket(TimeBucket.MONTH, T, DataType.TIMESTAMP))
        .isEqualTo(Instant.parse("2026-09-01T00:00:00Z"));
    assertThat(Buckets.timeBucket(TimeBucket.DAY, T, DataType.DATE))
        .isEqualTo(LocalDate.parse("2026-09-14"));
    assertThat(Buckets.timeBucket(TimeBucket.MONTH, T, DataType.DATE))
        .isEqualTo(LocalDate.parse("2026-09-01"));
    assertThat(Buckets.timeBucket(TimeBucket.HOUR, T, DataType.TEXT)).isEqualTo("2026-09-14T05");
    assertThat(Buckets.timeBucket(TimeBucket.DAY, T, DataType.TEXT)).isEqualTo("2026-09-14");
    assertThat(Buckets.timeBucket(TimeBucket.MONTH, T, DataType.TEXT)).isEqualTo("2026-09");
    assertThatThrownBy(() -> Buckets.timeBucket(TimeBucket.HOUR, T, DataType.DATE))
        .isInstanceOf(InvalidQueryException.class);
    assertThatThrownBy(() -> Buckets.timeBucket(TimeBucket.DAY, T, DataType.INT))
        .isInstanceOf(InvalidQueryException.class);
  }

  @Test
  void rangeBoundaries() {
    Instant from = Instant.parse("2026-09-08T00:00:00Z");
    // a range ending exactly at a boundary does not include the bucket starting there
    assertThat(
            Buckets.timeBuckets(
                TimeBucket.DAY, from, Instant.parse("2026-09-15T00:00:00Z"), DataType.TEXT))
        .containsExactly(
            "2026-09-08",
            "2026-09-09",
            "2026-09-10",
            "2026-09-11",
            "2026-09-12",
            "2026-09-13",
            "2026-09-14");
    // one nanosecond more reaches into the next bucket
    assertThat(
            Buckets.timeBuckets(
                TimeBucket.DAY,
                from,
                Instant.parse("2026-09-15T00:00:00.000000001Z"),
                DataType.TEXT))
        .hasSize(8);
    // a start inside a bucket includes that bucket
    assertThat(
            Buckets.timeBuckets(
                TimeBucket.MONTH,
                Instant.parse("2026-11-30T23:00:00Z"),
                Instant.parse("2027-02-01T00:00:00Z"),
                DataType.DATE))
        .containsExactly(
            LocalDate.parse("2026-11-01"),
            LocalDate.parse("2026-12-01"),
            LocalDate.parse("2027-01-01"));
    assertThat(Buckets.timeBuckets(TimeBucket.HOUR, T, T, DataType.TIMESTAMP)).isEmpty();
    assertThatThrownBy(
            () -> Buckets.timeBuckets(TimeBucket.HOUR, T, T.minusSeconds(1), DataType.TIMESTAMP))
        .isInstanceOf(InvalidQueryException.class);
    assertThatThrownBy(
            () ->
                Buckets.timeBuckets(
                    TimeBucket.HOUR, T, T.plus(Duration.ofDays(60)), DataType.TIMESTAMP))
        .hasMessageContaining("more than 1000");
  }

  @Test
  void hashBucketsAreStableAndSpread() {
    int[] counts = new int[8];
    for (int i = 0; i < 8_000; i++) {
      int b = Buckets.hashBucket("user-" + i, DataType.TEXT, 8);
      assertThat(b).isBetween(0, 7);
      assertThat(Buckets.hashBucket("user-" + i, DataType.TEXT, 8)).isEqualTo(b);
      counts[b]++;
    }
    for (int c : counts) {
      assertThat(c).isBetween(800, 1200);
    }
    // pinned values: the function is part of the on-disk contract of users' tables
    assertThat(Buckets.hashBucket("user-1", DataType.TEXT, 16))
        .isEqualTo(Buckets.hashBucket("user-1", DataType.ASCII, 16));
    assertThat(Buckets.allHashBuckets(3)).containsExactly(0, 1, 2);
    assertThatThrownBy(() -> Buckets.hashBucket("x", DataType.TEXT, 0))
        .isInstanceOf(InvalidQueryException.class);
  }

  private static Table readings(TalusDb db) {
    // CREATE TABLE readings_by_sensor_day (sensor_id uuid, day date, ts timestamp, value double,
    //   PRIMARY KEY ((sensor_id, day), ts)) WITH CLUSTERING ORDER BY (ts DESC);
    return db.createTable(
        TableSchema.builder("readings_by_sensor_day")
            .partitionKey("sensor_id", DataType.UUID)
            .partitionKey("day", DataType.DATE)
            .clusteringColumn("ts", DataType.TIMESTAMP, ClusteringOrder.DESC)
            .column("value", DataType.DOUBLE)
            .build());
  }

  @Test
  void readAWeekAsSevenPartitionsMergedNewestFirst() {
    ManualClock clock = new ManualClock(Instant.parse("2026-09-20T00:00:00Z"));
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).clock(clock).build())) {
      Table t = readings(db);
      UUID sensor = new UUID(1, 2);
      UUID other = new UUID(3, 4);
      List<Instant> written = new ArrayList<>();
      Instant start = Instant.parse("2026-09-07T00:00:00Z");
      // every 5 hours for 12 days, each reading in its day's partition
      for (Instant ts = start; ts.isBefore(start.plus(Duration.ofDays(12))); ) {
        for (UUID s : List.of(sensor, other)) {
          t.insert()
              .value("sensor_id", s)
              .value("day", Buckets.timeBucket(TimeBucket.DAY, ts, DataType.DATE))
              .value("ts", ts)
              .value("value", (double) ts.getEpochSecond())
              .execute();
        }
        written.add(ts);
        ts = ts.plus(Duration.ofHours(5));
      }
      t.flush();
      Instant from = Instant.parse("2026-09-08T00:00:00Z");
      Instant to = Instant.parse("2026-09-15T00:00:00Z");
      List<Object> week = Buckets.timeBuckets(TimeBucket.DAY, from, to, DataType.DATE);
      assertThat(week).hasSize(7);
      List<Instant> expected =
          written.stream()
              .filter(x -> !x.isBefore(from) && x.isBefore(to))
              .sorted(Comparator.reverseOrder())
              .toList();

      List<ResultRow> all =
          Buckets.readAcross(
              t, "day", week, 1_000, q -> q.eq("sensor_id", sensor).ge("ts", from).lt("ts", to));
      assertThat(all.stream().map(r -> r.getInstant("ts")).toList()).isEqualTo(expected);
      assertThat(all).allMatch(r -> r.getUuid("sensor_id").equals(sensor));

      // limit: the newest 10 of the week, although the newest day alone holds fewer
      List<ResultRow> newest =
          Buckets.readAcross(t, "day", week, 10, q -> q.eq("sensor_id", sensor));
      assertThat(newest.stream().map(r -> r.getInstant("ts")).toList())
          .isEqualTo(expected.subList(0, 10));

      // oldest first when the query is reversed; bucket list order does not matter
      List<Object> shuffled = new ArrayList<>(week);
      java.util.Collections.reverse(shuffled);
      List<ResultRow> oldest =
          Buckets.readAcross(t, "day", shuffled, 4, q -> q.eq("sensor_id", sensor).reversed());
      assertThat(oldest.stream().map(r -> r.getInstant("ts")).toList())
          .isEqualTo(expected.stream().sorted().toList().subList(0, 4));

      assertThatThrownBy(
              () ->
                  Buckets.readAcross(
                      t, "day", week, 5, q -> q.eq("sensor_id", sensor).columns("value")))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("ts");
      assertThat(Buckets.readAcross(t, "day", List.of(), 5, q -> q.eq("sensor_id", sensor)))
          .isEmpty();
    }
  }

  @Test
  void perPartitionLimitReadsEachPartitionUpToN() {
    ManualClock clock = new ManualClock(Instant.parse("2026-09-20T00:00:00Z"));
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).clock(clock).build())) {
      Table t = readings(db);
      UUID sensor = new UUID(1, 2);
      LocalDate d1 = LocalDate.parse("2026-09-01");
      LocalDate d2 = LocalDate.parse("2026-09-02");
      for (LocalDate d : List.of(d1, d2)) {
        for (int h = 0; h < 5; h++) {
          t.insert()
              .value("sensor_id", sensor)
              .value("day", d)
              .value("ts", d.atStartOfDay().toInstant(java.time.ZoneOffset.UTC).plusSeconds(h))
              .value("value", 1.0)
              .execute();
        }
      }
      assertThat(
              t.select()
                  .eq("sensor_id", sensor)
                  .in("day", d1, d2)
                  .perPartitionLimit(2)
                  .execute()
                  .size())
          .isEqualTo(4);
      // with paging too (Cassandra's SelectLimitTest.testPerPartitionLimitWithStaticDataAndPaging)
      ResultSet first =
          t.select()
              .eq("sensor_id", sensor)
              .in("day", d1, d2)
              .perPartitionLimit(2)
              .pageSize(3)
              .execute();
      assertThat(first.size()).isEqualTo(3);
      ResultSet second =
          t.select()
              .eq("sensor_id", sensor)
              .in("day", d1, d2)
              .perPartitionLimit(2)
              .pageSize(3)
              .pagingState(first.pagingState().orElseThrow())
              .execute();
      assertThat(second.rows())
          .singleElement()
          .satisfies(r -> assertThat(r.get("day")).isEqualTo(d2));
      assertThat(second.pagingState()).isEmpty();
    }
  }
}
