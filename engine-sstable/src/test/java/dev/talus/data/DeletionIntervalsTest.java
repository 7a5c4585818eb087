package dev.talus.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DeletionIntervalsTest {

  private static RangeTombstone randomTombstone(Random rnd) {
    byte[] s = TestData.randomBound(rnd);
    byte[] e = TestData.randomBound(rnd);
    // mostly well-formed; sometimes inverted (covers nothing)
    if (Arrays.compareUnsigned(s, e) > 0 && rnd.nextInt(5) != 0) {
      byte[] t = s;
      s = e;
      e = t;
    }
    return new RangeTombstone(s, e, new DeletionTime(rnd.nextInt(5), 100 + rnd.nextInt(3)));
  }

  private static DeletionTime bruteForce(List<RangeTombstone> tombstones, byte[] c) {
    DeletionTime d = DeletionTime.LIVE;
    for (RangeTombstone t : tombstones) {
      if (t.covers(c)) {
        d = d.max(t.deletion());
      }
    }
    return d;
  }

  /** Null if {@code tombstones} normalise correctly, else what is wrong. */
  private static String check(List<RangeTombstone> tombstones) {
    DeletionIntervals di = DeletionIntervals.of(tombstones);
    List<RangeTombstone> iv = di.intervals();
    for (int i = 0; i < iv.size(); i++) {
      RangeTombstone t = iv.get(i);
      if (Arrays.compareUnsigned(t.start(), t.end()) >= 0) {
        return "empty or inverted interval " + t;
      }
      if (t.deletion().isLive()) {
        return "live interval " + t;
      }
      if (i > 0 && Arrays.compareUnsigned(iv.get(i - 1).end(), t.start()) > 0) {
        return "intervals overlap or are unsorted: " + iv.get(i - 1) + " then " + t;
      }
    }
    if (di.isEmpty() != iv.isEmpty()) {
      return "isEmpty disagrees with intervals";
    }
    for (byte[] c : TestData.allRows()) {
      DeletionTime expected = bruteForce(tombstones, c);
      DeletionTime actual = di.deletionAt(c);
      if (!expected.equals(actual)) {
        return "deletionAt(" + TestData.hex(c) + ") = " + actual + ", expected " + expected;
      }
      // every clustering covered by the normalised intervals agrees with the brute force too
      DeletionTime viaIntervals = bruteForce(iv, c);
      if (!expected.equals(viaIntervals)) {
        return "intervals cover " + TestData.hex(c) + " with " + viaIntervals + ", not " + expected;
      }
    }
    return null;
  }

  @ParameterizedTest(name = "seed={0}")
  @ValueSource(longs = {1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L})
  void deletionAtIsTheMaxOverCoveringTombstones(long seed) {
    Random rnd = new Random(seed);
    for (int iter = 0; iter < 500; iter++) {
      List<RangeTombstone> tombstones = new ArrayList<>();
      int n = rnd.nextInt(8);
      for (int i = 0; i < n; i++) {
        tombstones.add(randomTombstone(rnd));
      }
      String problem = check(tombstones);
      if (problem != null) {
        List<RangeTombstone> minimal = TestData.shrink(tombstones, l -> check(l) != null);
        throw new AssertionError(
            "seed="
                + seed
                + " iteration="
                + iter
                + ": "
                + problem
                + "\nminimal input: "
                + minimal
                + "\nminimal problem: "
                + check(minimal));
      }
    }
  }

  @ParameterizedTest(name = "seed={0}")
  @ValueSource(longs = {21L, 22L, 23L})
  void withinReturnsTheIntervalsMeetingTheSliceAboveOuter(long seed) {
    Random rnd = new Random(seed);
    for (int iter = 0; iter < 300; iter++) {
      List<RangeTombstone> tombstones = new ArrayList<>();
      int n = rnd.nextInt(6);
      for (int i = 0; i < n; i++) {
        tombstones.add(randomTombstone(rnd));
      }
      DeletionIntervals di = DeletionIntervals.of(tombstones);
      Slice slice = new Slice(TestData.randomBound(rnd), TestData.randomBound(rnd));
      DeletionTime outer =
          rnd.nextBoolean() ? DeletionTime.LIVE : new DeletionTime(rnd.nextInt(5), 101);
      List<RangeTombstone> within = di.within(slice, outer);
      for (RangeTombstone t : within) {
        assertThat(t.deletion().supersedes(outer)).as("seed=%d %s", seed, t).isTrue();
        assertThat(di.intervals()).as("seed=%d", seed).contains(t);
      }
      for (byte[] c : TestData.allRows()) {
        DeletionTime d = di.deletionAt(c);
        if (slice.contains(c) && d.supersedes(outer)) {
          assertThat(bruteForce(within, c))
              .as("seed=%d %s at %s in %s", seed, tombstones, TestData.hex(c), slice)
              .isEqualTo(d);
        }
      }
    }
  }

  @Test
  void overlappingTombstonesSplitIntoDisjointIntervals() {
    // [a .. c] at 5 and (b .. d] at 7: [a, b] at 5, (b, d] at 7
    RangeTombstone low =
        new RangeTombstone(TestData.bound(false, 0), TestData.bound(true, 2), dt(5));
    RangeTombstone high =
        new RangeTombstone(TestData.bound(true, 1), TestData.bound(true, 3), dt(7));
    DeletionIntervals di = DeletionIntervals.of(List.of(high, low));
    assertThat(di.intervals())
        .containsExactly(
            new RangeTombstone(TestData.bound(false, 0), TestData.bound(true, 1), dt(5)),
            new RangeTombstone(TestData.bound(true, 1), TestData.bound(true, 3), dt(7)));
    assertThat(di.deletionAt(TestData.row(0))).isEqualTo(dt(5));
    assertThat(di.deletionAt(TestData.row(1, 4))).isEqualTo(dt(5));
    assertThat(di.deletionAt(TestData.row(2))).isEqualTo(dt(7));
    assertThat(di.deletionAt(TestData.row(3, 0))).isEqualTo(dt(7));
    assertThat(di.deletionAt(TestData.row(4))).isEqualTo(DeletionTime.LIVE);
    assertThat(DeletionIntervals.EMPTY.deletionAt(TestData.row(0))).isEqualTo(DeletionTime.LIVE);
  }

  @Test
  void emptyOrInvertedTombstoneNormalisesToNothingAlsoWhenAlone() {
    RangeTombstone empty =
        new RangeTombstone(TestData.bound(false, 2), TestData.bound(false, 2), dt(5));
    RangeTombstone inverted =
        new RangeTombstone(TestData.bound(true, 3), TestData.bound(false, 1), dt(5));
    assertThat(DeletionIntervals.of(List.of(empty, inverted)).intervals()).isEmpty();
    assertThat(DeletionIntervals.of(List.of(empty)).intervals()).isEmpty();
    assertThat(DeletionIntervals.of(List.of(inverted)).isEmpty()).isTrue();
    RangeTombstone live =
        new RangeTombstone(TestData.bound(false, 1), TestData.bound(true, 3), DeletionTime.LIVE);
    assertThat(DeletionIntervals.of(List.of(live)).isEmpty()).isTrue();
  }

  private static DeletionTime dt(long ts) {
    return new DeletionTime(ts, 100);
  }
}
