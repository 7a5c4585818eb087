package dev.talus.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Model-based tests of the merge for the value kinds beyond scalars: element cells of a complex
 * column (each with its own path, timestamp and TTL), complex-column deletions (a collection
 * overwrite), counter cells (last write wins, like any cell) and the static row (never inside a
 * slice of rows, untouched by row and range deletions, deleted by a partition deletion). Random
 * writes are spread over one to four sources; the merge must not depend on how they are spread, and
 * what a read keeps must equal a brute-force model over every written version.
 */
class ComplexColumnMergeTest {
  private static final PartitionKey KEY = PartitionKey.of(new byte[] {9});
  private static final int COMPLEX = 0;
  private static final int SIMPLE = 1;
  private static final int COUNTER = 2;
  private static final long NOW = 105;

  /** The static row and three rows. */
  private static final byte[][] CLUSTERINGS = {
    ClusteringBytes.STATIC, TestData.row(0), TestData.row(1), TestData.row(2)
  };

  private sealed interface Write permits RowWrite, PartitionDelete, RangeDelete {}

  private record RowWrite(Row row) implements Write {}

  private record PartitionDelete(DeletionTime deletion) implements Write {}

  private record RangeDelete(RangeTombstone tombstone) implements Write {}

  private static byte[] total(long v) {
    return ByteBuffer.allocate(8).putLong(v).array();
  }

  private static Write randomWrite(Random rnd) {
    long ts = 1 + rnd.nextInt(10);
    long ldt = 100 + rnd.nextInt(3);
    int kind = rnd.nextInt(100);
    if (kind < 4) {
      return new PartitionDelete(new DeletionTime(ts, ldt));
    }
    if (kind < 12) {
      byte[] s = TestData.bound(false, rnd.nextInt(TestData.VALUES.length));
      byte[] e = rnd.nextBoolean() ? ClusteringBytes.TOP : TestData.bound(true, 4);
      if (Arrays.compareUnsigned(s, e) >= 0) {
        s = ClusteringBytes.BOTTOM;
      }
      return new RangeDelete(new RangeTombstone(s, e, new DeletionTime(ts, ldt)));
    }
    byte[] c = CLUSTERINGS[rnd.nextInt(CLUSTERINGS.length)];
    boolean isStatic = ClusteringBytes.isStatic(c);
    if (kind < 18 && !isStatic) {
      return new RowWrite(Row.deletion(c, new DeletionTime(ts, ldt)));
    }
    List<ComplexDeletion> cds = new ArrayList<>();
    List<Cell> cells = new ArrayList<>();
    if (rnd.nextInt(4) == 0) {
      cds.add(new ComplexDeletion(COMPLEX, new DeletionTime(ts - rnd.nextInt(2), ldt)));
    }
    for (int p = 1; p <= 3; p++) {
      if (rnd.nextInt(3) != 0) {
        continue;
      }
      byte[] path = {(byte) p};
      int k = rnd.nextInt(6);
      cells.add(
          k == 0
              ? Cell.elementTombstone(COMPLEX, path, ts, ldt)
              : Cell.element(
                  COMPLEX, path, ts, k == 1 ? 1 + rnd.nextInt(8) : 0, 100, new byte[] {(byte) k}));
    }
    if (rnd.nextBoolean()) {
      cells.add(
          rnd.nextInt(4) == 0
              ? Cell.tombstone(SIMPLE, ts, ldt)
              : Cell.live(SIMPLE, ts, new byte[] {(byte) rnd.nextInt(3)}));
    }
    if (rnd.nextInt(3) == 0) {
      cells.add(
          rnd.nextInt(5) == 0
              ? Cell.counterTombstone(COUNTER, ts, ldt)
              : Cell.counter(COUNTER, ts, total(rnd.nextInt(50))));
    }
    LivenessInfo l = !isStatic && rnd.nextInt(3) == 0 ? LivenessInfo.of(ts) : LivenessInfo.EMPTY;
    if (cells.isEmpty() && cds.isEmpty() && l.isEmpty()) {
      cells.add(Cell.live(SIMPLE, ts, new byte[] {7}));
    }
    return new RowWrite(
        new Row(
            c,
            l,
            DeletionTime.LIVE,
            cds.toArray(new ComplexDeletion[0]),
            cells.toArray(new Cell[0])));
  }

  /** One in-memory source. */
  private static final class Source implements PartitionData {
    final TreeMap<byte[], Row> rows = new TreeMap<>(Arrays::compareUnsigned);
    final List<RangeTombstone> rts = new ArrayList<>();
    DeletionTime pd = DeletionTime.LIVE;

