package dev.talus.memtable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.data.Cell;
import dev.talus.data.ClusteringBytes;
import dev.talus.data.DeletionTime;
import dev.talus.data.LivenessInfo;
import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionUpdate;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.data.RowVisitor;
import dev.talus.data.SimpleRow;
import dev.talus.data.Slice;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A memtable partition's visit hands out exactly the rows its iterator decodes, in order: simple
 * rows and bare row deletions read in place and rebuilt equal the decoded rows, every other kind of
 * row (TTLs, cell tombstones, counters, collections, deletions beside data) comes decoded, and a
 * visitor that stops stops the visit. A partition deletion, or a range tombstone meeting the slice,
 * refuses the visit. Seeded: the parameter is the seed.
 */
class MemPartitionVisitTest {
  private static final PartitionKey KEY = PartitionKey.of(new byte[] {1, 2, 3});

  @ParameterizedTest
  @ValueSource(longs = {21, 22, 23, 24})
  void aVisitSeesWhatTheRowsAre(long seed) {
    System.out.println("MemPartitionVisitTest seed " + seed);
    Random rnd = new Random(seed);
    Memtable m = new Memtable();
    for (int i = 0; i < 600; i++) {
      m.apply(PartitionUpdate.builder(KEY).addRow(row(rnd, rnd.nextInt(200))).build());
    }
    MemPartition p = m.get(KEY);
    int[] kinds = new int[3];
    for (int probe = 0; probe < 500; probe++) {
      int lo = rnd.nextInt(220);
      int hi = lo + rnd.nextInt(60);
      Slice slice =
          rnd.nextInt(10) == 0
              ? Slice.ROWS
              : new Slice(bound(lo, rnd.nextBoolean()), bound(hi, rnd.nextBoolean()));
      int stopAfter = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(10) : Integer.MAX_VALUE;
      List<Row> seen = new ArrayList<>();
      assertThat(p.visit(slice, collector(seen, stopAfter, kinds))).isTrue();
      List<Row> want = new ArrayList<>();
      Iterator<Row> it = p.rows(slice, false);
      while (it.hasNext() && want.size() < stopAfter) {
        want.add(it.next());
      }
      assertThat(seen).as("seed %d slice %s", seed, slice).isEqualTo(want);
    }
    System.out.printf(
        "MemPartitionVisitTest seed %d: %d simple, %d row tombstones, %d decoded%n",
        seed, kinds[0], kinds[1], kinds[2]);
    assertThat(kinds[0]).as("simple rows seen in place").isPositive();
    assertThat(kinds[1]).as("row tombstones seen in place").isPositive();
    assertThat(kinds[2]).as("rows decoded").isPositive();
  }

  @Test
  void aPartitionDeletionOrAMeetingRangeTombstoneRefusesTheVisit() {
    Random rnd = new Random(5);
    Memtable m = new Memtable();
    for (int c = 0; c < 20; c++) {
      m.apply(PartitionUpdate.builder(KEY).addRow(simpleRow(rnd, c)).build());
    }
    m.apply(
        PartitionUpdate.builder(KEY)
            .addRangeTombstone(
                new RangeTombstone(bound(5, false), bound(8, true), new DeletionTime(10, 100)))
            .build());
    MemPartition p = m.get(KEY);
    List<Row> seen = new ArrayList<>();
    assertThat(p.visit(new Slice(bound(0, false), bound(6, false)), collector(seen, 100, null)))
        .isFalse();
    assertThat(seen).isEmpty();
    assertThat(p.visit(new Slice(bound(10, false), bound(15, false)), collector(seen, 100, null)))
        .isTrue();
    assertThat(seen).hasSize(5);

    m.apply(PartitionUpdate.builder(KEY).deletePartition(new DeletionTime(1, 100)).build());
    seen.clear();
    assertThat(p.visit(new Slice(bound(10, false), bound(15, false)), collector(seen, 100, null)))
        .isFalse();
    assertThat(seen).isEmpty();
  }

  private static RowVisitor collector(List<Row> seen, int stopAfter, int[] kinds) {
    return new RowVisitor() {
      @Override
      public boolean simple(SimpleRow row) {
        count(0);
        seen.add(rebuild(row));
        return seen.size() < stopAfter;
      }

      @Override
      public boolean rowTombstone(SimpleRow row, long markedForDeleteAt, long localDeletionTime) {
        count(1);
        seen.add(
            Row.deletion(row.clustering(), new DeletionTime(markedForDeleteAt, localDeletionTime)));
        return seen.size() < stopAfter;
      }

      @Override
      public boolean other(Row row) {
        count(2);
        seen.add(row);
        return seen.size() < stopAfter;
      }

      private void count(int kind) {
        if (kinds != null) {
          kinds[kind]++;
        }
      }
    };
  }

  /** The row a simple row stands for, as the decoder builds it. */
  private static Row rebuild(SimpleRow row) {
    Cell[] cells = new Cell[row.cellCount()];
    for (int i = 0; i < cells.length; i++) {
      cells[i] = Cell.live(row.column(i), row.timestamp(i), row.value(i));
    }
    LivenessInfo l = row.hasMarker() ? LivenessInfo.of(row.markerTimestamp()) : LivenessInfo.EMPTY;
    return new Row(row.clustering(), l, DeletionTime.LIVE, cells);
  }

  /** A simple row, a bare row deletion, or any row at all, at clustering {@code c}. */
  private static Row row(Random rnd, int c) {
    return switch (rnd.nextInt(10)) {
      case 0, 1, 2, 3 -> simpleRow(rnd, c);
      case 4 -> Row.deletion(MemtableTest.clustering(c), new DeletionTime(rnd.nextInt(900), 1_000));
      default -> MemtableTest.randomRow(rnd, MemtableTest.clustering(c));
    };
  }

  /** Live cells of single-cell columns, a marker or not, some empty values, sometimes 15+ cells. */
  private static Row simpleRow(Random rnd, int c) {
    long ts = 1_000 + rnd.nextInt(1000);
    LivenessInfo l = rnd.nextBoolean() ? LivenessInfo.of(ts) : LivenessInfo.EMPTY;
    int n = rnd.nextInt(8) == 0 ? 15 + rnd.nextInt(10) : rnd.nextInt(5);
    if (n == 0 && l.isEmpty()) {
      n = 1;
    }
    Cell[] cells = new Cell[n];
    for (int i = 0; i < n; i++) {
      byte[] v = new byte[rnd.nextInt(4) == 0 ? 0 : 1 + rnd.nextInt(30)];
      rnd.nextBytes(v);
      cells[i] = Cell.live(i, rnd.nextBoolean() ? ts : ts + rnd.nextInt(50), v);
    }
    return new Row(MemtableTest.clustering(c), l, DeletionTime.LIVE, cells);
  }

  private static byte[] bound(int i, boolean after) {
    return ClusteringBytes.bound(List.of(MemtableTest.intBytes(i)), after);
  }
}
