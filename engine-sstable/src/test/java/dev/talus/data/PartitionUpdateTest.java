package dev.talus.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PartitionUpdateTest {

  private static byte[] bytes(Random rnd, int max) {
    // mostly short, sometimes long enough for a multi-byte length
    byte[] b = new byte[rnd.nextInt(10) == 0 ? rnd.nextInt(max) : rnd.nextInt(4)];
    rnd.nextBytes(b);
    return b;
  }

  private static long timestamp(Random rnd) {
    switch (rnd.nextInt(4)) {
      case 0:
        return rnd.nextLong();
      case 1:
        return -rnd.nextInt(100);
      default:
        return rnd.nextInt(1_000_000);
    }
  }

  private static DeletionTime deletion(Random rnd) {
    return rnd.nextInt(3) == 0
        ? DeletionTime.LIVE
        : new DeletionTime(timestamp(rnd), rnd.nextInt(Integer.MAX_VALUE));
  }

  private static Cell cell(Random rnd, int column) {
    long ts = timestamp(rnd);
    switch (rnd.nextInt(3)) {
      case 0:
        return Cell.live(column, ts, bytes(rnd, 300));
      case 1:
        return Cell.expiring(
            column, ts, 1 + rnd.nextInt(1 << 20), rnd.nextInt(1 << 30), bytes(rnd, 40));
      default:
        return Cell.tombstone(column, ts, rnd.nextInt(1 << 30));
    }
  }

  static PartitionUpdate randomUpdate(Random rnd) {
    PartitionKey key = PartitionKey.of(bytes(rnd, 200));
    List<RangeTombstone> rts = new ArrayList<>();
    for (int i = rnd.nextInt(4); i > 0; i--) {
      rts.add(new RangeTombstone(bytes(rnd, 20), bytes(rnd, 20), deletion(rnd)));
    }
    List<Row> rows = new ArrayList<>();
    for (int i = rnd.nextInt(5); i > 0; i--) {
      LivenessInfo l;
      switch (rnd.nextInt(3)) {
        case 0:
          l = LivenessInfo.EMPTY;
          break;
        case 1:
          l = LivenessInfo.of(timestamp(rnd));
          break;
        default:
          l = LivenessInfo.expiring(timestamp(rnd), 1 + rnd.nextInt(1 << 20), rnd.nextInt(1 << 30));
      }
      List<Cell> cells = new ArrayList<>();
      List<ComplexDeletion> cds = new ArrayList<>();
      int column = 0;
      for (int j = rnd.nextInt(5); j > 0; j--) {
        column += 1 + (rnd.nextBoolean() ? rnd.nextInt(3) : rnd.nextInt(100_000));
        switch (rnd.nextInt(5)) {
          case 0 -> { // collection elements, maybe after a complex deletion
            if (rnd.nextBoolean()) {
              cds.add(new ComplexDeletion(column, deletion(rnd)));
            }
            byte[] path = {0};
            for (int e = 1 + rnd.nextInt(3); e > 0; e--) {
              path = new byte[] {(byte) (path[0] + 1 + rnd.nextInt(5))};
              Cell c = cell(rnd, column);
              cells.add(
                  new Cell(
                      column,
                      path,
                      c.timestamp(),
                      c.ttl(),
                      c.localDeletionTime(),
                      c.value(),
                      false));
            }
          }
          case 1 -> cells.add(Cell.counter(column, timestamp(rnd), bytes(rnd, 8)));
          default -> cells.add(cell(rnd, column));
        }
      }
      rows.add(
          new Row(
              bytes(rnd, 30),
              l,
              deletion(rnd),
              cds.toArray(new ComplexDeletion[0]),
              cells.toArray(new Cell[0])));
    }
    return new PartitionUpdate(key, deletion(rnd), rts, rows);
  }

  @ParameterizedTest(name = "seed={0}")
  @ValueSource(longs = {1L, 2L, 3L, 4L, 5L})
  void serializeDeserializeRoundTrips(long seed) throws IOException {
    Random rnd = new Random(seed);
    for (int i = 0; i < 500; i++) {
      PartitionUpdate u = randomUpdate(rnd);
      byte[] data = u.serialize();
      ByteArrayOutputStream viaStream = new ByteArrayOutputStream();
      try (DataOutputStream out = new DataOutputStream(viaStream)) {
        u.serialize(out);
      }
      assertThat(viaStream.toByteArray()).as("seed=%d", seed).isEqualTo(data);

      DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
      PartitionUpdate back = PartitionUpdate.deserialize(in, PartitionUpdate.SERIAL_VERSION);
      assertThat(back).as("seed=%d iteration=%d %s", seed, i, u).isEqualTo(u);
      assertThat(in.available()).as("seed=%d: every byte is consumed", seed).isZero();
      assertThat(back.key().token()).isEqualTo(u.key().token());
      assertThat(back.key().hash2()).isEqualTo(u.key().hash2());
      assertThat(back.maxTimestamp()).isEqualTo(u.maxTimestamp());
      assertThat(PartitionUpdate.deserialize(data)).isEqualTo(u);
    }
  }

  @ParameterizedTest(name = "seed={0}")
  @ValueSource(longs = {11L, 12L, 13L})
  void truncatedBytesNeverDeserialize(long seed) throws IOException {
    Random rnd = new Random(seed);
    for (int i = 0; i < 100; i++) {
      PartitionUpdate u = randomUpdate(rnd);
      byte[] data = u.serialize();
      for (int len = 0; len < data.length; len++) {
        if (data.length > 200 && len > 50 && len < data.length - 50 && rnd.nextInt(8) != 0) {
          continue; // sample the middle of long records
        }
        byte[] cut = Arrays.copyOf(data, len);
        final int l = len;
        assertThatThrownBy(() -> PartitionUpdate.deserialize(cut))
            .as("seed=%d iteration=%d truncated to %d of %d bytes", seed, i, l, data.length)
            .isInstanceOf(IOException.class);
      }
    }
  }

  @Test
  void lengthAboveLongMaxIsRejectedWithIOException() {
    // a ten-byte varint whose value has the top bit set: negative as a long
    byte[] data = {
      (byte) 0xFF,
      (byte) 0xFF,
      (byte) 0xFF,
      (byte) 0xFF,
      (byte) 0xFF,
      (byte) 0xFF,
      (byte) 0xFF,
      (byte) 0xFF,
      (byte) 0xFF,
      0x01
    };
    assertThatThrownBy(() -> PartitionUpdate.deserialize(data)).isInstanceOf(IOException.class);
  }

  @Test
  void emptyUpdateRoundTrips() throws IOException {
    PartitionUpdate u = PartitionUpdate.builder(PartitionKey.of(new byte[0])).build();
    assertThat(PartitionUpdate.deserialize(u.serialize())).isEqualTo(u);
    assertThat(u.partitionDeletion()).isEqualTo(DeletionTime.LIVE);
  }

  @Test
  void builderMergesRowsWithTheSameClusteringAndSortsThem() {
    byte[] c1 = TestData.row(1);
    byte[] c2 = TestData.row(2);
    PartitionUpdate u =
        PartitionUpdate.builder(PartitionKey.of(new byte[] {7}))
            .addRow(new Row(c2, LivenessInfo.of(1), DeletionTime.LIVE, new Cell[0]))
            .addRow(
                new Row(
                    c1,
                    LivenessInfo.EMPTY,
                    DeletionTime.LIVE,
                    new Cell[] {Cell.live(0, 1, new byte[] {1})}))
            .addRow(
                new Row(
                    c1,
                    LivenessInfo.EMPTY,
                    DeletionTime.LIVE,
                    new Cell[] {Cell.live(0, 2, new byte[] {2}), Cell.live(1, 2, new byte[] {3})}))
            .deletePartition(new DeletionTime(3, 100))
            .deletePartition(new DeletionTime(2, 200))
            .build();
    assertThat(u.partitionDeletion()).isEqualTo(new DeletionTime(3, 100));
    assertThat(u.rows()).extracting(Row::clustering).containsExactly(c1, c2);
    assertThat(u.rows().get(0).cells())
        .containsExactly(Cell.live(0, 2, new byte[] {2}), Cell.live(1, 2, new byte[] {3}));
  }

  /** The layout commit-log records had before element paths: what version 1 wrote, by hand. */
  private static byte[] layout1(PartitionUpdate u) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      VarInts.writeUnsigned(out, u.key().bytes().length);
      out.write(u.key().bytes());
      out.writeLong(u.partitionDeletion().markedForDeleteAt());
      out.writeLong(u.partitionDeletion().localDeletionTime());
      VarInts.writeUnsigned(out, 0);
      VarInts.writeUnsigned(out, u.rows().size());
      for (Row r : u.rows()) {
        VarInts.writeUnsigned(out, r.clustering().length);
        out.write(r.clustering());
        out.writeLong(r.liveness().timestamp());
        VarInts.writeUnsigned(out, r.liveness().ttl());
        out.writeLong(r.liveness().localExpirationTime());
        out.writeLong(r.deletion().markedForDeleteAt());
        out.writeLong(r.deletion().localDeletionTime());
        VarInts.writeUnsigned(out, r.cells().length);
        for (Cell c : r.cells()) {
          VarInts.writeUnsigned(out, c.column());
          out.writeLong(c.timestamp());
          VarInts.writeUnsigned(out, c.ttl());
          out.writeLong(c.localDeletionTime());
          VarInts.writeUnsigned(out, c.value().length);
          out.write(c.value());
        }
      }
    }
    return bytes.toByteArray();
  }

  @ParameterizedTest(name = "seed={0}")
  @ValueSource(longs = {11L, 12L, 13L})
  void layoutOneRecordsStillRead(long seed) throws IOException {
    Random rnd = new Random(seed);
    for (int i = 0; i < 100; i++) {
      List<Row> rows = new ArrayList<>();
      for (int r = rnd.nextInt(4); r > 0; r--) {
        rows.add(
            new Row(
                new byte[] {(byte) r},
                LivenessInfo.of(timestamp(rnd)),
                deletion(rnd),
                new Cell[] {cell(rnd, 0), cell(rnd, 3)}));
      }
      PartitionUpdate u =
          new PartitionUpdate(PartitionKey.of(bytes(rnd, 20)), deletion(rnd), List.of(), rows);
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(layout1(u)));
      assertThat(PartitionUpdate.deserialize(in, 1)).as("seed=%d", seed).isEqualTo(u);
      assertThat(in.available()).isZero();
    }
  }

  @Test
  void aLayoutNewerThanThisBuildIsRefusedWithItsNumber() {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(new byte[16]));
    assertThatThrownBy(() -> PartitionUpdate.deserialize(in, 3))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("layout 3");
  }

  @Test
  void elementPathsComplexDeletionsAndCounterFlagsRoundTrip() throws IOException {
    Cell[] cells = {
      Cell.counter(0, 5, new byte[] {0, 0, 0, 0, 0, 0, 0, 7}),
      Cell.element(1, new byte[] {1}, 6, 0, 100, new byte[] {9}),
      Cell.elementTombstone(1, new byte[] {2}, 6, 100),
      Cell.element(1, new byte[] {3}, 6, 30, 100, new byte[0]),
    };
    Row row =
        new Row(
            ClusteringBytes.STATIC,
            LivenessInfo.EMPTY,
            DeletionTime.LIVE,
            new ComplexDeletion[] {new ComplexDeletion(1, new DeletionTime(5, 100))},
            cells);
    PartitionUpdate u =
        PartitionUpdate.builder(PartitionKey.of(new byte[] {4})).addRow(row).build();
    PartitionUpdate back = PartitionUpdate.deserialize(u.serialize());
    assertThat(back).isEqualTo(u);
    Row r = back.rows().get(0);
    assertThat(r.isStatic()).isTrue();
    assertThat(r.cells()[0].isCounter()).isTrue();
    assertThat(r.cells()[1].path()).containsExactly(1);
    assertThat(r.complexDeletion(1)).isEqualTo(new DeletionTime(5, 100));
  }
}