    void apply(Write w) {
      if (w instanceof RowWrite r) {
        rows.merge(r.row().clustering(), r.row(), Row::merge);
      } else if (w instanceof RangeDelete r) {
        rts.add(r.tombstone());
      } else if (w instanceof PartitionDelete p) {
        pd = pd.max(p.deletion());
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
      return rts;
    }

    @Override
    public Iterator<Row> rows(Slice slice, boolean reversed) {
      if (slice.isEmpty()) {
        return Collections.emptyIterator();
      }
      NavigableMap<byte[], Row> sub = rows.subMap(slice.start(), false, slice.end(), false);
      return (reversed ? sub.descendingMap() : sub).values().iterator();
    }
  }

  private static List<Source> spread(List<Write> writes, int count, Random rnd) {
    List<Source> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(new Source());
    }
    for (Write w : writes) {
      out.get(rnd.nextInt(count)).apply(w);
    }
    return out;
  }

  private static List<Row> merged(List<Source> sources, Slice slice, boolean reversed) {
    List<Row> out = new ArrayList<>();
    PartitionMerger.merge(KEY, sources, slice, reversed).rows().forEachRemaining(out::add);
    if (reversed) {
      Collections.reverse(out);
    }
    return out;
  }

  private static List<Row> live(List<Source> sources, Slice slice) {
    List<Row> out = new ArrayList<>();
    new LiveRows(PartitionMerger.merge(KEY, sources, slice, false).rows(), NOW, t -> {})
        .forEachRemaining(out::add);
    return out;
  }

  /** What a read keeps, by brute force: row → "col/path" → the winning live value. */
  private static Map<String, Map<String, String>> model(List<Write> writes, Slice slice) {
    DeletionTime pd = DeletionTime.LIVE;
    List<RangeTombstone> rts = new ArrayList<>();
    for (Write w : writes) {
      if (w instanceof PartitionDelete p) {
        pd = pd.max(p.deletion());
      } else if (w instanceof RangeDelete r) {
        rts.add(r.tombstone());
      }
    }
    Map<String, Map<String, String>> out = new LinkedHashMap<>();
    for (byte[] c : CLUSTERINGS) {
      if (!slice.contains(c)) {
        continue;
      }
      DeletionTime active = pd;
      for (RangeTombstone t : rts) {
        if (t.covers(c)) {
          active = active.max(t.deletion());
        }
      }
      DeletionTime complex = DeletionTime.LIVE;
      LivenessInfo marker = LivenessInfo.EMPTY;
      List<Row> versions = new ArrayList<>();
      for (Write w : writes) {
        if (w instanceof RowWrite rw && Arrays.equals(rw.row().clustering(), c)) {
          versions.add(rw.row());
          active = active.max(rw.row().deletion());
          complex = complex.max(rw.row().complexDeletion(COMPLEX));
          marker = marker.max(rw.row().liveness());
        }
      }
      // every version not shadowed by a deletion takes part in reconciliation (Cassandra's order)
      Map<String, Cell> winners = new TreeMap<>();
      for (Row r : versions) {
        for (Cell cell : r.cells()) {
          boolean shadowed =
              active.deletes(cell.timestamp())
                  || (cell.column() == COMPLEX && complex.deletes(cell.timestamp()));
          if (!shadowed) {
            String k = cell.column() + "/" + (cell.hasPath() ? cell.path()[0] : "-");
            winners.merge(k, cell, Cell::reconcile);
          }
        }
      }
      Map<String, String> row = new TreeMap<>();
      for (Map.Entry<String, Cell> e : winners.entrySet()) {
        if (e.getValue().isLive(NOW)) {
          row.put(e.getKey(), TestData.hex(e.getValue().value()));
        }
      }
      boolean markerLive = !active.deletes(marker.timestamp()) && marker.isLive(NOW);
      if (markerLive || !row.isEmpty()) {
        out.put(TestData.hex(c), row);
      }
    }
    return out;
  }

  private static Map<String, Map<String, String>> view(List<Row> rows) {
    Map<String, Map<String, String>> out = new LinkedHashMap<>();
    for (Row r : rows) {
      Map<String, String> row = new TreeMap<>();
      for (Cell cell : r.cells()) {
        row.put(
            cell.column() + "/" + (cell.hasPath() ? cell.path()[0] : "-"),
            TestData.hex(cell.value()));
      }
      out.put(TestData.hex(r.clustering()), row);
    }
    return out;
  }

