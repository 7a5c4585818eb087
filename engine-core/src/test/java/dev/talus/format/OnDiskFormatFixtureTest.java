package dev.talus.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.DurationValue;
import dev.talus.ManualClock;
import dev.talus.ResultRow;
import dev.talus.Table;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data directory written by the code of commit 024cd05 (SSTables under each compaction strategy,
 * every data type, row, range, partition and cell deletions, TTLs, a batch, and records only in the
 * commit log) opens with this code and reads back exactly what the old code read back (the
 * checked-in {@code expected.txt}), plus facts checked by hand. Reads use a manual clock, so TTL
 * results never change with the date the test runs on. The SSTables the open itself writes (the
 * flush of what it replays from the commit log) are in this build's format, so their sizes in
 * {@code expected.txt} are this build's: 82 bytes more since format 3's TOC has the manifest's
 * witness lines, and from format 4 12 bytes for the row filter's shape plus its words (whole
 * 64-byte blocks; none for a table without clustering columns).
 */
class OnDiskFormatFixtureTest {
  @TempDir Path dir;

  @BeforeEach
  void copyFixture() throws IOException, URISyntaxException {
    Path source =
        Path.of(OnDiskFormatFixtureTest.class.getResource(FormatFixture.RESOURCE).toURI());
    FormatFixtureWriter.copyWithoutLock(source, dir);
  }

  private TalusDb open() {
    return TalusDb.open(
        TalusOptions.builder(dir)
            .clock(new ManualClock(FormatFixture.READ_AT))
            .backgroundCompaction(false)
            .build());
  }

