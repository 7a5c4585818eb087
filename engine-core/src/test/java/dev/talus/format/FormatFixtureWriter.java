package dev.talus.format;

import dev.talus.DurationValue;
import dev.talus.ManualClock;
import dev.talus.Table;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Writes the on-disk format fixture. It was run once, against the code of commit 024cd05, and its
 * output is checked in under {@code src/test/resources/fixtures/format-024cd05}; running it again
 * with later code would defeat its purpose (the fixture proves that a directory written by the old
 * code opens unchanged). Run it only to add a fixture for a new format version, into a new folder:
 *
 * <pre>
 * java -cp engine-core/target/test-classes:$(cat cp.txt) dev.talus.format.FormatFixtureWriter OUT
 * </pre>
 *
 * It writes {@code OUT/data} (the data directory, without its LOCK file) and {@code
 * OUT/expected.txt} (what a read at {@link FormatFixture#READ_AT} returns, by this code).
 */
public final class FormatFixtureWriter {
  private FormatFixtureWriter() {}

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args[0]);
    Path work = Files.createTempDirectory("talus-fixture");
    Path data = work.resolve("data");
    write(data);
    Path target = out.resolve("data");
    copyWithoutLock(data, target);
    Path readCopy = work.resolve("read");
    copyWithoutLock(target, readCopy);
    try (TalusDb db =
        TalusDb.open(
            TalusOptions.builder(readCopy)
                .clock(new ManualClock(FormatFixture.READ_AT))
                .backgroundCompaction(false)
                .build())) {
      Files.writeString(
          out.resolve("expected.txt"), FormatFixture.canonical(db), StandardCharsets.UTF_8);
    }
  }

  static void copyWithoutLock(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path rel = from.relativize(p);
        Path dst = to.resolve(rel.toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(dst);
        } else if (!rel.toString().equals("LOCK")) {
          Files.copy(p, dst);
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  private static UUID uuid(String name) {
    return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8));
  }

  static void write(Path dir) throws IOException {
    ManualClock clock = new ManualClock(FormatFixture.WRITE_START);
    try (TalusDb db =
        TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build())) {
      Table events = db.createTable(FormatFixture.events());
      Table metrics = db.createTable(FormatFixture.metrics());
      Table readings = db.createTable(FormatFixture.readings());
      Table kv = db.createTable(FormatFixture.kv());
      Table queue = db.createTable(FormatFixture.queue());

      // events (size-tiered): four flushed rounds, a major compaction, a round of deletions
      for (int round = 0; round < 4; round++) {
        for (String tenant : FormatFixture.TENANTS) {
          for (LocalDate day : FormatFixture.DAYS) {
            for (int seq = 0; seq < 3; seq++) {
              Instant ts =
                  day.atStartOfDay()
                      .toInstant(java.time.ZoneOffset.UTC)
                      .plusSeconds(600L * round + seq);
              var insert =
                  events
                      .insert()
                      .value("tenant", tenant)
                      .value("day", day)
                      .value("ts", ts)
                      .value("seq", seq)
                      .value("kind", round % 2 == 0 ? "click" : "view")
                      .value("amount", new BigDecimal("12.5").multiply(BigDecimal.valueOf(round)))
                      .value("flag", seq % 2 == 0);
              if (seq == 0) {
                insert.value("id", uuid(tenant + day + round));
              }
              if (seq != 1) {
                insert.value("payload", new byte[] {(byte) round, (byte) seq, (byte) 0xFF});
              }
              if (round == 3 && seq == 2) {
                insert.ttl(Duration.ofHours(2)); // gone by READ_AT
              }
              if (round == 2 && seq == 0) {
                insert.ttl(Duration.ofHours(10)); // still there at READ_AT
              }
              insert.execute();
              clock.advance(Duration.ofSeconds(1));
            }
          }
        }
        events.flush();
        clock.advance(Duration.ofMinutes(1));
      }
      events.compact();
      LocalDate d0 = FormatFixture.DAYS.get(0);
      LocalDate d1 = FormatFixture.DAYS.get(1);
      Instant d0start = d0.atStartOfDay().toInstant(java.time.ZoneOffset.UTC);
      Instant d1start = d1.atStartOfDay().toInstant(java.time.ZoneOffset.UTC);
      // a row deletion
      events
          .delete()
          .eq("tenant", "acme")
          .eq("day", d0)
          .eq("ts", d0start.plusSeconds(1))
          .eq("seq", 1)
          .execute();
      // a range deletion over the DESC column: 600 s <= ts < 1200 s
      events
          .delete()
          .eq("tenant", "globex")
          .eq("day", d1)
          .ge("ts", d1start.plusSeconds(600))
          .lt("ts", d1start.plusSeconds(1200))
          .execute();
      // a partition deletion, then a newer row in the same partition
      events.delete().eq("tenant", "initech").eq("day", d0).execute();
      clock.advance(Duration.ofSeconds(1));
      events
          .insert()
          .value("tenant", "initech")
          .value("day", d0)
          .value("ts", d0start.plusSeconds(5000))
          .value("seq", 0)
          .value("kind", "after-delete")
          .execute();
      // column deletions and an update without a row marker
      events
          .delete()
          .columns("payload", "amount")
          .eq("tenant", "umbrella")
          .eq("day", d1)
          .eq("ts", d1start.plusSeconds(1200))
          .eq("seq", 0)
          .execute();
      events
          .update()
          .where("tenant", "umbrella")
          .where("day", d1)
          .where("ts", d1start.plusSeconds(99))
          .where("seq", 9)
          .set("kind", "updated-only")
          .set("flag", null)
          .execute();
      // an explicit timestamp
      events
          .insert()
          .value("tenant", "acme")
          .value("day", d1)
          .value("ts", d1start.plusSeconds(7))
          .value("seq", 7)
          .value("kind", "explicit")
          .timestamp(1_700_000_000_000_000L)
          .execute();
      events.flush();
      clock.advance(Duration.ofMinutes(1));

      // metrics (leveled): five flushes, a major compaction, two more flushes
      String[] names = {"cpu", "mem"};
      for (int flush = 0; flush < 7; flush++) {
        for (String host : FormatFixture.HOSTS) {
          for (String m : names) {
            for (int i = 0; i < 2; i++) {
              metrics
                  .insert()
                  .value("host", host)
                  .value("metric", m)
                  .value("at", 1000L * flush + i)
                  .value("value", flush * 1.5 + i / 4.0)
                  .value("count", flush * 10 + i)
                  .value("unit", m.equals("cpu") ? "%" : "bytes")
                  .execute();
              clock.advance(Duration.ofMillis(250));
            }
          }
        }
        if (flush == 3) {
          metrics.delete().eq("host", "db-2").eq("metric", "mem").execute(); // a range deletion
        }
        metrics.flush();
        if (flush == 4) {
          metrics.compact();
        }
      }
      clock.advance(Duration.ofMinutes(1));

      // readings (time-window, hourly, default TTL 5 h): one flush per hour, then a compaction
      for (int hour = 0; hour < 4; hour++) {
        for (String sensor : FormatFixture.SENSORS) {
          for (int bucket : FormatFixture.BUCKETS) {
            for (int i = 0; i < 2; i++) {
              var insert =
                  readings
                      .insert()
                      .value("sensor", sensor)
                      .value("bucket", bucket)
                      .value("ts", clock.instant())
                      .value("value", (float) (hour * 10 + i + bucket / 2.0))
                      .value("note", i == 0 ? "h" + hour : null);
              if (sensor.equals("s-3") && i == 1) {
                insert.ttl(Duration.ofHours(8)); // outlives the table default
              }
              insert.execute();
              clock.advance(Duration.ofSeconds(30));
            }
          }
          if (hour == 3) {
            readings.flush(); // three SSTables in one window, for the compaction below
          }
        }
        readings.flush();
        clock.set(FormatFixture.WRITE_START.plus(Duration.ofHours(hour + 1)));
      }
      readings.flush();
      readings.runNextCompaction();

      // kv: every other type; five keys flushed, the rest only in the commit log
      for (long k : FormatFixture.KEYS) {
        if (k == 6) {
          kv.flush();
        }
        kv.insert()
            .value("k", k)
            .value("v", "value-" + k)
            .value("n", BigInteger.TEN.pow((int) k).negate())
            .value("t", LocalTime.of((int) k, 30, 15, 123_000_000))
            .value("d", DurationValue.of((int) k, 2, 3_000_000_000L))
            .value("ip", InetAddress.getByAddress(new byte[] {10, 0, 0, (byte) k}))
            .value("tu", db.timeUuids().next())
            .value("tiny", (byte) -k)
            .value("small", (short) (k * 100))
            .value("f", k / 3f)
            .value("on", LocalDate.of(2000 + (int) k, 1, 1))
            .execute();
        clock.advance(Duration.ofSeconds(1));
      }

      // unflushed commit-log records in every table
      kv.update().where("k", 2L).set("v", "changed").set("n", null).execute();
      kv.delete().eq("k", 3L).execute();
      events
          .insert()
          .value("tenant", "globex")
          .value("day", d0)
          .value("ts", d0start.plusSeconds(4242))
          .value("seq", 1)
          .value("kind", "unflushed")
          .ttl(Duration.ofHours(3))
          .execute();
      events
          .delete()
          .eq("tenant", "acme")
          .eq("day", d1)
          .eq("ts", d1start.plusSeconds(601))
          .eq("seq", 1)
          .execute();
      metrics
          .update()
          .where("host", "web-1")
          .where("metric", "mem")
          .where("at", 6001L)
          .set("value", -1.0)
          .execute();
      readings.delete().eq("sensor", "s-1").eq("bucket", 1).execute();
      List<UUID> positions = new java.util.ArrayList<>();
      for (String q : FormatFixture.QUEUES) {
        for (int i = 0; i < 4; i++) {
          UUID pos = db.timeUuids().next();
          positions.add(pos);
          queue.insert().value("name", q).value("pos", pos).value("item", q + "#" + i).execute();
          clock.advance(Duration.ofMillis(10));
        }
      }
      queue.delete().eq("name", "q-a").eq("pos", positions.get(0)).execute();
      queue.delete().eq("name", "q-b").le("pos", positions.get(5)).execute();
      // a batch across three tables: one commit-log record
      db.batch()
          .add(kv.insert().value("k", 1L).value("v", "batched"))
          .add(
              queue
                  .insert()
                  .value("name", "q-a")
                  .value("pos", db.timeUuids().next())
                  .value("item", "batched"))
          .add(metrics.delete().eq("host", "db-1").eq("metric", "cpu").eq("at", 0L))
          .execute();
    }
  }
}
