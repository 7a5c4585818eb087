package dev.talus.data;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;

/** Shared generators over a small clustering domain, and a greedy list shrinker. */
final class TestData {
  /** One-byte component values, including the framing bytes themselves. */
  static final byte[] VALUES = {0x00, 0x30, 0x41, (byte) 0x80, (byte) 0xFF};

  private TestData() {}

  static byte[] row(int... components) {
    List<byte[]> cs = new ArrayList<>();
    for (int c : components) {
      cs.add(new byte[] {VALUES[c]});
    }
    return ClusteringBytes.row(cs);
  }

  static byte[] bound(boolean after, int... prefix) {
    List<byte[]> cs = new ArrayList<>();
    for (int c : prefix) {
      cs.add(new byte[] {VALUES[c]});
    }
    return ClusteringBytes.bound(cs, after);
  }

  /** Every row clustering of one or two components, ascending. */
  static List<byte[]> allRows() {
    List<byte[]> out = new ArrayList<>();
    for (int a = 0; a < VALUES.length; a++) {
      out.add(row(a));
      for (int b = 0; b < VALUES.length; b++) {
        out.add(row(a, b));
      }
    }
    return out;
  }

  /** A random row clustering of one or two components. */
  static byte[] randomRow(Random rnd) {
    int a = rnd.nextInt(VALUES.length);
    return rnd.nextBoolean() ? row(a) : row(a, rnd.nextInt(VALUES.length));
  }

  /** A random bound on a prefix of zero to two components, BEFORE or AFTER. */
  static byte[] randomBound(Random rnd) {
    boolean after = rnd.nextBoolean();
    switch (rnd.nextInt(5)) {
      case 0:
        return bound(after);
      case 1:
      case 2:
        return bound(after, rnd.nextInt(VALUES.length));
      default:
        return bound(after, rnd.nextInt(VALUES.length), rnd.nextInt(VALUES.length));
    }
  }

  static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }

  /**
   * Greedily removes elements from a failing list while it keeps failing; returns a list from which
   * no single element can be removed.
   */
  static <T> List<T> shrink(List<T> failing, Predicate<List<T>> fails) {
    List<T> cur = new ArrayList<>(failing);
    boolean progress = true;
    while (progress) {
      progress = false;
      for (int i = 0; i < cur.size(); i++) {
        List<T> candidate = new ArrayList<>(cur);
        candidate.remove(i);
        boolean stillFails;
        try {
          stillFails = fails.test(candidate);
        } catch (RuntimeException | AssertionError e) {
          stillFails = true;
        }
        if (stillFails) {
          cur = candidate;
          progress = true;
          i--;
        }
      }
    }
    return cur;
  }
}
