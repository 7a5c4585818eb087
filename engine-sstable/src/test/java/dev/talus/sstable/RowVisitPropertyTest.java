package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.data.Cell;
import dev.talus.data.DeletionTime;
import dev.talus.data.LivenessInfo;
import dev.talus.data.PartitionData;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.data.RowVisitor;
import dev.talus.data.SimpleRow;
import dev.talus.data.Slice;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A visit hands out exactly the rows the partition view iterates, in order: simple rows and bare
 * row deletions rebuilt from what the visitor saw equal the decoded rows, and a visitor that stops
 * stops the visit. A visit is refused exactly when a partition deletion or a range tombstone meets
 * the slice. Small chunks make rows cross chunk boundaries. Seeded: the parameter is the seed.
 */
class RowVisitPropertyTest {
  @TempDir Path dir;

  private final StorageFs fs = new NioStorageFs();

  @ParameterizedTest
  @ValueSource(longs = {11, 12, 13, 14})
  void aVisitSeesWhatTheRowsAre(long seed) throws Exception {
    System.out.println("RowVisitPropertyTest seed " + seed);
    Random r = new Random(seed);
    SSTableOptions opts =
        SSTableOptions.builder()
            .chunkSize(seed % 2 == 0 ? 1024 : 16384)
            .rowIndexBlockSize(seed % 2 == 0 ? 512 : 64 * 1024)
            .build();
    List<TestData.Partition> parts = TestData.partitions(r, 150, 300);
    TestData.write(fs, dir, seed, parts, opts);
    SSTableReader reader = SSTableReader.open(fs, dir, seed, ChunkCache.create(1 << 20));
    int visited = 0;
    int simple = 0;
    int tombstones = 0;
    try {
      for (int probe = 0; probe < 1_500; probe++) {
        TestData.Partition p = parts.get(r.nextInt(parts.size()));
        int lo = r.nextInt(3 * p.rows().size() + 10);
        int hi = lo + r.nextInt(2 * p.rows().size() + 10);
        Slice slice =
            r.nextInt(8) == 0
                ? Slice.ROWS
                : new Slice(TestData.bound(lo, false), TestData.bound(hi, true));
        int stopAfter = r.nextInt(4) == 0 ? 1 + r.nextInt(20) : Integer.MAX_VALUE;
        PartitionData d = reader.partition(p.key());
        List<Row> seen = new ArrayList<>();
        int[] kinds = new int[2];
        boolean visitedIt =
            d.visit(
                slice,
                new RowVisitor() {
                  @Override
                  public boolean simple(SimpleRow row) {
                    seen.add(rebuild(row));
                    kinds[0]++;
                    return seen.size() < stopAfter;
                  }

                  @Override
                  public boolean rowTombstone(SimpleRow row, long m, long ldt) {
                    seen.add(Row.deletion(row.clustering(), new DeletionTime(m, ldt)));
                    kinds[1]++;
                    return seen.size() < stopAfter;
                  }

                  @Override
                  public boolean other(Row row) {
                    seen.add(row);
                    return seen.size() < stopAfter;
                  }
                });
        boolean shadowing = !d.partitionDeletion().isLive();
        for (RangeTombstone t : d.rangeTombstones(slice)) {
          shadowing |= slice.intersects(t.start(), t.end());
        }
        String where = "seed " + seed + " partition " + p.key() + " slice " + slice;
        assertThat(visitedIt).as(where).isEqualTo(!shadowing);
        if (!visitedIt) {
          assertThat(seen).as(where).isEmpty();
          continue;
        }
        List<Row> want = new ArrayList<>();
        Iterator<Row> it = d.rows(slice, false);
        while (it.hasNext() && want.size() < stopAfter) {
          want.add(it.next());
        }
        assertThat(seen).as(where).isEqualTo(want);
        visited++;
        simple += kinds[0];
        tombstones += kinds[1];
      }
    } finally {
      reader.release();
    }
    System.out.printf(
        "RowVisitPropertyTest seed %d: %d visits, %d simple rows, %d row tombstones%n",
        seed, visited, simple, tombstones);
    assertThat(simple).as("simple rows seen in place").isPositive();
    assertThat(tombstones).as("row tombstones seen in place").isPositive();
  }

  @Test
  void rowsOfManyCellsAreSeenWhole() throws Exception {
    // 20 cells a row: the row buffer makes room for the count before the cells
    List<TestData.Partition> parts = new ArrayList<>();
    java.util.TreeMap<dev.talus.data.PartitionKey, Boolean> keys = new java.util.TreeMap<>();
    for (int k = 0; k < 3; k++) {
      keys.put(dev.talus.data.PartitionKey.of(new byte[] {(byte) k, 7}), Boolean.TRUE);
    }
    for (dev.talus.data.PartitionKey key : keys.keySet()) {
      List<Row> rows = new ArrayList<>();
      for (int c = 0; c < 5; c++) {
        Cell[] cells = new Cell[20];
        for (int i = 0; i < cells.length; i++) {
          cells[i] = Cell.live(i, TestData.BASE_TS + c, new byte[] {(byte) i, (byte) c});
        }
        rows.add(new Row(TestData.ck(c), LivenessInfo.EMPTY, DeletionTime.LIVE, cells));
      }
      parts.add(new TestData.Partition(key, DeletionTime.LIVE, List.of(), rows));
    }
    TestData.write(fs, dir, 9, parts, SSTableOptions.builder().build());
    SSTableReader reader = SSTableReader.open(fs, dir, 9, ChunkCache.create(1 << 20));
    try {
      for (TestData.Partition p : parts) {
        List<Row> seen = new ArrayList<>();
        PartitionData d = reader.partition(p.key());
        assertThat(
                d.visit(
                    Slice.ROWS,
                    new RowVisitor() {
                      @Override
                      public boolean simple(SimpleRow row) {
                        seen.add(rebuild(row));
                        return true;
                      }

                      @Override
                      public boolean rowTombstone(SimpleRow row, long m, long ldt) {
                        throw new AssertionError("no row tombstones were written");
                      }

                      @Override
                      public boolean other(Row row) {
                        throw new AssertionError("every row is simple");
                      }
                    }))
            .isTrue();
        assertThat(seen).isEqualTo(p.rows());
      }
    } finally {
      reader.release();
    }
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
}
