package dev.talus.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.talus.data.Cell;
import dev.talus.data.ComplexDeletion;
import dev.talus.data.DeletionTime;
import dev.talus.data.LivenessInfo;
import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionUpdate;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The commit-log record written straight into its frame ({@link Mutation#writeTo}) is byte for byte
 * the one the stream serializer writes, of the size it announces, and reads back equal. Seeded;
 * replay with {@code -Dtalus.write.seed=N}.
 */
class MutationTest {
  private static long seed() {
    long seed = Long.getLong("talus.write.seed", System.nanoTime());
    System.out.println("MutationTest seed " + seed + " (replay: -Dtalus.write.seed=" + seed + ")");
    return seed;
  }

  @Test
  void writtenIntoABufferAsTheStreamWritesIt() throws Exception {
    long seed = seed();
    Random rnd = new Random(seed);
    for (int i = 0; i < 5_000; i++) {
      Mutation m = randomMutation(rnd);
      byte[] streamed = m.serialize();
      assertEquals(streamed.length, m.size(), "seed " + seed + ", mutation " + i);
      ByteBuffer b = ByteBuffer.allocate(m.size() + 7);
      b.position(3);
      m.writeTo(b);
      assertEquals(3 + streamed.length, b.position(), "seed " + seed + ", mutation " + i);
      byte[] written = new byte[streamed.length];
      b.get(3, written);
      assertArrayEquals(streamed, written, "seed " + seed + ", mutation " + i);
      assertEquals(m, Mutation.deserialize(written), "seed " + seed + ", mutation " + i);
    }
  }

  @Test
  void tableIdsAreDistinctInTheOrderTheyFirstAppear() {
    PartitionUpdate u = PartitionUpdate.builder(PartitionKey.of(new byte[] {1})).build();
    Mutation m =
        new Mutation(
            List.of(
                new Mutation.Entry(7, u),
                new Mutation.Entry(3, u),
                new Mutation.Entry(7, u),
                new Mutation.Entry(5, u),
                new Mutation.Entry(3, u)));
    assertArrayEquals(new int[] {7, 3, 5}, m.tableIds());
    assertArrayEquals(new int[] {9}, new Mutation(List.of(new Mutation.Entry(9, u))).tableIds());
  }

  private static Mutation randomMutation(Random rnd) {
    List<Mutation.Entry> entries = new ArrayList<>();
    int n = 1 + rnd.nextInt(rnd.nextInt(10) == 0 ? 5 : 1);
    for (int i = 0; i < n; i++) {
      entries.add(new Mutation.Entry(rnd.nextInt(rnd.nextBoolean() ? 100 : 100_000), update(rnd)));
    }
    return new Mutation(entries);
  }

  private static PartitionUpdate update(Random rnd) {
    PartitionUpdate.Builder b =
        PartitionUpdate.builder(PartitionKey.of(bytes(rnd, 1 + rnd.nextInt(40))));
    if (rnd.nextInt(10) == 0) {
      b.deletePartition(new DeletionTime(rnd.nextLong(), rnd.nextInt(Integer.MAX_VALUE)));
    }
    for (int t = rnd.nextInt(10) == 0 ? 1 + rnd.nextInt(3) : 0; t > 0; t--) {
      b.addRangeTombstone(
          new RangeTombstone(
              bytes(rnd, rnd.nextInt(20)),
              bytes(rnd, rnd.nextInt(20)),
              new DeletionTime(rnd.nextLong(), 1_700_000_000L)));
    }
    for (int r = rnd.nextInt(4); r > 0; r--) {
      b.addRow(row(rnd));
    }
    return b.build();
  }

  private static Row row(Random rnd) {
    long ts = rnd.nextLong();
    LivenessInfo l =
        switch (rnd.nextInt(3)) {
          case 0 -> LivenessInfo.EMPTY;
          case 1 -> LivenessInfo.expiring(ts, 1 + rnd.nextInt(1_000_000), 1_700_000_000L);
          default -> LivenessInfo.of(ts);
        };
    DeletionTime del =
        rnd.nextInt(6) == 0 ? new DeletionTime(ts - 1, 1_700_000_000L) : DeletionTime.LIVE;
    ComplexDeletion[] cds = Row.NO_COMPLEX_DELETIONS;
    if (rnd.nextInt(6) == 0) {
      cds = new ComplexDeletion[] {new ComplexDeletion(200, new DeletionTime(ts, 1_700_000_000L))};
    }
    List<Cell> cells = new ArrayList<>();
    int simple = rnd.nextInt(rnd.nextInt(10) == 0 ? 200 : 4);
    for (int c = 0; c < simple; c++) {
      byte[] v = bytes(rnd, rnd.nextInt(rnd.nextInt(20) == 0 ? 20_000 : 30));
      cells.add(
          switch (rnd.nextInt(5)) {
            case 0 -> Cell.tombstone(c, ts, 1_700_000_000L);
            case 1 -> Cell.expiring(c, ts, 1 + rnd.nextInt(100_000), 1_700_000_000L, v);
            case 2 -> Cell.counter(c, ts, v);
            default -> Cell.live(c, ts, v);
          });
    }
    int elements = rnd.nextInt(6) == 0 ? 1 + rnd.nextInt(300) : 0;
    for (int e = 0; e < elements; e++) {
      cells.add(Cell.element(200, new byte[] {(byte) (e >> 8), (byte) e}, ts, 0, 0, bytes(rnd, 3)));
    }
    return new Row(bytes(rnd, 1 + rnd.nextInt(30)), l, del, cds, cells.toArray(new Cell[0]));
  }

  private static byte[] bytes(Random rnd, int n) {
    byte[] b = new byte[n];
    rnd.nextBytes(b);
    return b;
  }
}
