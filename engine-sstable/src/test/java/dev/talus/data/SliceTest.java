package dev.talus.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SliceTest {
  private static final List<byte[]> ROWS = TestData.allRows();

  private static String describe(Slice s) {
    return TestData.hex(s.start()) + ".." + TestData.hex(s.end());
  }

  @Test
  void allContainsEveryRow() {
    for (byte[] r : ROWS) {
      assertThat(Slice.ALL.contains(r)).isTrue();
    }
    assertThat(Slice.ALL.contains(ClusteringBytes.EMPTY_ROW)).isTrue();
    assertThat(Slice.ALL.isEmpty()).isFalse();
  }

  @Test
  void inclusiveAndExclusiveBoundsSelectTheExpectedRows() {
    // c >= (1) and c <= (3): rows 1.., 2.., 3..
    Slice closed = new Slice(TestData.bound(false, 1), TestData.bound(true, 3));
    // c > (1) and c < (3): rows 2.. only
    Slice open = new Slice(TestData.bound(true, 1), TestData.bound(false, 3));
    for (int a = 0; a < TestData.VALUES.length; a++) {
      for (byte[] r : List.of(TestData.row(a), TestData.row(a, 0), TestData.row(a, 4))) {
        assertThat(closed.contains(r)).as("closed, a=%d", a).isEqualTo(a >= 1 && a <= 3);
        assertThat(open.contains(r)).as("open, a=%d", a).isEqualTo(a == 2);
      }
    }
    // a bound is never contained by a slice starting or ending at it
    assertThat(closed.contains(closed.start())).isFalse();
    assertThat(closed.contains(closed.end())).isFalse();
  }

  @Test
  void emptySlices() {
    assertThat(new Slice(TestData.bound(false, 2), TestData.bound(false, 2)).isEmpty()).isTrue();
    assertThat(new Slice(TestData.bound(true, 2), TestData.bound(false, 2)).isEmpty()).isTrue();
    assertThat(new Slice(TestData.bound(false, 2), TestData.bound(true, 2)).isEmpty()).isFalse();
  }

  @ParameterizedTest(name = "seed={0}")
  @ValueSource(longs = {1L, 2L, 3L, 4L})
  void intersectContainsExactlyWhatBothContain(long seed) {
    Random rnd = new Random(seed);
    for (int i = 0; i < 2_000; i++) {
      Slice a = new Slice(TestData.randomBound(rnd), TestData.randomBound(rnd));
      Slice b = new Slice(TestData.randomBound(rnd), TestData.randomBound(rnd));
      Slice ab = a.intersect(b);
      assertThat(ab).as("seed=%d commutative", seed).isEqualTo(b.intersect(a));
      boolean any = false;
      for (byte[] r : ROWS) {
        boolean both = a.contains(r) && b.contains(r);
        any |= both;
        assertThat(ab.contains(r))
            .as("seed=%d %s intersect %s at %s", seed, describe(a), describe(b), TestData.hex(r))
            .isEqualTo(both);
      }
      if (any) {
        assertThat(ab.isEmpty()).as("seed=%d", seed).isFalse();
      }
    }
  }

  @ParameterizedTest(name = "seed={0}")
  @ValueSource(longs = {5L, 6L, 7L})
  void intersectsHasNoFalseNegatives(long seed) {
    Random rnd = new Random(seed);
    for (int i = 0; i < 2_000; i++) {
      Slice s = new Slice(TestData.randomBound(rnd), TestData.randomBound(rnd));
      byte[] lo = rnd.nextBoolean() ? TestData.randomRow(rnd) : TestData.randomBound(rnd);
      byte[] hi = rnd.nextBoolean() ? TestData.randomRow(rnd) : TestData.randomBound(rnd);
      if (Arrays.compareUnsigned(lo, hi) > 0) {
        byte[] t = lo;
        lo = hi;
        hi = t;
      }
      boolean meets = false;
      for (byte[] r : ROWS) {
        if (s.contains(r)
            && Arrays.compareUnsigned(lo, r) <= 0
            && Arrays.compareUnsigned(r, hi) <= 0) {
          meets = true;
        }
      }
      if (meets) {
        assertThat(s.intersects(lo, hi))
            .as("seed=%d %s vs [%s, %s]", seed, describe(s), TestData.hex(lo), TestData.hex(hi))
            .isTrue();
      }
    }
  }

  @Test
  void intersectsIsFalseForRangesEntirelyOutside() {
    Slice s = new Slice(TestData.bound(false, 2), TestData.bound(true, 2));
    assertThat(s.intersects(TestData.row(0), TestData.row(1, 4))).isFalse();
    assertThat(s.intersects(TestData.row(3), TestData.row(4))).isFalse();
    assertThat(s.intersects(TestData.row(1), TestData.row(2))).isTrue();
    assertThat(s.intersects(TestData.row(2, 3), TestData.row(4))).isTrue();
    assertThat(s.intersects(TestData.row(0), TestData.row(4))).isTrue();
  }
}
