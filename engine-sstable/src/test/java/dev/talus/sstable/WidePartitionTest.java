package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.data.Cell;
import dev.talus.data.DeletionTime;
import dev.talus.data.LivenessInfo;
import dev.talus.data.PartitionKey;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import dev.talus.sstable.SSTableOptions.Compression;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Slices of a 20,000-row partition against a TreeMap model, forwards and reversed. */
class WidePartitionTest {
  @TempDir Path dir;

  private final StorageFs fs = new NioStorageFs();

  @ParameterizedTest
  @EnumSource(Compression.class)
  void slicesMatchModel(Compression compression) throws Exception {
    long seed = 42 + compression.ordinal();
    System.out.println("seed=" + seed);
    Random r = new Random(seed);
    TreeMap<Integer, Row> model = new TreeMap<>();
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      int ck = i * 2;
      Row row =
          new Row(
              TestData.ck(ck),
              LivenessInfo.of(TestData.BASE_TS + i),
              DeletionTime.LIVE,
              new Cell[] {
                Cell.live(1, TestData.BASE_TS + i, new byte[] {(byte) i, (byte) (i >> 8)})
              });
      rows.add(row);
      model.put(ck, row);
    }
    PartitionKey key = PartitionKey.of(new byte[] {1, 2, 3});
    SSTableOptions opts =
        SSTableOptions.builder()
            .compression(compression)
            .rowIndexBlockSize(4096)
            .chunkSize(4096)
            .build();
    try (SSTableWriter w = SSTableWriter.create(fs, dir, 1, 1, opts)) {
      w.append(key, DeletionTime.LIVE, List.of(), rows.iterator());
      w.commit();
    }
    ChunkCache cache = ChunkCache.create(64L << 20);
    SSTableReader reader = SSTableReader.open(fs, dir, 1, cache);
    try {
      SSTablePartition p = (SSTablePartition) reader.partition(key);
      assertThat(p.rowIndexBlockCount()).isGreaterThan(20);

      // A point read in the middle touches few chunks, not the whole partition.
      Slice point = new Slice(TestData.bound(20_000, false), TestData.bound(20_000, true));
      assertThat(SSTableRoundTripTest.collect(p.rows(point, false)))
          .containsExactly(model.get(20_000));
      long chunksTotal = (reader.dataSize() + 4095) / 4096;
      System.out.println(
          "point read decompressed " + cache.size() + " of " + chunksTotal + " chunks");
      assertThat(cache.size()).isLessThanOrEqualTo(4);

      for (int i = 0; i < 300; i++) {
        int a = r.nextInt(41_000) - 500;
        int b = a + r.nextInt(i % 10 == 0 ? 40_000 : 600);
        boolean startAfter = r.nextBoolean();
        boolean endAfter = r.nextBoolean();
        Slice s = new Slice(TestData.bound(a, startAfter), TestData.bound(b, endAfter));
        NavigableMap<Integer, Row> sub =
            a > b || (a == b && !(endAfter && !startAfter))
                ? new TreeMap<>()
                : model.subMap(a, !startAfter, b, endAfter);
        List<Row> fwd = new ArrayList<>(sub.values());
        List<Row> rev = new ArrayList<>(sub.descendingMap().values());
        assertThat(SSTableRoundTripTest.collect(p.rows(s, false)))
            .as("slice %s..%s", a, b)
            .isEqualTo(fwd);
        assertThat(SSTableRoundTripTest.collect(p.rows(s, true)))
            .as("reversed %s..%s", a, b)
            .isEqualTo(rev);
      }
      List<Row> all = new ArrayList<>();
      for (Map.Entry<Integer, Row> e : model.descendingMap().entrySet()) {
        all.add(e.getValue());
      }
      assertThat(SSTableRoundTripTest.collect(p.rows(Slice.ALL, true))).isEqualTo(all);
    } finally {
      reader.release();
    }
  }
}
