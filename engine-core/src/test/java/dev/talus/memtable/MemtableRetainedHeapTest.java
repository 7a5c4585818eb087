package dev.talus.memtable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.talus.data.Cell;
import dev.talus.data.ClusteringBytes;
import dev.talus.data.DeletionTime;
import dev.talus.data.LivenessInfo;
import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionUpdate;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The memtable's accounted bytes against the heap it really retains, measured by walking its object
 * graph with the JVM's own object layout ({@link RetainedHeap}): every part is counted, so the two
 * are equal. Seeded; replay with {@code -Dtalus.memtable.seed=N}.
 */
class MemtableRetainedHeapTest {
  /**
   * The memtable's ordered set of partitions and its hash index of the same partitions: what {@link
   * Memtable#liveBytes} accounts for.
   */
  private static Object[] partitionsOf(Memtable m) throws ReflectiveOperationException {
    Field map = Memtable.class.getDeclaredField("partitions");
    map.setAccessible(true);
    Field index = Memtable.class.getDeclaredField("index");
    index.setAccessible(true);
    return new Object[] {map.get(m), index.get(m)};
  }

  private static RetainedHeap walker() {
    // constants every memtable shares (the live deletion, the first chunk's key, empty arrays)
    return new RetainedHeap()
        .sharedStaticsOf(
            Memtable.class,
            MemPartition.class,
            PartitionIndex.class,
            PartitionOrder.class,
            RowChunks.class,
            RowChunk.class,
            DeletionTime.class,
            LivenessInfo.class,
            Cell.class,
            Row.class,
            ClusteringBytes.class);
  }

  @Test
  void accountedBytesAreTheRetainedHeapOfRandomRowsOfEveryKind() throws Exception {
    long seed = MemtableSeed.next(MemtableRetainedHeapTest.class);
    Random rnd = new Random(seed);
    Memtable m = new Memtable();
    List<PartitionKey> keys = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      byte[] k = new byte[1 + rnd.nextInt(12)];
      rnd.nextBytes(k);
      keys.add(PartitionKey.of(k));
    }
    for (int i = 0; i < 30_000; i++) {
      m.apply(randomUpdate(rnd, keys));
    }
    RetainedHeap.Result r = walker().measure(partitionsOf(m));
    long accounted = m.liveBytes();
    String figures =
        String.format(
            Locale.ROOT,
            "seed %d: accounted %,d, retained %,d (%+.3f%%), %,d partitions",
            seed,
            accounted,
            r.bytes(),
            100.0 * (accounted - r.bytes()) / r.bytes(),
            m.partitionCount());
    System.out.println(figures);
    assertEquals(accounted, r.bytes(), figures);
    assertEquals(m.recount(), accounted, "seed " + seed);
  }

  @Test
  void theBenchmarksRowsHoldAtMostOnePointFiveBytesPerUserByte() throws Exception {
    // the side-by-side runner's table: p int, seq bigint, v blob of 100 bytes; rows written round
    // by round, one per partition, each round in a new random partition order
    long seed = MemtableSeed.next(MemtableRetainedHeapTest.class);
    Random rnd = new Random(seed);
    int partitions = 2_000;
    int rounds = 75; // 150,000 rows: the runner's memtable footprint step
    Memtable m = new Memtable();
    List<Integer> order = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      order.add(p);
    }
    long ts = 1_000_000;
    for (int seq = 0; seq < rounds; seq++) {
      java.util.Collections.shuffle(order, rnd);
      for (int p : order) {
        byte[] value = new byte[100];
        rnd.nextBytes(value);
        ts++;
        Row row =
            new Row(
                ClusteringBytes.row(List.of(longBytes(seq))),
                LivenessInfo.of(ts),
                DeletionTime.LIVE,
                new Cell[] {Cell.live(2, ts, value)});
        m.apply(PartitionUpdate.builder(PartitionKey.of(intKey(p))).addRow(row).build());
      }
    }
    long userBytes = (long) partitions * rounds * (4 + 8 + 100);
    RetainedHeap.Result r = walker().measure(partitionsOf(m));
    double retainedPerByte = (double) r.bytes() / userBytes;
    double accountedPerByte = (double) m.liveBytes() / userBytes;
    String figures =
        String.format(
            Locale.ROOT,
            "seed %d: %,d user bytes, retained %,d (%.3f per user byte), accounted %,d (%.3f)",
            seed,
            userBytes,
            r.bytes(),
            retainedPerByte,
            m.liveBytes(),
            accountedPerByte);
    System.out.println(figures);
    assertTrue(retainedPerByte <= 1.5, figures);
    assertTrue(Math.abs(retainedPerByte - accountedPerByte) < 0.01, figures);
  }

  private static PartitionUpdate randomUpdate(Random rnd, List<PartitionKey> keys) {
    PartitionUpdate.Builder b = PartitionUpdate.builder(keys.get(rnd.nextInt(keys.size())));
    if (rnd.nextInt(60) == 0) {
      b.deletePartition(new DeletionTime(rnd.nextInt(1000), 1_700_000_000L + rnd.nextInt(100)));
    }
    if (rnd.nextInt(25) == 0) {
      // one or two tombstones; two of one update share their deletion, as a statement's do
      DeletionTime d = new DeletionTime(rnd.nextInt(1000), 1_700_000_000L);
      int n = 1 + rnd.nextInt(2);
      for (int t = 0; t < n; t++) {
        int lo = rnd.nextInt(400);
        b.addRangeTombstone(
            new RangeTombstone(
                MemtableTest.clustering(lo), MemtableTest.clustering(lo + rnd.nextInt(20)), d));
      }
    }
    int rows = rnd.nextInt(4);
    for (int i = 0; i < rows; i++) {
      b.addRow(MemtableTest.randomRow(rnd, MemtableTest.clustering(rnd.nextInt(400))));
    }
    return b.build();
  }

  private static byte[] intKey(int i) {
    return MemtableTest.intBytes(i ^ 0x80000000);
  }

  private static byte[] longBytes(long v) {
    byte[] b = new byte[8];
    for (int i = 0; i < 8; i++) {
      b[i] = (byte) (v >>> (56 - 8 * i));
    }
    return b;
  }
}
