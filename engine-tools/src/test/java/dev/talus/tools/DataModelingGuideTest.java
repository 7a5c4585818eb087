package dev.talus.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.ClusteringOrder;
import dev.talus.CompactionOptions;
import dev.talus.DataType;
import dev.talus.InvalidQueryException;
import dev.talus.InvalidSchemaException;
import dev.talus.ManualClock;
import dev.talus.ResultSet;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every example of docs/data-modeling.md, compiled and run, with the exact error messages the guide
 * quotes. If this test changes, change the guide.
 */
class DataModelingGuideTest {
  @TempDir Path dir;
  ManualClock clock = new ManualClock(Instant.parse("2026-09-01T09:00:00Z"));
  TalusDb db;

  @BeforeEach
  void open() {
    db = TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
  }

  @AfterEach
  void close() {
    db.close();
  }

  // --- 1. One table per query -------------------------------------------------------------

  static TableSchema messagesByRoom() {
    return TableSchema.builder("messages_by_room")
        .partitionKey("room_id", DataType.UUID) // every read names the room...
        .partitionKey("bucket", DataType.TEXT) // ...and the month: '2026-09'
        .clusteringColumn("sent_at", DataType.TIMESTAMP, ClusteringOrder.DESC) // newest first
        .clusteringColumn("message_id", DataType.TIMEUUID, ClusteringOrder.DESC) // uniqueness
        .column("sender", DataType.TEXT)
        .column("body", DataType.TEXT)
        .build();
  }

  static TableSchema messagesBySender() {
    return TableSchema.builder("messages_by_sender")
        .partitionKey("sender", DataType.TEXT)
        .partitionKey("bucket", DataType.TEXT)
        .clusteringColumn("sent_at", DataType.TIMESTAMP, ClusteringOrder.DESC)
        .clusteringColumn("message_id", DataType.TIMEUUID, ClusteringOrder.DESC)
        .column("room_id", DataType.UUID)
        .column("body", DataType.TEXT)
        .build();
  }

  @Test
  void oneTablePerQueryWrittenTogether() {
    Table byRoom = db.createTable(messagesByRoom());
    Table bySender = db.createTable(messagesBySender());
    UUID room = UUID.fromString("00000000-0000-4000-8000-000000000042");
    for (String[] m : new String[][] {{"alice", "morning"}, {"bob", "hi"}, {"alice", "lunch?"}}) {
      clock.advance(Duration.ofMinutes(5));
      UUID id = db.timeUuids().next();
      Instant at = clock.instant();
      db.batch() // both tables or neither, after a crash
          .add(
              byRoom
                  .insert()
                  .value("room_id", room)
                  .value("bucket", "2026-09")
                  .value("sent_at", at)
                  .value("message_id", id)
                  .value("sender", m[0])
                  .value("body", m[1]))
          .add(
              bySender
                  .insert()
                  .value("sender", m[0])
                  .value("bucket", "2026-09")
                  .value("sent_at", at)
                  .value("message_id", id)
                  .value("room_id", room)
                  .value("body", m[1]))
          .execute();
    }
    // Q1: the latest 2 messages of a room — the first rows of one partition
    ResultSet latest =
        byRoom.select().eq("room_id", room).eq("bucket", "2026-09").limit(2).execute();
    assertThat(latest.rows()).extracting(r -> r.getString("body")).containsExactly("lunch?", "hi");
    // Q2: what alice sent this month — another table, same data
    ResultSet alice = bySender.select().eq("sender", "alice").eq("bucket", "2026-09").execute();
    assertThat(alice.rows())
        .extracting(r -> r.getString("body"))
        .containsExactly("lunch?", "morning");
  }

  // --- 2. The rules and the errors ---------------------------------------------------------

