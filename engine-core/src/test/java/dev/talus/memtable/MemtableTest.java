package dev.talus.memtable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.talus.data.Cell;
import dev.talus.data.ClusteringBytes;
import dev.talus.data.ComplexDeletion;
import dev.talus.data.DeletionTime;
import dev.talus.data.LivenessInfo;
import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionUpdate;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

/**
 * The memtable's encoded rows and its heap accounting. Seeded random tests print their seed; replay
 * one with {@code -Dtalus.memtable.seed=N}.
 */
class MemtableTest {
  @Test
  void encodedRowsDecodeToTheSameRow() {
    long seed = MemtableSeed.next(MemtableTest.class);
    Random rnd = new Random(seed);
    for (int i = 0; i < 20_000; i++) {
      Row r = randomRow(rnd, clustering(rnd.nextInt(50)));
      Row back = RowCodec.decode(r.clustering(), RowCodec.encode(r));
      assertEquals(r, back, "seed " + seed + ", row " + i);
      // a partition's first row, encoded straight into its chunk record, reads back the same
      RowChunk one = RowChunk.of(r);
      assertEquals(1, one.size(), "seed " + seed);
      assertEquals(r, one.row(0), "seed " + seed + ", row " + i);
      assertEquals(RowChunk.of(r.clustering(), RowCodec.encode(r)).heapSize(), one.heapSize());
      assertEquals(r.liveness(), back.liveness(), "seed " + seed);
      assertEquals(r.deletion(), back.deletion(), "seed " + seed);
    }
  }

  @Test
  void aRowOfOneHundredByteValueTakesTwelveBytesBesideIt() {
    Row r =
        new Row(
            clustering(7),
            LivenessInfo.of(1_000),
            DeletionTime.LIVE,
            new Cell[] {Cell.live(1, 1_000, new byte[100])});
    // head (with the cell count), marker timestamp, column, flags, value length
    assertEquals(100 + 1 + 8 + 1 + 1 + 1, RowCodec.encode(r).length);
  }

  @Test
  void memtableHoldsWhatTheReconciledUpdatesSay() {
    long seed = MemtableSeed.next(MemtableTest.class);
    Random rnd = new Random(seed);
    Memtable m = new Memtable();
    TreeMap<PartitionKey, TreeMap<byte[], Row>> model = new TreeMap<>();
    TreeMap<PartitionKey, DeletionTime> deletions = new TreeMap<>();
    for (int i = 0; i < 5_000; i++) {
      PartitionUpdate u = randomUpdate(rnd);
      m.apply(u);
      TreeMap<byte[], Row> rows =
          model.computeIfAbsent(u.key(), k -> new TreeMap<>(Arrays::compareUnsigned));
      for (Row r : u.rows()) {
        rows.merge(r.clustering(), r, Row::merge);
      }
      deletions.merge(u.key(), u.partitionDeletion(), DeletionTime::max);
    }
    assertEquals(model.size(), m.partitionCount(), "seed " + seed);
    for (var e : model.entrySet()) {
      MemPartition p = m.get(e.getKey());
      assertEquals(deletions.get(e.getKey()), p.partitionDeletion(), "seed " + seed);
      List<Row> got = new ArrayList<>();
      p.rows(Slice.ALL, false).forEachRemaining(got::add);
      assertEquals(new ArrayList<>(e.getValue().values()), got, "seed " + seed);
      List<Row> reversed = new ArrayList<>();
      p.rows(Slice.ALL, true).forEachRemaining(reversed::add);
      java.util.Collections.reverse(reversed);
      assertEquals(got, reversed, "seed " + seed);
      for (int k = 0; k < 20; k++) {
        Slice slice = randomSlice(rnd);
        List<Row> want = new ArrayList<>();
        for (Row r : e.getValue().values()) {
          if (slice.contains(r.clustering())) {
            want.add(r);
          }
        }
        List<Row> forward = new ArrayList<>();
        p.rows(slice, false).forEachRemaining(forward::add);
        assertEquals(want, forward, "seed " + seed + ", " + slice);
        List<Row> backward = new ArrayList<>();
        p.rows(slice, true).forEachRemaining(backward::add);
        java.util.Collections.reverse(backward);
        assertEquals(want, backward, "seed " + seed + ", reversed " + slice);
      }
      for (int c = 0; c < 100; c++) {
        assertEquals(e.getValue().containsKey(clustering(c)), p.hasRow(clustering(c)));
      }
      assertEquals(e.getValue().size(), p.rowCount(), "seed " + seed);
    }
  }

