package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TalusDb#atNowInSeconds}: the reads and writes inside it take the given time as "now" for
 * TTLs, while the clock stays where it is for everything else.
 */
class NowInSecondsTest {
  @TempDir Path dir;
  private final ManualClock clock = ManualClock.startingAtDefault();
  private TalusDb db;
  private Table t;
  private long now;

  @BeforeEach
  void open() {
    db = TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
    t =
        db.createTable(
            TableSchema.builder("t")
                .partitionKey("k", DataType.INT)
                .column("v", DataType.TEXT)
                .build());
    now = clock.instant().getEpochSecond();
  }

  @AfterEach
  void close() {
    db.close();
  }

  private ResultRow row(int k) {
    return t.select().eq("k", k).one().orElse(null);
  }

  @Test
  void aReadAtALaterNowSeesTheTtlExpiredAndAnEarlierOneSeesMoreTtlLeft() {
    t.insert().value("k", 1).value("v", "x").ttl(Duration.ofSeconds(100)).execute();
    assertThat(db.atNowInSeconds(now + 99, () -> row(1).ttl("v"))).isEqualTo(1);
    assertThat(db.atNowInSeconds(now + 100, () -> row(1))).isNull();
    assertThat(row(1).ttl("v")).as("outside, the clock's now").isEqualTo(100);
    t.flush();
    assertThat(db.atNowInSeconds(now + 100, () -> row(1))).isNull();
    assertThat(db.atNowInSeconds(now - 50, () -> row(1).ttl("v"))).isEqualTo(150);
  }

  @Test
  void aWriteAtAnEarlierNowExpiresThatMuchEarlier() {
    db.atNowInSeconds(
        now - 60,
        () -> {
          t.insert().value("k", 2).value("v", "y").ttl(Duration.ofSeconds(100)).execute();
          return null;
        });
    // written at now - 60 with a TTL of 100 s: 40 s left by the clock
    assertThat(row(2).ttl("v")).isEqualTo(40);
    clock.advance(Duration.ofSeconds(40));
    assertThat(row(2)).isNull();
  }

  @Test
  void anInnerCallWinsAndTheOuterNowComesBack() {
    t.insert().value("k", 3).value("v", "z").ttl(Duration.ofSeconds(100)).execute();
    int[] ttls =
        db.atNowInSeconds(
            now + 10,
            () -> {
              int inner = db.atNowInSeconds(now + 20, () -> row(3).ttl("v"));
              return new int[] {inner, row(3).ttl("v")};
            });
    assertThat(ttls).containsExactly(80, 90);
    assertThat(row(3).ttl("v")).isEqualTo(100);
  }
}