  @Test
  void theRulesAndTheirErrors() {
    Table byRoom = db.createTable(messagesByRoom());
    UUID room = UUID.fromString("00000000-0000-4000-8000-000000000042");
    Instant from = Instant.parse("2026-09-01T09:00:00Z");
    UUID someId = db.timeUuids().next();

    // Rule 1: the full partition key
    assertThatThrownBy(() -> byRoom.select().eq("room_id", room).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessage(
            "query on messages_by_room does not restrict partition key column(s) [bucket]. Rule:"
                + " every read must give the full partition key [room_id, bucket], because a"
                + " partition is found by the hash of its whole key. Fix: add eq(...) for"
                + " [bucket], or create a table partitioned by the columns this query knows"
                + " (query-first design: one table per query)");

    // Rule 2: clustering columns left to right, a range only on the last one restricted
    assertThatThrownBy(
            () ->
                byRoom
                    .select()
                    .eq("room_id", room)
                    .eq("bucket", "2026-09")
                    .eq("message_id", someId)
                    .execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessage(
            "query on messages_by_room restricts clustering column message_id but skips sent_at,"
                + " which precedes it. Rule: clustering columns are restricted left to right,"
                + " like a phone book sorted by surname then first name. Fix: restrict sent_at,"
                + " create a table whose clustering order starts with message_id for this"
                + " query, or, if the named partitions are small, opt in with allowFiltering()"
                + " to filter their rows");
    assertThatThrownBy(
            () ->
                byRoom
                    .select()
                    .eq("room_id", room)
                    .eq("bucket", "2026-09")
                    .gt("sent_at", from)
                    .eq("message_id", someId)
                    .execute())
        .hasMessage(
            "query on messages_by_room restricts clustering column message_id after a range on"
                + " sent_at. Rule: only the last restricted clustering column may have a range."
                + " Fix: restrict sent_at by equality, create a table whose clustering order"
                + " starts with message_id for this query, or, if the named partitions are small,"
                + " opt in with allowFiltering() to filter their rows");
    byRoom.select().eq("room_id", room).eq("bucket", "2026-09").gt("sent_at", from).execute();

    // Rule 3: clustering order or its exact reverse — no sort step
    assertThatThrownBy(
            () ->
                byRoom
                    .select()
                    .eq("room_id", room)
                    .eq("bucket", "2026-09")
                    .orderBy("message_id", ClusteringOrder.ASC)
                    .execute())
        .hasMessage(
            "orderBy must list clustering columns in their declared order [sent_at, message_id],"
                + " leaving out only columns restricted by equality; message_id is out of place. Rule: rows come back in clustering order or its"
                + " exact reverse; there is no sort step. Fix: order by a left-to-right prefix of"
                + " [sent_at, message_id], or create a table clustered in the order this query"
                + " needs");
    byRoom
        .select()
        .eq("room_id", room)
        .eq("bucket", "2026-09")
        .reversed()
        .execute(); // oldest first

    // Rule 4: no filtering on regular columns unless asked, and then only inside named partitions
    assertThatThrownBy(
            () ->
                byRoom
                    .select()
                    .eq("room_id", room)
                    .eq("bucket", "2026-09")
                    .eq("sender", "alice")
                    .execute())
        .hasMessage(
            "query on messages_by_room restricts regular column sender. Rule: only primary key"
                + " columns locate rows; a condition on a regular column means reading and"
                + " discarding rows. Fix: create a table keyed by sender for this query (the"
                + " fastest read; one more write per row), index sender with createIndex (CQL:"
                + " CREATE INDEX ... USING 'sai'; a read then visits each SSTable's index), or,"
                + " if the named partitions are small, opt in with allowFiltering()");
    byRoom
        .select()
        .eq("room_id", room)
        .eq("bucket", "2026-09")
        .eq("sender", "alice")
        .allowFiltering()
        .execute();

    // and the schema rules
    assertThatThrownBy(
            () ->
                TableSchema.builder("readings").clusteringColumn("ts", DataType.TIMESTAMP).build())
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessage(
            "table readings has no partition key: add at least one partitionKey(...) column");
    assertThatThrownBy(() -> TableSchema.builder("t").partitionKey("id", DataType.DURATION).build())
        .hasMessage(
            "column id of type duration cannot be part of the primary key of t (it has no total"
                + " order); make it a regular column");
  }

  // --- 3. Bucketing --------------------------------------------------------------------------

  static TableSchema readingsBySensorDay() {
    return TableSchema.builder("readings_by_sensor_day")
        .partitionKey("sensor_id", DataType.TEXT)
        .partitionKey("day", DataType.DATE) // time bucket: at most 86,400 rows at 1/s
        .clusteringColumn("ts", DataType.TIMESTAMP, ClusteringOrder.DESC)
        .column("value", DataType.DOUBLE)
        .build();
  }

  @Test
  void timeBucketsReadAWeekAsSevenPartitions() {
    Table readings = db.createTable(readingsBySensorDay());
    Instant start = Instant.parse("2026-09-01T00:00:00Z");
    for (int hour = 0; hour < 24 * 7; hour += 6) {
      Instant ts = start.plus(Duration.ofHours(hour));
      readings
          .insert()
          .value("sensor_id", "s-1")
          .value("day", LocalDate.ofInstant(ts, ZoneOffset.UTC)) // the bucket of this write
          .value("ts", ts)
          .value("value", 20.0 + hour % 24)
          .execute();
    }
    // the buckets of a time range: one day each
    List<LocalDate> week = new ArrayList<>();
    for (LocalDate d = LocalDate.of(2026, 9, 1);
        d.isBefore(LocalDate.of(2026, 9, 8));
        d = d.plusDays(1)) {
      week.add(d);
    }
    // seven partitions, read in parallel, returned in partition key order (here: day order)
    ResultSet r = readings.select().eq("sensor_id", "s-1").in("day", week).execute();
    assertThat(r.size()).isEqualTo(28);
    assertThat(r.rows().get(0).getDate("day")).isEqualTo(LocalDate.of(2026, 9, 1));
    assertThat(r.rows().get(0).getInstant("ts")).isEqualTo(Instant.parse("2026-09-01T18:00:00Z"));
  }

  static TableSchema eventsByTenant() {
    return TableSchema.builder("events_by_tenant")
        .partitionKey("tenant", DataType.TEXT)
        .partitionKey(
            "shard", DataType.INT) // hash bucket: spreads one big tenant over N partitions
        .clusteringColumn("event_id", DataType.TIMEUUID, ClusteringOrder.DESC)
        .column("payload", DataType.TEXT)
        .build();
  }

  static final int SHARDS = 8;

  static int shard(UUID eventId) {
    return Math.floorMod(eventId.hashCode(), SHARDS); // stable: the same id, the same shard
  }

  @Test
  void hashBucketsSpreadAHotKeyAndAreReadTogether() {
    Table events = db.createTable(eventsByTenant());
    for (int i = 0; i < 100; i++) {
      UUID id = db.timeUuids().next();
      events
          .insert()
          .value("tenant", "acme")
          .value("shard", shard(id))
          .value("event_id", id)
          .value("payload", "e" + i)
          .execute();
    }
    List<Integer> all = IntStream.range(0, SHARDS).boxed().toList();
    ResultSet r = events.select().eq("tenant", "acme").in("shard", all).execute();
    assertThat(r.size()).isEqualTo(100);
    // each shard's rows are in clustering order; add .orderBy("event_id", DESC) for one global
    // order
    assertThat(r.rows().stream().map(x -> x.getInt("shard")).distinct().count()).isGreaterThan(1);
  }

  // --- 4. TTL vs deletes ---------------------------------------------------------------------

  @Test
  void deletesLeaveTombstonesThatReadsMustScan() {
    Table queue =
        db.createTable(
            TableSchema.builder("jobs")
                .partitionKey("queue", DataType.TEXT)
                .clusteringColumn("seq", DataType.INT)
                .column("payload", DataType.TEXT)
                .build());
    for (int i = 0; i < 1000; i++) {
      queue.insert().value("queue", "q").value("seq", i).value("payload", "job " + i).execute();
    }
    for (int i = 0; i < 990; i++) { // "consume" the first 990 jobs
      queue.delete().eq("queue", "q").eq("seq", i).execute();
    }
    assertThat(queue.select().eq("queue", "q").limit(1).execute().size()).isEqualTo(1);
    assertThat(queue.lastReadTombstoneCount()).isEqualTo(990); // to find one live row
  }

  @Test
  void ttlAndTimeWindowsDropWholeFiles() {
    Table readings =
        db.createTable(
            readingsBySensorDay().toBuilder()
                .defaultTimeToLive(Duration.ofDays(7)) // every write expires after a week
                .gcGrace(Duration.ofHours(1))
                .compaction(
                    CompactionOptions.timeWindow()
                        .windowUnit(ChronoUnit.DAYS)
                        .windowSize(1)
                        .build())
                .build());
    LocalDate first = LocalDate.of(2026, 9, 1);
    for (int d = 0; d < 3; d++) {
      LocalDate day = first.plusDays(d);
      for (int h = 0; h < 24; h++) {
        Instant ts = day.atStartOfDay().toInstant(ZoneOffset.UTC).plus(Duration.ofHours(h));
        clock.set(ts);
        readings
            .insert()
            .value("sensor_id", "s-1")
            .value("day", day)
            .value("ts", ts)
            .value("value", 1.0)
            .execute();
      }
      readings.flush(); // one SSTable per day
    }
    assertThat(readings.sstables()).hasSize(3);
    clock.advance(Duration.ofDays(7).plusHours(2)); // past TTL + gc_grace of every row
    readings.awaitCompactions();
    assertThat(readings.sstables()).isEmpty(); // dropped whole, never read or rewritten
    assertThat(readings.stats().sstablesDroppedExpired()).isEqualTo(3);
    assertThat(readings.stats().tombstonesPurged()).isZero();
  }

  // --- 5. Choosing a compaction strategy -----------------------------------------------------

  @Test
  void choosingACompactionStrategy() {
    // write-heavy, rarely read, few overwrites: size-tiered (the default)
    TableSchema log =
        TableSchema.builder("audit_log")
            .partitionKey("day", DataType.DATE)
            .clusteringColumn("id", DataType.TIMEUUID)
            .column("line", DataType.TEXT)
            .compaction(CompactionOptions.sizeTiered().minThreshold(4).build())
            .build();
    // read-heavy, rows updated often: leveled keeps a partition in few SSTables
    TableSchema profiles =
        TableSchema.builder("profiles")
            .partitionKey("user_id", DataType.UUID)
            .column("name", DataType.TEXT)
            .column("email", DataType.TEXT)
            .compaction(CompactionOptions.leveled().sstableSizeBytes(160L << 20).build())
            .build();
    // time series with a TTL, written in time order: time-window
    TableSchema metrics =
        readingsBySensorDay()
            .withCompaction(
                CompactionOptions.timeWindow().windowUnit(ChronoUnit.HOURS).windowSize(6).build());
    db.createTable(log);
    db.createTable(profiles);
    Table m = db.createTable(metrics);
    // a strategy can change on a live table; the new one takes over the existing SSTables
    m.setCompaction(CompactionOptions.timeWindow().windowUnit(ChronoUnit.DAYS).build());
    assertThat(m.schema().compaction().windowUnit()).isEqualTo(ChronoUnit.DAYS);

    assertThatThrownBy(() -> CompactionOptions.sizeTiered().windowSize(2).build())
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessage(
            "compaction options [compaction_window_size] do not apply to the size_tiered"
                + " strategy");
  }
}
