package dev.talus.sstable;

import dev.talus.data.Cell;
import dev.talus.data.ClusteringBytes;
import dev.talus.data.DeletionIntervals;
import dev.talus.data.DeletionTime;
import dev.talus.data.LivenessInfo;
import dev.talus.data.PartitionKey;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.io.StorageFs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

/** Random partitions for seeded tests, and a writer helper. */
final class TestData {
  static final long BASE_TS = 1_700_000_000_000_000L;
  static final long BASE_SEC = 1_700_000_000L;

  private TestData() {}

  record Partition(
      PartitionKey key,
      DeletionTime deletion,
      List<RangeTombstone> rangeTombstones,
      List<Row> rows) {}

  static byte[] ck(int i) {
    return ClusteringBytes.row(List.of(ByteBuffer.allocate(4).putInt(i ^ 0x80000000).array()));
  }

  static byte[] bound(int i, boolean after) {
    return ClusteringBytes.bound(
        List.of(ByteBuffer.allocate(4).putInt(i ^ 0x80000000).array()), after);
  }

  static byte[] bytes(Random r, int max) {
    byte[] b = new byte[r.nextInt(max + 1)];
    r.nextBytes(b);
    return b;
  }

  static Cell cell(Random r, int column) {
    long ts = BASE_TS + r.nextInt(1_000_000);
    long now = BASE_SEC + r.nextInt(100_000);
    return switch (r.nextInt(6)) {
      case 0 -> Cell.tombstone(column, ts, now);
      case 1 -> Cell.expiring(column, ts, 1 + r.nextInt(86_400), now, bytes(r, 20));
      default -> Cell.live(column, ts, bytes(r, 40));
    };
  }

  static Row row(Random r, int clustering) {
    byte[] ck = ck(clustering);
    int shape = r.nextInt(10);
    if (shape == 0) {
      return Row.deletion(
          ck, new DeletionTime(BASE_TS + r.nextInt(1000), BASE_SEC + r.nextInt(1000)));
    }
    LivenessInfo l =
        switch (r.nextInt(3)) {
          case 0 -> LivenessInfo.EMPTY;
          case 1 -> LivenessInfo.of(BASE_TS + r.nextInt(1000));
          default ->
              LivenessInfo.expiring(BASE_TS + r.nextInt(1000), 60, BASE_SEC + r.nextInt(1000));
        };
    DeletionTime d =
        r.nextInt(8) == 0
            ? new DeletionTime(BASE_TS - 5, BASE_SEC + r.nextInt(1000))
            : DeletionTime.LIVE;
    int n = r.nextInt(5);
    List<Cell> cells = new ArrayList<>();
    int col = 0;
    for (int i = 0; i < n; i++) {
      col += 1 + r.nextInt(3);
      cells.add(cell(r, col));
    }
    if (l.isEmpty() && d.isLive() && cells.isEmpty()) {
      l = LivenessInfo.of(BASE_TS);
    }
    return new Row(ck, l, d, cells.toArray(new Cell[0]));
  }

  static Partition partition(Random r, PartitionKey key, int rows) {
    DeletionTime pd =
        r.nextInt(5) == 0
            ? new DeletionTime(BASE_TS + r.nextInt(1000), BASE_SEC + r.nextInt(1000))
            : DeletionTime.LIVE;
    List<RangeTombstone> raw = new ArrayList<>();
    int nrt = r.nextInt(4) == 0 ? 1 + r.nextInt(3) : 0;
    for (int i = 0; i < nrt; i++) {
      int a = r.nextInt(rows * 2 + 2);
      int b = a + 1 + r.nextInt(20);
      raw.add(
          new RangeTombstone(
              bound(a, false),
              bound(b, true),
              new DeletionTime(BASE_TS + r.nextInt(1000), BASE_SEC + r.nextInt(1000))));
    }
    List<RangeTombstone> rts = DeletionIntervals.of(raw).intervals();
    List<Row> rs = new ArrayList<>();
    int c = r.nextInt(10);
    for (int i = 0; i < rows; i++) {
      rs.add(row(r, c));
      c += 1 + r.nextInt(3);
    }
    return new Partition(key, pd, rts, rs);
  }

  /** {@code count} partitions sorted by key, a few of them wide. */
  static List<Partition> partitions(Random r, int count, int wideRows) {
    TreeMap<PartitionKey, Boolean> keys = new TreeMap<>();
    while (keys.size() < count) {
      keys.put(PartitionKey.of(bytes(r, 24)), Boolean.TRUE);
    }
    List<Partition> out = new ArrayList<>();
    for (PartitionKey k : keys.keySet()) {
      int rows = r.nextInt(20) == 0 ? wideRows : r.nextInt(8);
      out.add(partition(r, k, rows));
    }
    return out;
  }

  static SSTableDescriptor write(
      StorageFs fs, Path dir, long gen, List<Partition> parts, SSTableOptions opts)
      throws IOException {
    try (SSTableWriter w = SSTableWriter.create(fs, dir, gen, parts.size(), opts)) {
      for (Partition p : parts) {
        w.append(p.key(), p.deletion(), p.rangeTombstones(), p.rows().iterator());
      }
      return w.commit();
    }
  }
}
