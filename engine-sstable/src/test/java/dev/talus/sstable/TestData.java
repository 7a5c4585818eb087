package dev.talus.sstable;

import dev.talus.data.Cell;
import dev.talus.data.ClusteringBytes;
import dev.talus.data.ComplexDeletion;
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

  /** Cells of one complex column: a few elements (sorted paths), live, expiring or deleted. */
  static void elements(Random r, int column, List<Cell> out) {
    TreeMap<byte[], Cell> byPath = new TreeMap<>(java.util.Arrays::compareUnsigned);
    for (int i = r.nextInt(4); i >= 0; i--) {
      byte[] path = bytes(r, 6);
      long ts = BASE_TS + r.nextInt(1_000_000);
      long now = BASE_SEC + r.nextInt(100_000);
      Cell c =
          switch (r.nextInt(4)) {
            case 0 -> Cell.elementTombstone(column, path, ts, now);
            case 1 -> Cell.element(column, path, ts, 1 + r.nextInt(86_400), now, bytes(r, 12));
            default -> Cell.element(column, path, ts, 0, now, bytes(r, 12));
          };
      byPath.put(path, c);
    }
    out.addAll(byPath.values());
  }

  static Row row(Random r, byte[] ck) {
    int shape = r.nextInt(10);
    if (shape == 0 && !ClusteringBytes.isStatic(ck)) {
      return Row.deletion(
          ck, new DeletionTime(BASE_TS + r.nextInt(1000), BASE_SEC + r.nextInt(1000)));
    }
    boolean isStatic = ClusteringBytes.isStatic(ck);
    LivenessInfo l =
        isStatic
            ? LivenessInfo.EMPTY
            : switch (r.nextInt(3)) {
              case 0 -> LivenessInfo.EMPTY;
              case 1 -> LivenessInfo.of(BASE_TS + r.nextInt(1000));
              default ->
                  LivenessInfo.expiring(BASE_TS + r.nextInt(1000), 60, BASE_SEC + r.nextInt(1000));
            };
    DeletionTime d =
        !isStatic && r.nextInt(8) == 0
            ? new DeletionTime(BASE_TS - 5, BASE_SEC + r.nextInt(1000))
            : DeletionTime.LIVE;
    int n = r.nextInt(5);
    List<Cell> cells = new ArrayList<>();
    List<ComplexDeletion> cds = new ArrayList<>();
    int col = 0;
    for (int i = 0; i < n; i++) {
      col += 1 + r.nextInt(3);
      int kind = r.nextInt(8);
      if (kind == 0) { // a collection: maybe a complex deletion, and elements
        if (r.nextBoolean()) {
          cds.add(
              new ComplexDeletion(
                  col, new DeletionTime(BASE_TS + r.nextInt(1000), BASE_SEC + r.nextInt(1000))));
        }
        elements(r, col, cells);
      } else if (kind == 1) { // a counter
        long ts = BASE_TS + r.nextInt(1_000_000);
        cells.add(
            r.nextInt(4) == 0
                ? Cell.counterTombstone(col, ts, BASE_SEC + r.nextInt(1000))
                : Cell.counter(col, ts, ByteBuffer.allocate(8).putLong(r.nextLong()).array()));
      } else {
        cells.add(cell(r, col));
      }
    }
    if (l.isEmpty() && d.isLive() && cells.isEmpty() && cds.isEmpty()) {
      cells.add(Cell.live(0, BASE_TS, new byte[] {1}));
    }
    return new Row(ck, l, d, cds.toArray(new ComplexDeletion[0]), cells.toArray(new Cell[0]));
  }

  static Row row(Random r, int clustering) {
    return row(r, ck(clustering));
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
    if (r.nextInt(6) == 0) {
      rs.add(row(r, ClusteringBytes.STATIC));
    }
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
    return write(fs, dir, gen, parts, opts, FormatVersion.CURRENT);
  }

  /** As {@link #write(StorageFs, Path, long, List, SSTableOptions)}, in format {@code version}. */
  static SSTableDescriptor write(
      StorageFs fs, Path dir, long gen, List<Partition> parts, SSTableOptions opts, int version)
      throws IOException {
    try (SSTableWriter w = SSTableWriter.create(fs, dir, gen, parts.size(), opts, version)) {
      for (Partition p : parts) {
        w.append(p.key(), p.deletion(), p.rangeTombstones(), p.rows().iterator());
      }
      return w.commit();
    }
  }
}
