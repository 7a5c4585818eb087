package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.data.ClusteringBytes;
import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import dev.talus.sstable.SSTableOptions.Compression;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Seeded random round trips: what is written is read back exactly, by lookup and by scan. */
class SSTableRoundTripTest {
  @TempDir Path dir;

  private final StorageFs fs = new NioStorageFs();

  static List<Row> collect(java.util.Iterator<Row> it) {
    List<Row> out = new ArrayList<>();
    it.forEachRemaining(out::add);
    return out;
  }

  @ParameterizedTest
  @CsvSource({"1,LZ4", "2,ZSTD", "3,NONE", "4,LZ4", "5,NONE"})
  void roundTrip(long seed, Compression compression) throws Exception {
    System.out.println("seed=" + seed + " compression=" + compression);
    Random r = new Random(seed);
    List<TestData.Partition> parts = TestData.partitions(r, 400, 2_000);
    SSTableOptions opts =
        SSTableOptions.builder()
            .compression(compression)
            .rowIndexBlockSize(4096)
            .chunkSize(4096)
            .level(2)
            .commitLogInterval(10, 20)
            .createdAt(1_700_000_123L)
            .build();
    TestData.write(fs, dir, 7, parts, opts);
    SSTableReader reader = SSTableReader.open(fs, dir, 7, ChunkCache.create(1 << 20));
    try {
      long rows = 0;
      boolean sawIndexed = false;
      for (TestData.Partition p : parts) {
        PartitionData d = reader.partition(p.key());
        assertThat(d).as("partition %s (seed %s)", p.key(), seed).isNotNull();
        assertThat(d.key()).isEqualTo(p.key());
        assertThat(d.partitionDeletion()).isEqualTo(p.deletion());
        assertThat(d.rangeTombstones(Slice.ALL)).isEqualTo(p.rangeTombstones());
        assertThat(collect(d.rows(Slice.ALL, false))).isEqualTo(p.rows());
        List<Row> rev = new ArrayList<>(p.rows());
        Collections.reverse(rev);
        assertThat(collect(d.rows(Slice.ALL, true))).isEqualTo(rev);
        sawIndexed |= ((SSTablePartition) d).rowIndexBlockCount() > 2;
        rows += p.rows().size();
        int first = !p.rows().isEmpty() && p.rows().get(0).isStatic() ? 1 : 0;
        if (first == 1) {
          assertThat(collect(d.rows(Slice.STATIC, r.nextBoolean())))
              .containsExactly(p.rows().get(0));
          assertThat(collect(d.rows(Slice.ROWS, false)))
              .isEqualTo(p.rows().subList(1, p.rows().size()));
        }
        if (p.rows().size() > first) {
          // A random sub-slice of rows, both ways.
          int a = first + r.nextInt(p.rows().size() - first);
          int b = a + r.nextInt(p.rows().size() - a);
          Slice s =
              new Slice(
                  ClusteringBytes.before(p.rows().get(a).clustering()),
                  ClusteringBytes.after(p.rows().get(b).clustering()));
          List<Row> expected = p.rows().subList(a, b + 1);
          assertThat(collect(d.rows(s, false))).isEqualTo(expected);
          List<Row> er = new ArrayList<>(expected);
          Collections.reverse(er);
          assertThat(collect(d.rows(s, true))).isEqualTo(er);
        }
      }
      assertThat(sawIndexed).as("some partition spans several row-index blocks").isTrue();
      List<PartitionKey> scanned = new ArrayList<>();
      try (SSTableScanner s = reader.scanner()) {
        int i = 0;
        while (s.hasNext()) {
          PartitionData d = s.next();
          scanned.add(d.key());
          assertThat(collect(d.rows(Slice.ALL, false))).isEqualTo(parts.get(i++).rows());
        }
      }
      assertThat(scanned).isEqualTo(parts.stream().map(TestData.Partition::key).toList());
      for (int i = 0; i < 1000; i++) {
        PartitionKey absent = PartitionKey.of(TestData.bytes(r, 30));
        if (!scanned.contains(absent)) {
          assertThat(reader.partition(absent)).isNull();
        }
      }
      SSTableStats st = reader.stats();
      assertThat(st.partitionCount()).isEqualTo(parts.size());
      assertThat(st.rowCount()).isEqualTo(rows);
      assertThat(st.level()).isEqualTo(2);
      assertThat(st.createdAtSeconds()).isEqualTo(1_700_000_123L);
      assertThat(st.commitLogInterval()).isEqualTo(new SSTableOptions.CommitLogInterval(10, 20));
      assertThat(st.firstKey()).isEqualTo(parts.get(0).key());
      assertThat(st.lastKey()).isEqualTo(parts.get(parts.size() - 1).key());
      assertThat(st.maxLocalDeletionTime()).isEqualTo(Long.MAX_VALUE);
      assertThat(st.tombstoneCount()).isPositive();
      assertThat(st.estimatedDroppableTombstones(Long.MAX_VALUE)).isEqualTo(st.tombstoneCount());
      assertThat(st.estimatedDroppableTombstones(0)).isZero();
      reader.verify();
    } finally {
      reader.release();
    }
    assertThat(reader.refCount()).isZero();
  }
}
