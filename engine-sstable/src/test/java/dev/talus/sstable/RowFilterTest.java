package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.data.ClusteringBytes;
import dev.talus.data.PartitionKey;
import dev.talus.data.Row;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The row filter of an SSTable written with {@link SSTableOptions#rowFilter()}: it never rules out
 * a row the SSTable holds, nor any row of a partition holding a partition or range deletion (such a
 * deletion may shadow the row elsewhere); it rules out most other rows, at the configured
 * false-positive chance in an SSTable without deletions and about twice it in one with them (a
 * partition's deletion-marker probe may be a false positive too); and it survives the file round
 * trip. Seeded; the seed is printed.
 */
class RowFilterTest {
  @TempDir Path dir;

  private final StorageFs fs = new NioStorageFs();

  @Test
  void heldRowsAndDeletionsAreNeverRuledOutAndAbsentRowsMostlyAre() throws Exception {
    long seed = Long.getLong("talus.seed", System.nanoTime());
    System.out.println("RowFilterTest seed " + seed);
    Random rnd = new Random(seed);
    List<TestData.Partition> parts = TestData.partitions(rnd, 4_000, 200);
    long rows = parts.stream().mapToLong(p -> p.rows().size()).sum();
    SSTableOptions opts = SSTableOptions.builder().rowFilter(true).build();
    try (SSTableWriter w = SSTableWriter.create(fs, dir, 1, parts.size(), rows, opts)) {
      for (TestData.Partition p : parts) {
        w.append(p.key(), p.deletion(), p.rangeTombstones(), p.rows().iterator());
      }
      w.commit();
    }
    SSTableReader r = SSTableReader.open(fs, dir, 1, ChunkCache.disabled());
    try {
      r.verify();
      long probes = 0;
      long falsePositives = 0;
      Set<PartitionKey> held = new HashSet<>();
      for (TestData.Partition p : parts) {
        held.add(p.key());
        boolean deletions = !p.deletion().isLive() || !p.rangeTombstones().isEmpty();
        for (Row row : p.rows()) {
          assertThat(r.mayContainRow(p.key(), SSTableReader.rowHash(row.clustering())))
              .as("seed %d: a held row of %s", seed, p.key())
              .isTrue();
        }
        for (int c = 0; c < 5; c++) {
          byte[] ck = TestData.ck(1_000_000 + c);
          boolean maybe = r.mayContainRow(p.key(), SSTableReader.rowHash(ck));
          if (deletions) {
            assertThat(maybe).as("seed %d: a row under %s's deletions", seed, p.key()).isTrue();
          } else {
            probes++;
            falsePositives += maybe ? 1 : 0;
          }
        }
      }
      // The configured 1% per probe, plus 1% of partitions whose deletion-marker probe is a false
      // positive (every row of those is a maybe): about 2% in an SSTable with deletions, as this
      // one. Many partitions with few probes each keep the rate steady (about 0.25% standard
      // deviation); 3.5% is five above it.
      assertThat(probes).isGreaterThan(10_000);
      assertThat((double) falsePositives / probes).as("seed %d", seed).isLessThan(0.035);
      // partitions the SSTable does not hold at all fare the same
      long absentProbes = 0;
      long absentMaybes = 0;
      while (absentProbes < 10_000) {
        byte[] b = new byte[16]; // distinct keys: a repeated one would repeat its answer
        rnd.nextBytes(b);
        PartitionKey k = PartitionKey.of(b);
        if (held.contains(k)) {
          continue;
        }
        for (int c = 0; c < 5; c++) {
          absentProbes++;
          absentMaybes += r.mayContainRow(k, SSTableReader.rowHash(TestData.ck(c))) ? 1 : 0;
        }
      }
      System.out.printf(
          "RowFilterTest: %.4f false positives in held partitions, %.4f in absent ones%n",
          (double) falsePositives / probes, (double) absentMaybes / absentProbes);
      assertThat((double) absentMaybes / absentProbes).as("seed %d", seed).isLessThan(0.035);
    } finally {
      r.release();
    }
  }

  @Test
  void anSSTableWithoutDeletionsKeepsTheConfiguredRate() throws Exception {
    long seed = Long.getLong("talus.seed", System.nanoTime());
    System.out.println("RowFilterTest seed " + seed);
    Random rnd = new Random(seed);
    int partitions = 5_000;
    java.util.TreeMap<PartitionKey, Boolean> keys = new java.util.TreeMap<>();
    while (keys.size() < partitions) {
      byte[] b = new byte[16];
      rnd.nextBytes(b);
      keys.put(PartitionKey.of(b), Boolean.TRUE);
    }
    SSTableOptions opts = SSTableOptions.builder().rowFilter(true).build();
    try (SSTableWriter w = SSTableWriter.create(fs, dir, 1, partitions, 4L * partitions, opts)) {
      for (PartitionKey k : keys.keySet()) {
        List<Row> rows = new java.util.ArrayList<>();
        for (int c = 0; c < 4; c++) {
          rows.add(
              new Row(
                  TestData.ck(c),
                  dev.talus.data.LivenessInfo.of(1),
                  dev.talus.data.DeletionTime.LIVE,
                  new dev.talus.data.Cell[] {dev.talus.data.Cell.live(0, 1, new byte[] {1})}));
        }
        w.append(k, dev.talus.data.DeletionTime.LIVE, List.of(), rows.iterator());
      }
      w.commit();
    }
    SSTableReader r = SSTableReader.open(fs, dir, 1, ChunkCache.disabled());
    try {
      long maybes = 0;
      long probes = 0;
      for (PartitionKey k : keys.keySet()) {
        for (int c = 0; c < 4; c++) {
          assertThat(r.mayContainRow(k, SSTableReader.rowHash(TestData.ck(c)))).isTrue();
        }
        for (int c = 4; c < 8; c++) {
          probes++;
          maybes += r.mayContainRow(k, SSTableReader.rowHash(TestData.ck(c))) ? 1 : 0;
        }
      }
      System.out.printf(
          "RowFilterTest: %.4f false positives without deletions%n", (double) maybes / probes);
      assertThat((double) maybes / probes).as("seed %d", seed).isLessThan(0.015);
    } finally {
      r.release();
    }
  }

  @Test
  void withoutTheOptionEveryRowIsMaybe() throws Exception {
    Random rnd = new Random(7);
    TestData.write(fs, dir, 1, TestData.partitions(rnd, 20, 10), SSTableOptions.DEFAULTS);
    SSTableReader r = SSTableReader.open(fs, dir, 1, ChunkCache.disabled());
    try {
      PartitionKey k = PartitionKey.of(new byte[] {9, 9, 9});
      for (int c = 0; c < 100; c++) {
        assertThat(r.mayContainRow(k, SSTableReader.rowHash(TestData.ck(c)))).isTrue();
      }
    } finally {
      r.release();
    }
  }

  @Test
  void theClusteringHashIsStableAcrossBuilds() {
    // the hash decides bits on disk: a change to it would make old filters rule out held rows
    assertThat(Filters.clusteringHash(ClusteringBytes.EMPTY_ROW))
        .isEqualTo(Filters.clusteringHash(ClusteringBytes.EMPTY_ROW.clone()));
    long[] seen = new long[64];
    Set<Long> distinct = new HashSet<>();
    for (int i = 0; i < seen.length; i++) {
      seen[i] = Filters.clusteringHash(TestData.ck(i));
      distinct.add(seen[i]);
    }
    assertThat(distinct).hasSize(seen.length);
    assertThat(Long.toHexString(Filters.clusteringHash(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9})))
        .isEqualTo(PINNED_9);
  }

  /** The hash of bytes 1..9, computed once by this build's implementation and pinned here. */
  private static final String PINNED_9 = "323a2528b05ce964";
}
