package dev.talus.model;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * A brute-force model of Cassandra's semantics for the second model-test table: {@code PRIMARY KEY
 * ((a text, b int), ts timestamp DESC, id uuid DESC)} with regular columns n bigint, d double, f
 * boolean and bl blob (held as lower-case hex). Like {@link Model} it keeps every write and answers
 * reads from first principles, sharing no code with the engine.
 */
final class WideModel {
  static final String[] A_VALUES = {"", "x", "yy"}; // an empty component is fine in a composite key
  static final int[] B_VALUES = {0, 7};
  static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
  static final int TS_VALUES = 4;

  /** uuid order is msb then lsb, both unsigned: these three sort differently signed. */
  static final UUID[] IDS = {
    new UUID(0x8000000000000001L, 5), new UUID(2, 9), new UUID(0x7fffffffffffffffL, -1L)
  };

  static final String[] COLUMNS = {"n", "d", "f", "bl"};

  record Pk(String a, int b) {}

  /** A clustering: ts (seconds after {@link #T0}) and an index into {@link #IDS}. */
  record Ck(int ts, int id) {
    Instant instant() {
      return T0.plusSeconds(ts);
    }

    UUID uuid() {
      return IDS[id];
    }
  }

  /** Clustering order: ts DESC, then id DESC (unsigned msb, then unsigned lsb). */
  static final Comparator<Ck> ORDER =
      Comparator.comparingInt(Ck::ts)
          .reversed()
          .thenComparing((x, y) -> -compareUuid(x.uuid(), y.uuid()));

  static int compareUuid(UUID x, UUID y) {
    int c = Long.compareUnsigned(x.getMostSignificantBits(), y.getMostSignificantBits());
    return c != 0
        ? c
        : Long.compareUnsigned(x.getLeastSignificantBits(), y.getLeastSignificantBits());
  }

  /** Rows covered by a range delete: ts in [tsLo, tsHi] and, if idLo set, id in [idLo, idHi]. */
  record Range(int tsLo, int tsHi, Integer idLo, Integer idHi) {
    boolean covers(Ck k) {
      if (k.ts < tsLo || k.ts > tsHi) {
        return false;
      }
      if (idLo == null) {
        return true;
      }
      return compareUuid(k.uuid(), IDS[idLo]) >= 0 && compareUuid(k.uuid(), IDS[idHi]) <= 0;
    }
  }

  record Version(long ts, int ttl, long ldt, Object value) {
    boolean live(long now) {
      return value != null && (ttl == 0 || now < ldt);
    }

    boolean hasLdt() {
      return value == null || ttl > 0;
    }
  }

  /** A visible row; bl as hex; nWriteTime is writetime(n). */
  record Row(Pk pk, Ck ck, Long n, Double d, Boolean f, String bl, Long nWriteTime) {}

  private static final class Partition {
    final List<Long> partitionDeletes = new ArrayList<>();
    final List<Object[]> rangeDeletes = new ArrayList<>(); // {Range, ts}
    final List<Object[]> rowDeletes = new ArrayList<>(); // {Ck, ts}
    final List<Object[]> markers = new ArrayList<>(); // {Ck, Version}
    final List<Object[]> cells = new ArrayList<>(); // {Ck, column, Version}
  }

  private final Map<Pk, Partition> partitions = new HashMap<>();

  /** A copy that later changes to this model do not reach (the recorded entries are immutable). */
  WideModel copy() {
    WideModel c = new WideModel();
    partitions.forEach(
        (pk, part) -> {
          Partition q = c.p(pk);
          q.partitionDeletes.addAll(part.partitionDeletes);
          q.rangeDeletes.addAll(part.rangeDeletes);
          q.rowDeletes.addAll(part.rowDeletes);
          q.markers.addAll(part.markers);
          q.cells.addAll(part.cells);
        });
    return c;
  }

  private Partition p(Pk pk) {
    return partitions.computeIfAbsent(pk, k -> new Partition());
  }

