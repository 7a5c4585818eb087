package dev.talus.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ThrottleTest {
  static final long MIB = 1L << 20;

  private final long[] clock = {1_000};
  private long parked;

  private Throttle throttle(double mibPerSecond) {
    return new Throttle(
        mibPerSecond,
        () -> clock[0],
        nanos -> {
          parked += nanos;
          clock[0] += nanos;
        });
  }

  @Test
  void paysForEachRequestAtTheConfiguredRate() {
    Throttle t = throttle(10);
    for (int i = 0; i < 100; i++) {
      t.acquire(MIB);
    }
    // 100 MiB at 10 MiB/s: the first request is free, the other 99 wait 0.1 s each.
    assertThat(parked).isEqualTo(9_900_000_000L);
  }

  @Test
  void unlimitedNeverWaitsAndIdleTimeIsNotBanked() {
    Throttle t = throttle(0);
    t.acquire(Long.MAX_VALUE / 2);
    assertThat(parked).isZero();
    t.setRate(1);
    t.acquire(MIB);
    clock[0] += 60_000_000_000L; // a minute idle
    t.acquire(MIB);
    t.acquire(MIB);
    assertThat(parked).isEqualTo(1_000_000_000L);
    assertThat(t.rate()).isEqualTo(1.0);
    assertThat(t.toString()).contains("MiB/s");
  }

  @Test
  void rejectsBadRatesAndStopsOnInterrupt() {
    assertThatThrownBy(() -> Throttle.ofMibPerSecond(-1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Throttle.ofMibPerSecond(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
    Throttle t = new Throttle(1, () -> clock[0], nanos -> {});
    t.acquire(MIB);
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> t.acquire(MIB)).isInstanceOf(CompactionInterruptedException.class);
    } finally {
      assertThat(Thread.interrupted()).isTrue();
    }
  }

  @Test
  void realClockThrottleWaitsRoughlyTheRate() {
    Throttle t = Throttle.ofMibPerSecond(100);
    long start = System.nanoTime();
    t.acquire(MIB);
    t.acquire(MIB); // waits ~10 ms for the first
    assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(9_000_000L);
  }
}
