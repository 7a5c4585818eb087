package dev.talus.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusteringBytesTest {

  /** Component indexes of every prefix of zero to two components. */
  private static List<int[]> allPrefixes() {
    List<int[]> out = new ArrayList<>();
    out.add(new int[0]);
    for (int a = 0; a < TestData.VALUES.length; a++) {
      out.add(new int[] {a});
      for (int b = 0; b < TestData.VALUES.length; b++) {
        out.add(new int[] {a, b});
      }
    }
    return out;
  }

  private static boolean startsWith(int[] row, int[] prefix) {
    return row.length >= prefix.length && Arrays.equals(Arrays.copyOf(row, prefix.length), prefix);
  }

  /** Component-wise order: unsigned component values, a prefix before its extensions. */
  private static int compareComponents(int[] x, int[] y) {
    for (int i = 0; i < Math.min(x.length, y.length); i++) {
      int c = Integer.compare(TestData.VALUES[x[i]] & 0xFF, TestData.VALUES[y[i]] & 0xFF);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(x.length, y.length);
  }

  private static int cmp(byte[] a, byte[] b) {
    return ClusteringBytes.compare(a, b);
  }

  @Test
  void frameLayout() {
    assertThat(ClusteringBytes.row(List.of(new byte[] {7}, new byte[] {8, 9})))
        .containsExactly(0x40, 7, 0x40, 8, 9, 0x30);
    assertThat(ClusteringBytes.bound(List.of(new byte[] {7}), false))
        .containsExactly(0x40, 7, 0x20);
    assertThat(ClusteringBytes.bound(List.of(new byte[] {7}), true)).containsExactly(0x40, 7, 0x60);
    assertThat(ClusteringBytes.row(List.of())).isEqualTo(ClusteringBytes.EMPTY_ROW);
    assertThat(ClusteringBytes.bound(List.of(), false)).isEqualTo(ClusteringBytes.BOTTOM);
    assertThat(ClusteringBytes.bound(List.of(), true)).isEqualTo(ClusteringBytes.TOP);
  }

  @Test
  void rowsOrderByComponentsWithPrefixesFirst() {
    List<int[]> rows = allPrefixes().subList(1, allPrefixes().size());
    for (int[] x : rows) {
      for (int[] y : rows) {
        assertThat(Integer.signum(cmp(TestData.row(x), TestData.row(y))))
            .as("%s vs %s", Arrays.toString(x), Arrays.toString(y))
            .isEqualTo(Integer.signum(compareComponents(x, y)));
      }
    }
  }

  @Test
  void boundsEncloseExactlyTheRowsWithTheirPrefix() {
    List<int[]> rows = allPrefixes().subList(1, allPrefixes().size());
    for (int[] p : allPrefixes()) {
      byte[] start = TestData.bound(false, p);
      byte[] end = TestData.bound(true, p);
      assertThat(cmp(start, end)).isNegative();
      for (int[] r : rows) {
        byte[] row = TestData.row(r);
        boolean inside = cmp(start, row) < 0 && cmp(row, end) < 0;
        assertThat(inside)
            .as("prefix %s, row %s", Arrays.toString(p), Arrays.toString(r))
            .isEqualTo(startsWith(r, p));
        assertThat(row).isNotEqualTo(start).isNotEqualTo(end);
      }
    }
  }

  @Test
  void startBoundBeforeRowsBeforeEndBoundForTheSameClustering() {
    for (int[] p : allPrefixes().subList(1, allPrefixes().size())) {
      byte[] row = TestData.row(p);
      assertThat(cmp(TestData.bound(false, p), row)).isNegative();
      assertThat(cmp(row, TestData.bound(true, p))).isNegative();
      assertThat(ClusteringBytes.isRow(row)).isTrue();
      assertThat(ClusteringBytes.isRow(TestData.bound(false, p))).isFalse();
      assertThat(ClusteringBytes.isRow(TestData.bound(true, p))).isFalse();
    }
    assertThat(ClusteringBytes.isRow(new byte[0])).isFalse();
    assertThat(ClusteringBytes.isRow(ClusteringBytes.EMPTY_ROW)).isTrue();
    assertThat(cmp(ClusteringBytes.BOTTOM, ClusteringBytes.EMPTY_ROW)).isNegative();
    assertThat(cmp(ClusteringBytes.EMPTY_ROW, ClusteringBytes.TOP)).isNegative();
  }

  @Test
  void afterAndBeforeOfARowAreItsBoundsAndLeaveTheRowUntouched() {
    for (int[] p : allPrefixes().subList(1, allPrefixes().size())) {
      byte[] row = TestData.row(p);
      byte[] copy = row.clone();
      byte[] after = ClusteringBytes.after(row);
      byte[] before = ClusteringBytes.before(row);
      assertThat(row).isEqualTo(copy);
      assertThat(after).isEqualTo(TestData.bound(true, p));
      assertThat(before).isEqualTo(TestData.bound(false, p));
      assertThat(cmp(before, row)).isNegative();
      assertThat(cmp(row, after)).isNegative();
    }
  }

  @Test
  void betweenBeforeAndAfterOfAFullRowLiesOnlyThatRow() {
    List<byte[]> all = TestData.allRows();
    for (byte[] row : all) {
      if (row.length != 5) {
        continue; // two one-byte components: the full clustering length
      }
      byte[] before = ClusteringBytes.before(row);
      byte[] after = ClusteringBytes.after(row);
      for (byte[] other : all) {
        boolean between = cmp(before, other) < 0 && cmp(other, after) < 0;
        assertThat(between).isEqualTo(Arrays.equals(other, row));
      }
      // every row of the domain above `row` is after after(row), every one below before before(row)
      for (byte[] other : all) {
        if (cmp(other, row) > 0) {
          assertThat(cmp(other, after)).isPositive();
        } else if (cmp(other, row) < 0) {
          assertThat(cmp(other, before)).isNegative();
        }
      }
    }
  }
}