  @Test
  void aReaderMeetsEveryRowOnceInOrderWhileChunksSplit() throws Exception {
    long seed = MemtableSeed.next(MemtableTest.class);
    Memtable m = new Memtable();
    PartitionKey key = PartitionKey.of(new byte[] {7});
    int rows = 20_000;
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      order.add(i);
    }
    java.util.Collections.shuffle(order, new Random(seed));
    java.util.concurrent.atomic.AtomicInteger applied =
        new java.util.concurrent.atomic.AtomicInteger();
    Thread writer =
        new Thread(
            () -> {
              for (int i = 0; i < rows; i++) {
                m.apply(update(key, order.get(i), i, 30));
                applied.set(i + 1);
              }
            });
    writer.start();
    int reads = 0;
    while (reads < 200 || applied.get() < rows) {
      int before = applied.get();
      if (before == 0) {
        continue;
      }
      boolean reversed = reads % 2 == 1;
      java.util.Set<Integer> seen = new java.util.HashSet<>();
      byte[] previous = null;
      Iterator<Row> it = m.get(key).rows(Slice.ALL, reversed);
      while (it.hasNext()) {
        byte[] c = it.next().clustering();
        if (previous != null) {
          int cmp = Arrays.compareUnsigned(previous, c);
          assertTrue(reversed ? cmp > 0 : cmp < 0, "seed " + seed + ": out of order or twice");
        }
        previous = c;
        seen.add(java.nio.ByteBuffer.wrap(c, 1, 4).getInt());
      }
      for (int i = 0; i < before; i++) {
        assertTrue(
            seen.contains(order.get(i)), "seed " + seed + ": row " + order.get(i) + " missed");
      }
      reads++;
    }
    writer.join();
    assertEquals(rows, m.get(key).rowCount());
    assertEquals(m.recount(), m.liveBytes(), "seed " + seed);
  }

  @Test
  void aReaderMeetsEveryRowOnceInOrderWhileRowsAreAppended() throws Exception {
    // rows in clustering order go into the last chunk's spare room, shared with the chunk before
    long seed = MemtableSeed.next(MemtableTest.class);
    Random rnd = new Random(seed);
    Memtable m = new Memtable();
    PartitionKey key = PartitionKey.of(new byte[] {8});
    int rows = 20_000;
    java.util.concurrent.atomic.AtomicInteger applied =
        new java.util.concurrent.atomic.AtomicInteger();
    Thread writer =
        new Thread(
            () -> {
              for (int i = 0; i < rows; i++) {
                m.apply(update(key, i, i, 1 + (i * 7919) % 200));
                applied.set(i + 1);
              }
            });
    writer.start();
    int reads = 0;
    while (reads < 200 || applied.get() < rows) {
      int before = applied.get();
      if (before == 0) {
        continue;
      }
      boolean reversed = rnd.nextBoolean();
      int from = rnd.nextInt(before);
      Slice slice =
          new Slice(
              rnd.nextBoolean() ? ClusteringBytes.BOTTOM : clustering(from), ClusteringBytes.TOP);
      int expected = slice.contains(clustering(from)) ? from : from + 1;
      if (slice.start() == ClusteringBytes.BOTTOM) {
        expected = 0;
      }
      List<Integer> seen = new ArrayList<>();
      Iterator<Row> it = m.get(key).rows(slice, reversed);
      while (it.hasNext()) {
        Row r = it.next();
        seen.add(java.nio.ByteBuffer.wrap(r.clustering(), 1, 4).getInt());
        assertEquals(1, r.cells().length, "seed " + seed);
      }
      if (reversed) {
        java.util.Collections.reverse(seen);
      }
      assertTrue(seen.size() >= before - expected, "seed " + seed + ": rows missed");
      for (int i = 0; i < seen.size(); i++) {
        assertEquals(expected + i, seen.get(i), "seed " + seed + ": out of order, twice or missed");
      }
      reads++;
    }
    writer.join();
    assertEquals(rows, m.get(key).rowCount());
    assertEquals(m.recount(), m.liveBytes(), "seed " + seed);
  }

  @Test
  void aChunkStaysAsItWasWhileItsSuccessorsTakeRowsInItsSpareRoom() {
    long seed = MemtableSeed.next(MemtableTest.class);
    Random rnd = new Random(seed);
    List<RowChunk> views = new ArrayList<>();
    List<Row> rows = new ArrayList<>();
    RowChunk c = null;
    for (int i = 0; i < RowChunk.MAX_ROWS; i++) {
      Row r = randomRow(rnd, clustering(i));
      rows.add(r);
      c =
          c == null
              ? RowChunk.of(r.clustering(), RowCodec.encode(r))
              : c.insert(c.size(), r.clustering(), RowCodec.encode(r));
      views.add(c);
    }
    for (int v = 0; v < views.size(); v++) {
      RowChunk view = views.get(v);
      assertEquals(v + 1, view.size(), "seed " + seed);
      for (int i = 0; i <= v; i++) {
        assertEquals(rows.get(i), view.row(i), "seed " + seed + ", view " + v + ", row " + i);
      }
    }
  }

  private static Slice randomSlice(Random rnd) {
    byte[] lo = rnd.nextInt(5) == 0 ? ClusteringBytes.BOTTOM : clustering(rnd.nextInt(110) - 5);
    byte[] hi = rnd.nextInt(5) == 0 ? ClusteringBytes.TOP : clustering(rnd.nextInt(110) - 5);
    return new Slice(lo, hi);
  }

  @Test
  void accountedBytesAreTheSumOfWhatIsHeldThroughOverwritesAndDeletions() {
    long seed = MemtableSeed.next(MemtableTest.class);
    Random rnd = new Random(seed);
    Memtable m = new Memtable();
    long sum = 0;
    for (int i = 0; i < 5_000; i++) {
      sum += m.apply(randomUpdate(rnd));
      assertEquals(sum, m.liveBytes(), "seed " + seed + ", update " + i);
      if (i % 500 == 0) {
        assertEquals(m.recount(), m.liveBytes(), "seed " + seed + ", update " + i);
      }
    }
    assertEquals(m.recount(), m.liveBytes(), "seed " + seed);
  }

  @Test
  void anOverwriteOfTheSameSizeAddsNothingAndASmallerOneFrees() {
    Memtable m = new Memtable();
    PartitionKey key = PartitionKey.of(new byte[] {1, 2, 3, 4});
    long first = m.apply(update(key, 5, 10, 100));
    assertTrue(first > 100 + 16, "a new row costs its arrays and its node: " + first);
    assertEquals(0, m.apply(update(key, 5, 11, 100)));
    assertEquals(
        -HeapLayout.byteArray(112) + HeapLayout.byteArray(22), m.apply(update(key, 5, 12, 10)));
    assertEquals(m.recount(), m.liveBytes());
    Row r = m.get(key).rows(Slice.ALL, false).next();
    assertEquals(12, r.cells()[0].timestamp(), "the newest write won");
  }

  @Test
  void concurrentWritersToOnePartitionAreCountedOnce() throws Exception {
    long seed = MemtableSeed.next(MemtableTest.class);
    Memtable m = new Memtable();
    PartitionKey key = PartitionKey.of(new byte[] {9});
    int threads = 4;
    CyclicBarrier start = new CyclicBarrier(threads);
    List<Thread> ts = new ArrayList<>();
    long[] sums = new long[threads];
    for (int t = 0; t < threads; t++) {
      int id = t;
      Thread th =
          new Thread(
              () -> {
                Random rnd = new Random(seed + id);
                try {
                  start.await();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
                for (int i = 0; i < 20_000; i++) {
                  sums[id] += m.apply(update(key, rnd.nextInt(64), i, rnd.nextInt(40)));
                }
              });
      ts.add(th);
      th.start();
    }
    for (Thread th : ts) {
      th.join();
    }
    assertEquals(Arrays.stream(sums).sum(), m.liveBytes(), "seed " + seed);
    assertEquals(m.recount(), m.liveBytes(), "seed " + seed);
    Iterator<Row> it = m.get(key).rows(Slice.ALL, false);
    int n = 0;
    while (it.hasNext()) {
      assertEquals(1, it.next().cells().length);
      n++;
    }
    assertFalse(n == 0 || n > 64);
  }

  private static PartitionUpdate update(PartitionKey key, int row, long ts, int valueBytes) {
    return PartitionUpdate.builder(key)
        .addRow(
            new Row(
                clustering(row),
                LivenessInfo.of(ts),
                DeletionTime.LIVE,
                new Cell[] {Cell.live(1, ts, new byte[valueBytes])}))
        .build();
  }

  private static PartitionUpdate randomUpdate(Random rnd) {
    PartitionUpdate.Builder b =
        PartitionUpdate.builder(PartitionKey.of(new byte[] {(byte) rnd.nextInt(20)}));
    if (rnd.nextInt(40) == 0) {
      b.deletePartition(new DeletionTime(rnd.nextInt(1000), 1_700_000_000L + rnd.nextInt(100)));
    }
    if (rnd.nextInt(30) == 0) {
      int lo = rnd.nextInt(100);
      b.addRangeTombstone(
          new RangeTombstone(
              ClusteringBytes.row(List.of(intBytes(lo))),
              ClusteringBytes.row(List.of(intBytes(lo + rnd.nextInt(10)))),
              new DeletionTime(rnd.nextInt(1000), 1_700_000_000L)));
    }
    int rows = rnd.nextInt(4);
    for (int i = 0; i < rows; i++) {
      b.addRow(randomRow(rnd, clustering(rnd.nextInt(100))));
    }
    return b.build();
  }

  static Row randomRow(Random rnd, byte[] clustering) {
    long ts = rnd.nextInt(1000);
    LivenessInfo l =
        switch (rnd.nextInt(4)) {
          case 0 -> LivenessInfo.EMPTY;
          case 1 -> LivenessInfo.expiring(ts, 1 + rnd.nextInt(1000), 1_700_000_000L);
          default -> LivenessInfo.of(ts);
        };
    DeletionTime del =
        rnd.nextInt(8) == 0 ? new DeletionTime(ts - 1, 1_700_000_000L) : DeletionTime.LIVE;
    ComplexDeletion[] cds = Row.NO_COMPLEX_DELETIONS;
    if (rnd.nextInt(8) == 0) {
      cds =
          new ComplexDeletion[] {new ComplexDeletion(40, new DeletionTime(ts - 1, 1_700_000_000L))};
    }
    int simple = rnd.nextInt(rnd.nextInt(10) == 0 ? 30 : 4);
    List<Cell> cells = new ArrayList<>();
    for (int c = 0; c < simple; c++) {
      long cts = rnd.nextBoolean() ? ts : rnd.nextInt(1000) - 500;
      byte[] v = new byte[rnd.nextInt(rnd.nextInt(20) == 0 ? 300 : 20)];
      rnd.nextBytes(v);
      cells.add(
          switch (rnd.nextInt(6)) {
            case 0 -> Cell.tombstone(c, cts, 1_700_000_000L);
            case 1 -> Cell.expiring(c, cts, 1 + rnd.nextInt(100_000), 1_700_000_000L, v);
            case 2 -> Cell.counter(c, cts, v);
            default -> Cell.live(c, cts, v);
          });
    }
    int elements = rnd.nextInt(8) == 0 ? 1 + rnd.nextInt(5) : 0;
    for (int e = 0; e < elements; e++) {
      cells.add(
          Cell.element(
              40, new byte[] {(byte) e, 1}, ts, rnd.nextInt(2), 1_700_000_000L, new byte[3]));
    }
    return new Row(clustering, l, del, cds, cells.toArray(new Cell[0]));
  }

  static byte[] clustering(int i) {
    return ClusteringBytes.row(List.of(intBytes(i)));
  }

  static byte[] intBytes(int i) {
    return new byte[] {(byte) (i >>> 24), (byte) (i >>> 16), (byte) (i >>> 8), (byte) i};
  }
}
