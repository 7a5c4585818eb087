package dev.talus.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Model-based tests of {@link PartitionMerger} and {@link LiveRows}: random writes spread over
 * several in-memory sources, merged and compared with a brute-force model that looks at every
 * version of every cell.
 */
class PartitionMergerTest {
  private static final PartitionKey KEY = PartitionKey.of(new byte[] {1, 2, 3});
  private static final int COLUMNS = 4;

  // ---- writes ----

  private sealed interface Write permits RowWrite, PartitionDelete, RangeDelete {}

  /** An insert or update, or a row deletion ({@link Row#deletion}). */
  private record RowWrite(Row row) implements Write {
    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder("Row(").append(TestData.hex(row.clustering()));
      if (!row.liveness().isEmpty()) {
        sb.append(", marker ").append(row.liveness());
      }
      if (!row.deletion().isLive()) {
        sb.append(", del ").append(row.deletion());
      }
      for (Cell c : row.cells()) {
        sb.append(", ").append(c).append('=').append(TestData.hex(c.value()));
      }
      return sb.append(')').toString();
    }
  }

  private record PartitionDelete(DeletionTime deletion) implements Write {}

  private record RangeDelete(RangeTombstone tombstone) implements Write {
    @Override
    public String toString() {
      return "RangeDelete("
          + TestData.hex(tombstone.start())
          + ".."
          + TestData.hex(tombstone.end())
          + ", "
          + tombstone.deletion()
          + ")";
    }
  }

  /** A write and the source (0..3) it landed in. */
  private record Placed(Write write, int source) {
    @Override
    public String toString() {
      return "s" + source + ":" + write;
    }
  }

  private static DeletionTime deletion(Random rnd, long ts) {
    return new DeletionTime(ts, 100 + rnd.nextInt(3));
  }

  private static Write randomWrite(Random rnd) {
    long ts = 1 + rnd.nextInt(12);
    int kind = rnd.nextInt(100);
    if (kind < 4) {
      return new PartitionDelete(deletion(rnd, ts));
    }
    if (kind < 18) {
      byte[] s;
      byte[] e;
      do {
        s = TestData.randomBound(rnd);
        e = TestData.randomBound(rnd);
      } while (Arrays.equals(s, e));
      if (Arrays.compareUnsigned(s, e) > 0) {
        byte[] t = s;
        s = e;
        e = t;
      }
      return new RangeDelete(new RangeTombstone(s, e, deletion(rnd, ts)));
    }
    byte[] c = TestData.randomRow(rnd);
    if (kind < 28) {
      return new RowWrite(Row.deletion(c, deletion(rnd, ts)));
    }
    LivenessInfo l;
    int m = rnd.nextInt(10);
    if (m < 4) {
      l = LivenessInfo.EMPTY; // an UPDATE
    } else if (m < 8) {
      l = LivenessInfo.of(ts);
    } else {
      l = LivenessInfo.expiring(ts, 1 + rnd.nextInt(5), 100);
    }
    List<Cell> cells = new ArrayList<>();
    for (int col = 0; col < COLUMNS; col++) {
      if (rnd.nextInt(3) != 0) {
        continue;
      }
      int k = rnd.nextInt(10);
      if (k < 6) {
        byte[] v = new byte[rnd.nextInt(3)];
        for (int i = 0; i < v.length; i++) {
          v[i] = (byte) (rnd.nextInt(3) * 0x7F);
        }
        cells.add(Cell.live(col, ts, v));
      } else if (k < 8) {
        cells.add(Cell.expiring(col, ts, 1 + rnd.nextInt(5), 100, new byte[] {(byte) col}));
      } else {
        cells.add(Cell.tombstone(col, ts, 100 + rnd.nextInt(3)));
      }
    }
    if (l.isEmpty() && cells.isEmpty()) {
      l = LivenessInfo.of(ts);
    }
    return new RowWrite(new Row(c, l, DeletionTime.LIVE, cells.toArray(new Cell[0])));
  }

  // ---- an in-memory source ----

  /** One source backed by a TreeMap; remembers whether the merger read it. */
  private static final class TestSource implements PartitionData {
    private final TreeMap<byte[], Row> rows = new TreeMap<>(Arrays::compareUnsigned);
    private final List<RangeTombstone> rts = new ArrayList<>();
    private DeletionTime pd = DeletionTime.LIVE;
    private long maxTimestamp = Long.MIN_VALUE;
    boolean read;

    void apply(Write w) {
      if (w instanceof RowWrite r) {
        rows.merge(r.row().clustering(), r.row(), Row::merge);
        maxTimestamp = Math.max(maxTimestamp, r.row().maxTimestamp());
      } else if (w instanceof RangeDelete r) {
        rts.add(r.tombstone());
        maxTimestamp = Math.max(maxTimestamp, r.tombstone().deletion().markedForDeleteAt());
      } else if (w instanceof PartitionDelete p) {
        pd = pd.max(p.deletion());
        maxTimestamp = Math.max(maxTimestamp, p.deletion().markedForDeleteAt());
      }
    }

    @Override
    public PartitionKey key() {
      return KEY;
    }

    @Override
    public DeletionTime partitionDeletion() {
      return pd;
    }

    @Override
    public List<RangeTombstone> rangeTombstones(Slice slice) {
      read = true;
      List<RangeTombstone> out = new ArrayList<>();
      for (RangeTombstone t : rts) {
        if (slice.intersects(t.start(), t.end())) {
          out.add(t);
        }
      }
      return out;
    }

    @Override
    public Iterator<Row> rows(Slice slice, boolean reversed) {
      read = true;
      if (slice.isEmpty()) {
        return Collections.emptyIterator();
      }
      NavigableMap<byte[], Row> sub = rows.subMap(slice.start(), false, slice.end(), false);
      return (reversed ? sub.descendingMap() : sub).values().iterator();
    }

    @Override
    public long maxTimestamp() {
      return maxTimestamp;
    }
  }

  private static List<TestSource> sources(List<Placed> writes, int count) {
    List<TestSource> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(new TestSource());
    }
    for (Placed p : writes) {
      out.get(p.source() % count).apply(p.write());
    }
    return out;
  }

  private static <T> List<T> drain(Iterator<T> it) {
    List<T> out = new ArrayList<>();
    it.forEachRemaining(out::add);
    return out;
  }

  // ---- the brute-force model ----

  /** Everything the writes say about one clustering, every version kept apart. */
  private static final class Model {
    final DeletionTime partitionDeletion;

    /** max markedForDeleteAt of the partition deletion and range tombstones covering c. */
    final long active;

    final DeletionTime rowDeletion;

    /** Versions not shadowed by any covering deletion, reconciled. */
    final LivenessInfo liveness;

    final Cell[] cells;

    Model(List<Placed> writes, byte[] c) {
      DeletionTime pd = DeletionTime.LIVE;
      long act = Long.MIN_VALUE;
      DeletionTime rd = DeletionTime.LIVE;
      for (Placed p : writes) {
        if (p.write() instanceof PartitionDelete d) {
          pd = pd.max(d.deletion());
          act = Math.max(act, d.deletion().markedForDeleteAt());
        } else if (p.write() instanceof RangeDelete r && r.tombstone().covers(c)) {
          act = Math.max(act, r.tombstone().deletion().markedForDeleteAt());
        } else if (p.write() instanceof RowWrite w && Arrays.equals(w.row().clustering(), c)) {
          rd = rd.max(w.row().deletion());
        }
      }
      long shadow = Math.max(act, rd.markedForDeleteAt());
      LivenessInfo l = LivenessInfo.EMPTY;
      TreeMap<Integer, Cell> cs = new TreeMap<>();
      for (Placed p : writes) {
        if (p.write() instanceof RowWrite w && Arrays.equals(w.row().clustering(), c)) {
          LivenessInfo wl = w.row().liveness();
          if (!wl.isEmpty() && wl.timestamp() > shadow) {
            l = l.max(wl);
          }
          for (Cell cell : w.row().cells()) {
            if (cell.timestamp() > shadow) {
              cs.merge(cell.column(), cell, Cell::reconcile);
            }
          }
        }
      }
      this.partitionDeletion = pd;
      this.active = act;
      this.rowDeletion = rd;
      this.liveness = l;
      this.cells = cs.values().toArray(new Cell[0]);
    }

    /** What a read at {@code now} returns for this clustering, or null. */
    Row live(byte[] c, long now) {
      LivenessInfo l = liveness.isLive(now) ? liveness : LivenessInfo.EMPTY;
      Cell[] kept = Arrays.stream(cells).filter(x -> x.isLive(now)).toArray(Cell[]::new);
      return l.isEmpty() && kept.length == 0 ? null : new Row(c, l, DeletionTime.LIVE, kept);
    }
  }

  private static List<Row> expectedLive(List<Placed> writes, Slice slice, long now) {
    List<Row> out = new ArrayList<>();
    for (byte[] c : TestData.allRows()) {
      if (slice.contains(c)) {
        Row r = new Model(writes, c).live(c, now);
        if (r != null) {
          out.add(r);
        }
      }
    }
    return out;
  }

  // ---- the property ----

  private record Query(int sourceCount, Slice slice, long now) {
    @Override
    public String toString() {
      return "Query{sources="
          + sourceCount
          + ", slice="
          + TestData.hex(slice.start())
          + ".."
          + TestData.hex(slice.end())
          + ", now="
          + now
          + "}";
    }
  }

  private static String firstDifference(List<Row> expected, List<Row> actual) {
    for (int i = 0; i < Math.max(expected.size(), actual.size()); i++) {
      Row e = i < expected.size() ? expected.get(i) : null;
      Row a = i < actual.size() ? actual.get(i) : null;
      if (e == null || !e.equals(a)) {
        return "at " + i + ": expected " + e + " but got " + a;
      }
    }
    return null;
  }

  /** Null if the merge agrees with the model for these writes and this query, else the problem. */
  private static String check(List<Placed> writes, Query q) {
    // 1. live rows, forward and reversed, against the model
    List<Row> expected = expectedLive(writes, q.slice(), q.now());
    List<TestSource> fwdSources = sources(writes, q.sourceCount());
    PartitionMerger.Merged fwd = PartitionMerger.merge(KEY, fwdSources, q.slice(), false);
    long[] counted = {0};
    LiveRows liveRows = new LiveRows(fwd.rows(), q.now(), n -> counted[0] += n);
    List<Row> forward = drain(liveRows);
    String diff = firstDifference(expected, forward);
    if (diff != null) {
      return "forward live rows differ " + diff;
    }
    List<Row> reversed =
        drain(
            new LiveRows(
                PartitionMerger.merge(KEY, sources(writes, q.sourceCount()), q.slice(), true)
                    .rows(),
                q.now(),
                n -> {}));
    List<Row> expectedReversed = new ArrayList<>(forward);
    Collections.reverse(expectedReversed);
    diff = firstDifference(expectedReversed, reversed);
    if (diff != null) {
      return "reversed live rows are not the forward ones reversed " + diff;
    }

    // 2. the same writes in one source give the same result
    List<Row> single =
        drain(
            new LiveRows(
                PartitionMerger.merge(KEY, sources(writes, 1), q.slice(), false).rows(),
                q.now(),
                n -> {}));
    diff = firstDifference(forward, single);
    if (diff != null) {
      return "result depends on how writes are split over sources " + diff;
    }

    // 3. the partition deletion, and which sources were read
    DeletionTime pd = new Model(writes, ClusteringBytes.EMPTY_ROW).partitionDeletion;
    if (!fwd.partitionDeletion().equals(pd)) {
      return "partition deletion " + fwd.partitionDeletion() + ", expected " + pd;
    }
    int used = 0;
    for (TestSource s : fwdSources) {
      boolean needed = pd.isLive() || s.maxTimestamp() >= pd.markedForDeleteAt();
      if (needed) {
        used++;
      } else if (s.read) {
        return "a source with maxTimestamp " + s.maxTimestamp() + " < " + pd + " was read";
      }
    }
    if (fwd.sourcesUsed() != used) {
      return "sourcesUsed " + fwd.sourcesUsed() + ", expected " + used;
    }
    if (liveRows.rowsScanned() < forward.size()) {
      return "rowsScanned " + liveRows.rowsScanned() + " < rows returned " + forward.size();
    }

    // 4. the merged view with its tombstones, clustering by clustering
    for (boolean rev : new boolean[] {false, true}) {
      PartitionMerger.Merged m =
          PartitionMerger.merge(KEY, sources(writes, q.sourceCount()), q.slice(), rev);
      List<Row> rows = drain(m.rows());
      String problem = checkMergedRows(writes, q, m, rows, rev);
      if (problem != null) {
        return (rev ? "reversed: " : "forward: ") + problem;
      }
      if (!rev) {
        long tombstones = 0;
        for (Row r : rows) {
          tombstones += r.deletion().isLive() ? 0 : 1;
          for (Cell c : r.cells()) {
            tombstones += c.isLive(q.now()) ? 0 : 1;
          }
        }
        if (tombstones != counted[0]) {
          return "LiveRows counted "
              + counted[0]
              + " tombstones; the merged rows hold "
              + tombstones;
        }
      }
    }
    return null;
  }

  private static String checkMergedRows(
      List<Placed> writes, Query q, PartitionMerger.Merged m, List<Row> rows, boolean rev) {
    for (int i = 1; i < rows.size(); i++) {
      int cmp = Arrays.compareUnsigned(rows.get(i - 1).clustering(), rows.get(i).clustering());
      if (rev ? cmp <= 0 : cmp >= 0) {
        return "rows out of order at " + i;
      }
    }
    int next = 0;
    for (byte[] c : TestData.allRows()) {
      if (!q.slice().contains(c)) {
        continue;
      }
      Model model = new Model(writes, c);
      // the normalised range deletions shadow exactly what the written ones do
      long effective =
          Math.max(
              m.partitionDeletion().markedForDeleteAt(),
              m.rangeDeletions().deletionAt(c).markedForDeleteAt());
      if (effective != model.active) {
        return "range deletion at "
            + TestData.hex(c)
            + " is "
            + effective
            + ", not "
            + model.active;
      }
      Row row = null;
      for (Row r : rows) {
        if (Arrays.equals(r.clustering(), c)) {
          row = r;
        }
      }
      long rd = model.rowDeletion.markedForDeleteAt();
      boolean dataLeft = !model.liveness.isEmpty() || model.cells.length > 0;
      if (row == null) {
        if (dataLeft || rd > model.active) {
          return "row " + TestData.hex(c) + " missing from the merged view";
        }
        continue;
      }
      next++;
      if (!row.liveness().equals(model.liveness)) {
        return "row "
            + TestData.hex(c)
            + " has marker "
            + row.liveness()
            + ", expected "
            + model.liveness;
      }
      if (!Arrays.equals(row.cells(), model.cells)) {
        return "row "
            + TestData.hex(c)
            + " has cells "
            + Arrays.toString(row.cells())
            + ", expected "
            + Arrays.toString(model.cells);
      }
      if (rd > model.active && !row.deletion().equals(model.rowDeletion)) {
        return "row "
            + TestData.hex(c)
            + " has deletion "
            + row.deletion()
            + ", expected "
            + model.rowDeletion;
      }
      if (rd < model.active && !row.deletion().isLive()) {
        return "row " + TestData.hex(c) + " keeps a covered deletion " + row.deletion();
      }
      if (!dataLeft && row.deletion().isLive()) {
        return "empty row " + TestData.hex(c) + " in the merged view";
      }
    }
    if (next != rows.size()) {
      return "merged view holds rows outside the slice: " + rows;
    }
    return null;
  }

  private static Query randomQuery(Random rnd) {
    Slice slice =
        rnd.nextInt(3) == 0
            ? Slice.ALL
            : new Slice(TestData.randomBound(rnd), TestData.randomBound(rnd));
    return new Query(1 + rnd.nextInt(4), slice, 99 + rnd.nextInt(8));
  }

  @ParameterizedTest(name = "seed={0}")
  @ValueSource(longs = {1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 0xDEADBEEFL, 20260101L})
  void mergeAgreesWithBruteForceModel(long seed) {
    Random rnd = new Random(seed);
    for (int iter = 0; iter < 400; iter++) {
      List<Placed> writes = new ArrayList<>();
      int n = 1 + rnd.nextInt(30);
      for (int i = 0; i < n; i++) {
        writes.add(new Placed(randomWrite(rnd), rnd.nextInt(4)));
      }
      for (int split = 0; split < 3; split++) {
        Query q = randomQuery(rnd);
        String problem = check(writes, q);
        if (problem != null) {
          List<Placed> minimal = TestData.shrink(writes, w -> check(w, q) != null);
          throw new AssertionError(
              "seed="
                  + seed
                  + " iteration="
                  + iter
                  + " "
                  + q
                  + ": "
                  + problem
                  + "\nminimal writes: "
                  + minimal
                  + "\nminimal problem: "
                  + check(minimal, q));
        }
        // the next round uses a different split of the same writes
        List<Placed> resplit = new ArrayList<>();
        for (Placed p : writes) {
          resplit.add(new Placed(p.write(), rnd.nextInt(4)));
        }
        writes = resplit;
      }
    }
  }

  // ---- examples ----

  private static final byte[] C1 = TestData.row(1);
  private static final byte[] C2 = TestData.row(2);
  private static final byte[] C3 = TestData.row(3);

  private static TestSource source(Write... writes) {
    TestSource s = new TestSource();
    for (Write w : writes) {
      s.apply(w);
    }
    return s;
  }

  private static RowWrite insert(byte[] c, long ts, Cell... cells) {
    return new RowWrite(new Row(c, LivenessInfo.of(ts), DeletionTime.LIVE, cells));
  }

  @Test
  void sourceOlderThanPartitionDeletionIsNotRead() {
    TestSource old = source(insert(C1, 4, Cell.live(0, 4, new byte[] {1})));
    TestSource deleting = source(new PartitionDelete(new DeletionTime(5, 100)));
    TestSource fresh = source(insert(C2, 6, Cell.live(0, 6, new byte[] {2})));
    PartitionMerger.Merged m =
        PartitionMerger.merge(KEY, List.of(old, deleting, fresh), Slice.ALL, false);
    List<Row> rows = drain(m.rows());
    // a source whose newest data ties with the deletion is still read: a tombstone there with the
    // same timestamp and a later deletion time supersedes it, whatever the flush order was
    assertThat(m.sourcesUsed()).isEqualTo(2);
    assertThat(old.read).isFalse();
    assertThat(deleting.read).isTrue();
    assertThat(fresh.read).isTrue();
    assertThat(m.partitionDeletion()).isEqualTo(new DeletionTime(5, 100));
    assertThat(rows).extracting(Row::clustering).containsExactly(C2);
  }

  @Test
  void mergeReconcilesAcrossSourcesAndKeepsTombstones() {
    TestSource a =
        source(
            insert(C1, 1, Cell.live(0, 1, new byte[] {1}), Cell.live(1, 1, new byte[] {1})),
            insert(C3, 1, Cell.live(0, 1, new byte[] {3})));
    TestSource b =
        source(
            new RowWrite(
                new Row(
                    C1,
                    LivenessInfo.EMPTY,
                    DeletionTime.LIVE,
                    new Cell[] {Cell.tombstone(1, 2, 100)})),
            new RowWrite(Row.deletion(C2, new DeletionTime(4, 100))),
            new RangeDelete(
                new RangeTombstone(
                    TestData.bound(false, 3), TestData.bound(true, 3), new DeletionTime(1, 100))));
    PartitionMerger.Merged m = PartitionMerger.merge(KEY, List.of(a, b), Slice.ALL, false);
    List<Row> rows = drain(m.rows());
    assertThat(m.sourcesUsed()).isEqualTo(2);
    assertThat(rows)
        .containsExactly(
            new Row(
                C1,
                LivenessInfo.of(1),
                DeletionTime.LIVE,
                new Cell[] {Cell.live(0, 1, new byte[] {1}), Cell.tombstone(1, 2, 100)}),
            Row.deletion(C2, new DeletionTime(4, 100)));
    assertThat(m.rangeDeletions().intervals()).hasSize(1);
  }

  @Test
  void liveRowsCountsRowDeletionsAndDeadCells() {
    List<Row> merged =
        List.of(
            Row.deletion(C1, new DeletionTime(4, 100)),
            new Row(
                C2,
                LivenessInfo.EMPTY,
                DeletionTime.LIVE,
                new Cell[] {
                  Cell.live(0, 1, new byte[] {1}),
                  Cell.tombstone(1, 2, 100),
                  Cell.expiring(2, 1, 10, 100, new byte[] {2}), // expires at 110
                  Cell.expiring(3, 1, 20, 100, new byte[] {3}) // expires at 120
                }),
            new Row(C3, LivenessInfo.expiring(1, 10, 100), DeletionTime.LIVE, new Cell[0]));
    List<Integer> reports = new ArrayList<>();
    LiveRows live = new LiveRows(merged.iterator(), 110, reports::add);
    List<Row> rows = drain(live);
    // C1: its deletion; C2: a tombstone and an expired cell, reported together before C2 is handed
    // out. An expired marker is not counted.
    assertThat(reports).containsExactly(3);
    assertThat(live.rowsScanned()).isEqualTo(3);
    assertThat(rows)
        .containsExactly(
            new Row(
                C2,
                LivenessInfo.EMPTY,
                DeletionTime.LIVE,
                new Cell[] {
                  Cell.live(0, 1, new byte[] {1}), Cell.expiring(3, 1, 20, 100, new byte[] {3})
                }));

    // one second earlier the expiring cell and the marker are still live
    List<Integer> earlier = new ArrayList<>();
    List<Row> before = drain(new LiveRows(merged.iterator(), 109, earlier::add));
    assertThat(earlier).containsExactly(2);
    assertThat(before).extracting(Row::clustering).containsExactly(C2, C3);
    assertThat(before.get(1).liveness()).isEqualTo(LivenessInfo.expiring(1, 10, 100));
  }

  @Test
  void tombstoneCounterCanAbortTheRead() {
    // Counts arrive in batches of LiveRows.BATCH while only tombstones are scanned, so a counter
    // that throws at a threshold stops the read at most one batch late, long before the end.
    int deletions = 10 * LiveRows.BATCH;
    List<Row> merged = new ArrayList<>();
    for (int i = 0; i < deletions; i++) {
      merged.add(Row.deletion(intRow(i), new DeletionTime(4, 100)));
    }
    merged.add(new Row(intRow(deletions), LivenessInfo.of(1), DeletionTime.LIVE, new Cell[0]));
    int[] total = {0};
    LiveRows live =
        new LiveRows(
            merged.iterator(),
            100,
            n -> {
              total[0] += n;
              if (total[0] > 100) {
                throw new IllegalStateException("too many tombstones: " + total[0]);
              }
            });
    assertThatThrownBy(live::hasNext)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("too many tombstones: " + 2 * LiveRows.BATCH);
    assertThat(live.rowsScanned()).isEqualTo(2 * LiveRows.BATCH);
  }

  private static byte[] intRow(int i) {
    return ClusteringBytes.row(List.of(java.nio.ByteBuffer.allocate(4).putInt(i).array()));
  }
}
