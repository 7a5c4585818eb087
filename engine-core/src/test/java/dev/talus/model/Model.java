package dev.talus.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A deliberately simple model of Cassandra's semantics for one table shape: {@code PRIMARY KEY
 * ((p), c1 ASC, c2 DESC)} with regular columns v1 int, v2 text and tags set&lt;text&gt;, and a
 * static column s int. It keeps every write and answers reads by brute force from first principles,
 * sharing no code with the engine: a set element is a cell of its own (column {@code "tags:" +
 * element}), a whole-set deletion shadows the elements written at or before its timestamp, a static
 * cell belongs to the partition and only a partition deletion shadows it, and a partition with a
 * live static cell but no live row reads as one row with null clustering when the read names the
 * whole partition.
 */
final class Model {
  static final int C1_VALUES = 6;
  static final String[] C2_VALUES = {"a", "b", "c", "d"};

  /** One version of a cell: value null means a tombstone. */
  record Version(long ts, int ttl, long ldt, Object value) {
    boolean live(long now) {
      return value != null && (ttl == 0 || now < ldt);
    }

    boolean hasLdt() {
      return value == null || ttl > 0;
    }
  }

  record RowKey(int c1, String c2) {}

  /** A visible row; c1 and c2 are null for the row of a partition with only static data. */
  record ModelRow(
      int p,
      Integer c1,
      String c2,
      Integer v1,
      String v2,
      Long v1WriteTime,
      Set<String> tags,
      Integer s) {}

  private final List<Object[]> partitionDeletes = new ArrayList<>(); // {p, ts}
  private final List<Object[]> rangeDeletes = new ArrayList<>(); // {p, Range, ts}
  private final List<Object[]> rowDeletes = new ArrayList<>(); // {p, RowKey, ts}
  private final List<Object[]> markers = new ArrayList<>(); // {p, RowKey, Version}
  private final List<Object[]> cells = new ArrayList<>(); // {p, RowKey, column, Version}
  private final List<Object[]> tagDeletes = new ArrayList<>(); // {p, RowKey, ts}
  private final List<Object[]> statics = new ArrayList<>(); // {p, Version}

  /** Rows (c1, c2) deleted by a range delete: c1 in [c1Lo, c1Hi] and, if set, c2 in range. */
  record Range(int c1Lo, int c1Hi, String c2Lo, String c2Hi) {
    boolean covers(RowKey k) {
      if (k.c1 < c1Lo || k.c1 > c1Hi) {
        return false;
      }
      if (c2Lo != null && k.c2.compareTo(c2Lo) < 0) {
        return false;
      }
      return c2Hi == null || k.c2.compareTo(c2Hi) <= 0;
    }
  }

  /** ALTER TABLE ... DROP: every cell of the column is gone, whatever its timestamp. */
  void dropColumn(String column) {
    cells.removeIf(c -> c[2].equals(column));
  }

  void deletePartition(int p, long ts) {
    partitionDeletes.add(new Object[] {p, ts});
  }

  void deleteRange(int p, Range r, long ts) {
    rangeDeletes.add(new Object[] {p, r, ts});
  }

  void deleteRow(int p, RowKey k, long ts) {
    rowDeletes.add(new Object[] {p, k, ts});
  }

  void marker(int p, RowKey k, long ts, int ttl, long now) {
    markers.add(new Object[] {p, k, new Version(ts, ttl, ttl > 0 ? now + ttl : Long.MAX_VALUE, 1)});
  }

  void cell(int p, RowKey k, String column, Object value, long ts, int ttl, long now) {
    Version v =
        value == null
            ? new Version(ts, 0, now, null)
            : new Version(ts, ttl, ttl > 0 ? now + ttl : Long.MAX_VALUE, value);
    cells.add(new Object[] {p, k, column, v});
  }

  /** Deletes the whole set {@code tags} of a row: elements written at or before {@code ts}. */
  void deleteTags(int p, RowKey k, long ts) {
    tagDeletes.add(new Object[] {p, k, ts});
  }

  /** Adds (or, with {@code live} false, removes) one set element. */
  void tag(int p, RowKey k, String element, boolean live, long ts, int ttl, long now) {
    cell(p, k, "tags:" + element, live ? "" : null, ts, ttl, now);
  }

  void staticCell(int p, Integer value, long ts, int ttl, long now) {
    Version v =
        value == null
            ? new Version(ts, 0, now, null)
            : new Version(ts, ttl, ttl > 0 ? now + ttl : Long.MAX_VALUE, value);
    statics.add(new Object[] {p, v});
  }

  /** Last write wins with Cassandra's tie-breaks, written out independently of the engine. */
  static Version winner(Version a, Version b) {
    if (a.ts != b.ts) {
      return a.ts > b.ts ? a : b;
    }
    if (a.hasLdt() != b.hasLdt()) {
      return a.hasLdt() ? a : b;
    }
    if (a.hasLdt()) {
      boolean aTomb = a.value == null;
      boolean bTomb = b.value == null;
      if (aTomb != bTomb) {
        return aTomb ? a : b;
      }
      if (a.ldt != b.ldt) {
        return a.ldt > b.ldt ? a : b;
      }
      if (a.ttl != b.ttl) {
        return a.ttl < b.ttl ? a : b;
      }
    }
    return compareValues(a.value, b.value) >= 0 ? a : b;
  }