  @ParameterizedTest(name = "seed={0}")
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
  void mergeOfComplexColumnsCountersAndStaticsAgreesWithTheModel(long seed) {
    Random rnd = new Random(seed);
    for (int round = 0; round < 300; round++) {
      List<Write> writes = new ArrayList<>();
      for (int i = 1 + rnd.nextInt(12); i > 0; i--) {
        writes.add(randomWrite(rnd));
      }
      String what = "seed=" + seed + " round=" + round + " writes=" + writes;
      List<Source> one = spread(writes, 1, rnd);
      List<Source> many = spread(writes, 1 + rnd.nextInt(4), rnd);
      // the merge does not depend on how writes are spread over sources, nor on the direction
      assertThat(merged(many, Slice.ALL, rnd.nextBoolean()))
          .as(what)
          .isEqualTo(merged(one, Slice.ALL, false));
      for (Slice slice : new Slice[] {Slice.ALL, Slice.ROWS, Slice.STATIC}) {
        assertThat(view(live(many, slice))).as(what + " " + slice).isEqualTo(model(writes, slice));
      }
      // what a merge writes out (a flush or compaction) reads back the same when merged again
      Source compacted = new Source();
      for (Row r : merged(many, Slice.ALL, false)) {
        compacted.apply(new RowWrite(r));
      }
      compacted.pd = PartitionMerger.merge(KEY, many, Slice.ALL, false).partitionDeletion();
      compacted.rts.addAll(
          PartitionMerger.merge(KEY, many, Slice.ALL, false).rangeDeletions().intervals());
      assertThat(view(live(List.of(compacted), Slice.ALL)))
          .as(what)
          .isEqualTo(model(writes, Slice.ALL));
    }
  }

  @Test
  void aCollectionOverwriteShadowsOlderElementsButNotItsOwn() {
    byte[] c = TestData.row(1);
    Source old = new Source();
    old.apply(
        new RowWrite(
            new Row(
                c,
                LivenessInfo.EMPTY,
                DeletionTime.LIVE,
                new Cell[] {
                  Cell.element(COMPLEX, new byte[] {1}, 10, 0, 100, new byte[] {1}),
                  Cell.element(COMPLEX, new byte[] {2}, 10, 0, 100, new byte[] {2})
                })));
    Source overwrite = new Source(); // SET c = {3} at 20: deletion at 19, then the new element
    overwrite.apply(
        new RowWrite(
            new Row(
                c,
                LivenessInfo.EMPTY,
                DeletionTime.LIVE,
                new ComplexDeletion[] {new ComplexDeletion(COMPLEX, new DeletionTime(19, 100))},
                new Cell[] {Cell.element(COMPLEX, new byte[] {3}, 20, 0, 100, new byte[] {3})})));
    List<Row> rows = merged(List.of(old, overwrite), Slice.ALL, false);
    assertThat(rows)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.cells()).extracting(x -> x.path()[0]).containsExactly((byte) 3);
              assertThat(r.complexDeletion(COMPLEX)).isEqualTo(new DeletionTime(19, 100));
            });
    int[] counted = {0};
    List<Row> live = new ArrayList<>();
    new LiveRows(rows.iterator(), NOW, t -> counted[0] += t).forEachRemaining(live::add);
    assertThat(counted[0]).as("the overwrite's deletion counts as a tombstone").isEqualTo(1);
    assertThat(live.get(0).complexDeletions()).isEmpty();
  }

  @Test
  void counterCellsReconcileByTimestampSoTheMergeIsOrderIndependent() {
    Cell deleted = Cell.counterTombstone(COUNTER, 5, 100);
    Cell later = Cell.counter(COUNTER, 9, total(3));
    assertThat(Cell.reconcile(deleted, later)).isSameAs(later);
    assertThat(Cell.reconcile(later, deleted)).isSameAs(later);
    Cell tie = Cell.counterTombstone(COUNTER, 9, 100);
    assertThat(Cell.reconcile(later, tie)).as("a tombstone wins a tie").isSameAs(tie);
  }

  @Test
  void theStaticRowIsOutsideEverySliceOfRowsAndEveryRangeTombstone() {
    Source s = new Source();
    s.apply(
        new RowWrite(
            new Row(
                ClusteringBytes.STATIC,
                LivenessInfo.EMPTY,
                DeletionTime.LIVE,
                new Cell[] {Cell.live(SIMPLE, 1, new byte[] {5})})));
    s.apply(
        new RangeDelete(
            new RangeTombstone(
                ClusteringBytes.BOTTOM, ClusteringBytes.TOP, new DeletionTime(50, 100))));
    assertThat(live(List.of(s), Slice.ROWS)).isEmpty();
    assertThat(live(List.of(s), Slice.STATIC)).hasSize(1);
    assertThat(live(List.of(s), Slice.ALL)).hasSize(1);
    s.apply(new PartitionDelete(new DeletionTime(2, 100)));
    assertThat(live(List.of(s), Slice.ALL)).isEmpty();
    assertThat(Slice.ROWS.contains(ClusteringBytes.STATIC)).isFalse();
    assertThat(ClusteringBytes.compare(ClusteringBytes.STATIC, ClusteringBytes.BOTTOM))
        .isNegative();
  }
}