  private static String expected() throws IOException {
    try (InputStream in =
        OnDiskFormatFixtureTest.class.getResourceAsStream(FormatFixture.EXPECTED)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void theFixtureHoldsNoLockAndUnflushedCommitLogRecords() throws IOException {
    assertThat(dir.resolve("LOCK")).doesNotExist();
    assertThat(dir.resolve("schema.db")).exists();
    assertThat(dir.resolve("commitlog/CommitLog-1-1.log")).exists();
    assertThat(Files.list(dir.resolve("tables/queue-5")).map(p -> p.getFileName().toString()))
        .containsExactly("MANIFEST.db"); // the queue table lives in the commit log alone
  }

  @Test
  void readsBackExactlyWhatTheOldCodeReadBack() throws IOException {
    try (TalusDb db = open()) {
      assertThat(FormatFixture.canonical(db)).isEqualTo(expected());
    }
  }

  @Test
  void whatOpeningTheFixtureWroteReadsBackTheSameAfterAReopen() throws IOException {
    try (TalusDb db = open()) {
      for (Table t : db.tables()) {
        assertThat(t.verify()).isEqualTo(t.sstables().size());
      }
    }
    try (TalusDb db = open()) {
      assertThat(FormatFixture.canonical(db)).isEqualTo(expected());
    }
  }

  private static List<ResultRow> rows(Table t, Object... pk) {
    var s = t.select();
    for (int i = 0; i < pk.length; i++) {
      s.eq(t.schema().partitionKey().get(i).name(), pk[i]);
    }
    return s.execute().rows();
  }

  @Test
  void eventsKeepTheirDeletionsTtlsAndDescendingOrder() {
    LocalDate d0 = FormatFixture.DAYS.get(0);
    LocalDate d1 = FormatFixture.DAYS.get(1);
    Instant s0 = Instant.parse("2026-02-28T00:00:00Z");
    Instant s1 = Instant.parse("2026-03-01T00:00:00Z");
    try (TalusDb db = open()) {
      assertThat(db.tables().stream().map(Table::name))
          .containsExactly("events", "kv", "metrics", "queue", "readings");
      Table events = db.table("events");
      // 12 rows written; one deleted, one with a 2 h TTL expired
      List<ResultRow> acme = rows(events, "acme", d0);
      assertThat(acme).hasSize(10);
      assertThat(acme.stream().map(r -> r.get("ts", Instant.class)))
          .isSortedAccordingTo((a, b) -> b.compareTo(a))
          .doesNotContain(s0.plusSeconds(1), s0.plusSeconds(1802));
      assertThat(events.select().eq("tenant", "acme").eq("day", d0).reversed().execute().rows())
          .first()
          .satisfies(r -> assertThat(r.get("ts")).isEqualTo(s0));
      // the range deletion took 600 s <= ts < 1200 s
      assertThat(rows(events, "globex", d1).stream().map(r -> r.get("ts", Instant.class)))
          .hasSize(8)
          .noneMatch(ts -> !ts.isBefore(s1.plusSeconds(600)) && ts.isBefore(s1.plusSeconds(1200)));
      // the partition deletion, then one newer row
      assertThat(rows(events, "initech", d0))
          .singleElement()
          .satisfies(r -> assertThat(r.get("kind")).isEqualTo("after-delete"));
      // deleted columns, a 10 h TTL half gone, an update without a row marker
      ResultRow cells =
          events
              .select()
              .eq("tenant", "umbrella")
              .eq("day", d1)
              .eq("ts", s1.plusSeconds(1200))
              .eq("seq", 0)
              .one()
              .orElseThrow();
      assertThat(cells.get("payload")).isNull();
      assertThat(cells.get("amount")).isNull();
      assertThat(cells.get("kind")).isEqualTo("click");
      assertThat(cells.ttl("kind")).isBetween(1, 36_000 - 6 * 3600);
      ResultRow updated =
          events
              .select()
              .eq("tenant", "umbrella")
              .eq("day", d1)
              .eq("seq", 9)
              .eq("ts", s1.plusSeconds(99))
              .one()
              .orElseThrow();
      assertThat(updated.get("kind")).isEqualTo("updated-only");
      assertThat(updated.get("flag")).isNull();
      ResultRow explicit =
          events
              .select()
              .eq("tenant", "acme")
              .eq("day", d1)
              .eq("ts", s1.plusSeconds(7))
              .eq("seq", 7)
              .one()
              .orElseThrow();
      assertThat(explicit.writeTime("kind")).isEqualTo(1_700_000_000_000_000L);
      // only in the commit log: a TTL'd insert and a row deletion
      assertThat(rows(events, "globex", d0).stream().map(r -> r.get("kind"))).contains("unflushed");
      assertThat(rows(events, "acme", d1).stream().map(r -> r.get("ts", Instant.class)))
          .doesNotContain(s1.plusSeconds(601));
    }
  }

  @Test
  void metricsReadingsKvAndQueueReadBackTheirValues() throws IOException {
    try (TalusDb db = open()) {
      Table metrics = db.table("metrics");
      List<ResultRow> db2 = rows(metrics, "db-2");
      // metric ASC, then at DESC; the range deletion of flush 3 took every earlier mem row
      assertThat(db2.stream().map(r -> r.get("metric") + "/" + (9999 - r.get("at", Long.class))))
          .isSorted()
          .hasSize(14 + 6);
      assertThat(db2.stream().filter(r -> r.get("metric").equals("mem")))
          .allMatch(r -> r.get("at", Long.class) >= 4000);
      assertThat(rows(metrics, "db-1").stream().filter(r -> r.get("metric").equals("cpu")))
          .noneMatch(r -> r.get("at", Long.class) == 0L); // the batch deleted it
      assertThat(
              metrics
                  .select()
                  .eq("host", "web-1")
                  .eq("metric", "mem")
                  .eq("at", 6001L)
                  .one()
                  .orElseThrow()
                  .get("value"))
          .isEqualTo(-1.0);
      assertThat(metrics.sstables()).hasSize(4); // compacted, two flushes, the replayed log

      Table readings = db.table("readings");
      // default TTL 5 h: only writes after 01:30 are alive at 06:30, plus the 8 h TTL ones
      for (String sensor : FormatFixture.SENSORS) {
        for (ResultRow r : rows(readings, sensor, 0)) {
          Instant ts = r.get("ts", Instant.class);
          assertThat(ts.isAfter(Instant.parse("2026-03-01T01:30:00Z")) || sensor.equals("s-3"))
              .as("%s %s", sensor, r)
              .isTrue();
        }
      }
      assertThat(rows(readings, "s-1", 1)).isEmpty(); // deleted after the last flush
      assertThat(rows(readings, "s-3", 0).stream().filter(r -> r.ttl("value") > 4 * 3600))
          .isNotEmpty();

      Table kv = db.table("kv");
      assertThat(rows(kv, 3L)).isEmpty();
      assertThat(rows(kv, 1L).get(0).get("v")).isEqualTo("batched");
      ResultRow two = rows(kv, 2L).get(0);
      assertThat(two.get("v")).isEqualTo("changed");
      assertThat(two.get("n")).isNull();
      ResultRow four = rows(kv, 4L).get(0);
      assertThat(four.get("n")).isEqualTo(BigInteger.TEN.pow(4).negate());
      assertThat(four.get("t")).isEqualTo(LocalTime.of(4, 30, 15, 123_000_000));
      assertThat(four.get("d")).isEqualTo(DurationValue.of(4, 2, 3_000_000_000L));
      assertThat(four.get("ip")).isEqualTo(InetAddress.getByAddress(new byte[] {10, 0, 0, 4}));
      assertThat(four.get("tiny")).isEqualTo((byte) -4);
      assertThat(four.get("small")).isEqualTo((short) 400);
      assertThat(four.get("f")).isEqualTo(4 / 3f);
      assertThat(four.get("on")).isEqualTo(LocalDate.of(2004, 1, 1));
      assertThat(rows(kv, 8L)).hasSize(1);

      Table queue = db.table("queue");
      assertThat(rows(queue, "q-a").stream().map(r -> r.get("item")))
          .containsExactly("q-a#1", "q-a#2", "q-a#3", "batched");
      assertThat(rows(queue, "q-b").stream().map(r -> r.get("item")))
          .containsExactly("q-b#2", "q-b#3");
    }
  }
}