  private static int compareValues(Object x, Object y) {
    if (x == null || y == null) {
      return 0;
    }
    if (x instanceof Integer i && y instanceof Integer j) {
      // serialized ints compare as unsigned big-endian bytes
      return Integer.compareUnsigned(i, j);
    }
    return java.util.Arrays.compareUnsigned(
        x.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8),
        y.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  /** Marker version winner: higher ts; then expiring; then later expiry; then smaller ttl. */
  static Version markerWinner(Version a, Version b) {
    if (a.ts != b.ts) {
      return a.ts > b.ts ? a : b;
    }
    if ((a.ttl > 0) != (b.ttl > 0)) {
      return a.ttl > 0 ? a : b;
    }
    if (a.ldt != b.ldt) {
      return a.ldt > b.ldt ? a : b;
    }
    return a.ttl <= b.ttl ? a : b;
  }

  private long partitionDeletion(int p) {
    long d = Long.MIN_VALUE;
    for (Object[] x : partitionDeletes) {
      if ((int) x[0] == p) {
        d = Math.max(d, (long) x[1]);
      }
    }
    return d;
  }

  /** The live value of the static column of partition {@code p}, or null. */
  Integer staticValue(int p, long now) {
    long d = partitionDeletion(p);
    Version w = null;
    for (Object[] x : statics) {
      Version v = (Version) x[1];
      if ((int) x[0] == p && v.ts > d) {
        w = w == null ? v : winner(w, v);
      }
    }
    return w != null && w.live(now) ? (Integer) w.value : null;
  }

  /**
   * The visible rows of partition {@code p} at {@code now}, in clustering order; with {@code
   * wholePartition}, a partition with static data only reads as one row.
   */
  List<ModelRow> partition(int p, long now, boolean wholePartition) {
    Integer st = staticValue(p, now);
    TreeMap<RowKey, ModelRow> out =
        new TreeMap<>(
            Comparator.comparingInt(RowKey::c1)
                .thenComparing(RowKey::c2, Comparator.reverseOrder()));
    for (int c1 = 0; c1 < C1_VALUES; c1++) {
      for (String c2 : C2_VALUES) {
        RowKey k = new RowKey(c1, c2);
        long d = partitionDeletion(p);
        for (Object[] x : rangeDeletes) {
          if ((int) x[0] == p && ((Range) x[1]).covers(k)) {
            d = Math.max(d, (long) x[2]);
          }
        }
        for (Object[] x : rowDeletes) {
          if ((int) x[0] == p && x[1].equals(k)) {
            d = Math.max(d, (long) x[2]);
          }
        }
        Version marker = null;
        for (Object[] x : markers) {
          Version v = (Version) x[2];
          if ((int) x[0] == p && x[1].equals(k) && v.ts > d) {
            marker = marker == null ? v : markerWinner(marker, v);
          }
        }
        long tagsDeleted = d;
        for (Object[] x : tagDeletes) {
          if ((int) x[0] == p && x[1].equals(k)) {
            tagsDeleted = Math.max(tagsDeleted, (long) x[2]);
          }
        }
        Version v1 = null;
        Version v2 = null;
        TreeMap<String, Version> tagVersions = new TreeMap<>();
        for (Object[] x : cells) {
          Version v = (Version) x[3];
          if ((int) x[0] != p || !x[1].equals(k) || v.ts <= d) {
            continue;
          }
          String column = (String) x[2];
          if (column.equals("v1")) {
            v1 = v1 == null ? v : winner(v1, v);
          } else if (column.equals("v2")) {
            v2 = v2 == null ? v : winner(v2, v);
          } else if (v.ts > tagsDeleted) {
            tagVersions.merge(column.substring("tags:".length()), v, Model::winner);
          }
        }
        TreeSet<String> tags = new TreeSet<>();
        tagVersions.forEach(
            (e, v) -> {
              if (v.live(now)) {
                tags.add(e);
              }
            });
        boolean markerLive = marker != null && (marker.ttl == 0 || now < marker.ldt);
        boolean v1Live = v1 != null && v1.live(now);
        boolean v2Live = v2 != null && v2.live(now);
        if (markerLive || v1Live || v2Live || !tags.isEmpty()) {
          out.put(
              k,
              new ModelRow(
                  p,
                  c1,
                  c2,
                  v1Live ? (Integer) v1.value : null,
                  v2Live ? (String) v2.value : null,
                  v1Live ? v1.ts : null,
                  tags.isEmpty() ? null : Set.copyOf(tags),
                  st));
        }
      }
    }
    if (out.isEmpty() && st != null && wholePartition) {
      return List.of(new ModelRow(p, null, null, null, null, null, null, st));
    }
    return new ArrayList<>(out.values());
  }
}
