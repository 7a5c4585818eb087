package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.codec.TypeCodec;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class TimeUuidGeneratorTest {
  private static final Instant NOW = Instant.parse("2026-11-29T12:34:56.789Z");
  private static final TypeCodec<?> TIMEUUID = TypeCodec.of(DataType.TIMEUUID);

  @Test
  void fixedClockGivesUniqueStrictlyIncreasingVersion1Uuids() {
    TimeUuidGenerator gen = new TimeUuidGenerator(InstantSource.fixed(NOW));
    UUID previous = null;
    Set<UUID> seen = new HashSet<>();
    for (int i = 0; i < 100_000; i++) {
      UUID u = gen.next();
      assertThat(u.version()).isEqualTo(1);
      assertThat(u.variant()).isEqualTo(2);
      assertThat(seen.add(u)).as("duplicate %s at %d", u, i).isTrue();
      if (previous != null) {
        assertThat(TIMEUUID.compare(previous, u)).as("%s then %s", previous, u).isNegative();
      }
      previous = u;
    }
  }

  @Test
  void concurrentCallersGetUniqueUuids() throws Exception {
    TimeUuidGenerator gen = new TimeUuidGenerator(InstantSource.fixed(NOW));
    int threads = 4;
    int perThread = 50_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Callable<List<UUID>>> tasks = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        tasks.add(
            () -> {
              List<UUID> out = new ArrayList<>(perThread);
              for (int i = 0; i < perThread; i++) {
                out.add(gen.next());
              }
              return out;
            });
      }
      Set<UUID> all = new HashSet<>();
      for (Future<List<UUID>> f : pool.invokeAll(tasks)) {
        List<UUID> mine = f.get();
        for (int i = 1; i < mine.size(); i++) {
          assertThat(TIMEUUID.compare(mine.get(i - 1), mine.get(i))).isNegative();
        }
        all.addAll(mine);
      }
      assertThat(all).hasSize(threads * perThread);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void timestampIsTheClocksMillisecond() {
    Instant subMillis = NOW.plusNanos(456_789);
    TimeUuidGenerator gen = new TimeUuidGenerator(InstantSource.fixed(subMillis));
    for (int i = 0; i < 1_000; i++) {
      assertThat(TimeUuidGenerator.timestampOf(gen.next())).isEqualTo(NOW);
    }
  }

  @Test
  void followsTheClockAndSurvivesItGoingBackwards() {
    AtomicReference<Instant> now = new AtomicReference<>(NOW);
    TimeUuidGenerator gen = new TimeUuidGenerator(now::get);
    UUID first = gen.next();
    now.set(NOW.plusSeconds(10));
    UUID later = gen.next();
    assertThat(TimeUuidGenerator.timestampOf(later)).isEqualTo(NOW.plusSeconds(10));
    now.set(NOW.minusSeconds(3600));
    UUID afterJump = gen.next();
    assertThat(TIMEUUID.compare(first, later)).isNegative();
    assertThat(TIMEUUID.compare(later, afterJump)).isNegative();
  }

  @Test
  void generatorsDifferInNodeAndClockSequence() {
    InstantSource clock = InstantSource.fixed(NOW);
    UUID a = new TimeUuidGenerator(clock).next();
    UUID b = new TimeUuidGenerator(clock).next();
    assertThat(a.getMostSignificantBits()).isEqualTo(b.getMostSignificantBits());
    assertThat(a).isNotEqualTo(b);
  }

  @Test
  void minAndMaxBracketTheMillisecond() {
    UUID min = TimeUuidGenerator.minFor(NOW.plusNanos(999_999));
    UUID max = TimeUuidGenerator.maxFor(NOW);
    assertThat(min.version()).isEqualTo(1);
    assertThat(max.version()).isEqualTo(1);
    assertThat(TimeUuidGenerator.timestampOf(min)).isEqualTo(NOW);
    assertThat(TimeUuidGenerator.timestampOf(max)).isEqualTo(NOW);
    assertThat(TIMEUUID.compare(TimeUuidGenerator.maxFor(NOW.minusMillis(1)), min)).isNegative();
    assertThat(TIMEUUID.compare(max, TimeUuidGenerator.minFor(NOW.plusMillis(1)))).isNegative();
    assertThat(TIMEUUID.coerce(min)).isEqualTo(min);

    TimeUuidGenerator gen = new TimeUuidGenerator(InstantSource.fixed(NOW));
    for (int i = 0; i < 10_000; i++) {
      UUID u = gen.next();
      assertThat(TIMEUUID.compare(min, u)).isNegative();
      assertThat(TIMEUUID.compare(u, max)).isNegative();
    }
    // The 10,001st UUID of a millisecond spills into the next one.
    assertThat(TIMEUUID.compare(gen.next(), max)).isPositive();
  }

  @Test
  void rejectsOtherVersionsAndOutOfRangeInstants() {
    assertThatThrownBy(() -> TimeUuidGenerator.timestampOf(UUID.randomUUID()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("version 1");
    assertThatThrownBy(() -> TimeUuidGenerator.minFor(Instant.parse("1500-01-01T00:00:00Z")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TimeUuidGenerator.maxFor(Instant.parse("9999-01-01T00:00:00Z")))
        .isInstanceOf(IllegalArgumentException.class);
    TimeUuidGenerator old =
        new TimeUuidGenerator(InstantSource.fixed(Instant.EPOCH.minusSeconds(400L * 365 * 86_400)));
    assertThatThrownBy(old::next).isInstanceOf(IllegalStateException.class);
    assertThat(TimeUuidGenerator.timestampOf(TimeUuidGenerator.minFor(Instant.EPOCH)))
        .isEqualTo(Instant.EPOCH);
    Instant beforeEpoch = Instant.parse("1900-01-01T00:00:00.001Z");
    assertThat(TimeUuidGenerator.timestampOf(TimeUuidGenerator.maxFor(beforeEpoch)))
        .isEqualTo(beforeEpoch);
  }
}