  void deletePartition(Pk pk, long ts) {
    p(pk).partitionDeletes.add(ts);
  }

  void deleteRange(Pk pk, Range r, long ts) {
    p(pk).rangeDeletes.add(new Object[] {r, ts});
  }

  void deleteRow(Pk pk, Ck k, long ts) {
    p(pk).rowDeletes.add(new Object[] {k, ts});
  }

  void marker(Pk pk, Ck k, long ts, int ttl, long now) {
    p(pk)
        .markers
        .add(new Object[] {k, new Version(ts, ttl, ttl > 0 ? now + ttl : Long.MAX_VALUE, 1)});
  }

  void cell(Pk pk, Ck k, String column, Object value, long ts, int ttl, long now) {
    Version v =
        value == null
            ? new Version(ts, 0, now, null)
            : new Version(ts, ttl, ttl > 0 ? now + ttl : Long.MAX_VALUE, value);
    p(pk).cells.add(new Object[] {k, column, v});
  }

  /** Last write wins with Cassandra's tie-breaks (as in {@link Model#winner}), typed values. */
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
    return compareSerialized(a.value, b.value) >= 0 ? a : b;
  }

  /** Serialized values compare as unsigned bytes: big-endian longs and IEEE bits unsigned. */
  static int compareSerialized(Object x, Object y) {
    if (x == null || y == null) {
      return 0;
    }
    if (x instanceof Long i && y instanceof Long j) {
      return Long.compareUnsigned(i, j);
    }
    if (x instanceof Double i && y instanceof Double j) {
      return Long.compareUnsigned(Double.doubleToRawLongBits(i), Double.doubleToRawLongBits(j));
    }
    if (x instanceof Boolean i && y instanceof Boolean j) {
      return Boolean.compare(i, j);
    }
    return x.toString().compareTo(y.toString()); // hex of blobs: same order as unsigned bytes
  }

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

  /** The visible rows of one partition at {@code now}, in clustering order. */
  List<Row> partition(Pk pk, long now) {
    Partition part = partitions.get(pk);
    List<Row> out = new ArrayList<>();
    if (part == null) {
      return out;
    }
    List<Ck> keys = new ArrayList<>();
    for (int ts = 0; ts < TS_VALUES; ts++) {
      for (int id = 0; id < IDS.length; id++) {
        keys.add(new Ck(ts, id));
      }
    }
    keys.sort(ORDER);
    for (Ck k : keys) {
      long del = Long.MIN_VALUE;
      for (long ts : part.partitionDeletes) {
        del = Math.max(del, ts);
      }
      for (Object[] x : part.rangeDeletes) {
        if (((Range) x[0]).covers(k)) {
          del = Math.max(del, (long) x[1]);
        }
      }
      for (Object[] x : part.rowDeletes) {
        if (x[0].equals(k)) {
          del = Math.max(del, (long) x[1]);
        }
      }
      Version marker = null;
      for (Object[] x : part.markers) {
        Version v = (Version) x[1];
        if (x[0].equals(k) && v.ts > del) {
          marker = marker == null ? v : markerWinner(marker, v);
        }
      }
      Map<String, Version> cells = new HashMap<>();
      for (Object[] x : part.cells) {
        Version v = (Version) x[2];
        if (x[0].equals(k) && v.ts > del) {
          cells.merge((String) x[1], v, WideModel::winner);
        }
      }
      boolean live = marker != null && (marker.ttl == 0 || now < marker.ldt);
      Object[] values = new Object[COLUMNS.length];
      for (int i = 0; i < COLUMNS.length; i++) {
        Version v = cells.get(COLUMNS[i]);
        if (v != null && v.live(now)) {
          values[i] = v.value;
          live = true;
        }
      }
      if (live) {
        Version n = cells.get("n");
        out.add(
            new Row(
                pk,
                k,
                (Long) values[0],
                (Double) values[1],
                (Boolean) values[2],
                (String) values[3],
                values[0] != null ? Objects.requireNonNull(n).ts : null));
      }
    }
    return out;
  }
}
