package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link SSTableReader#firstRow} answers exactly what the partition view does for the same named
 * row: the partition deletion, the range tombstones meeting the slice and the first row inside it —
 * for present and absent partitions and rows, wide partitions with row indexes, and small chunks so
 * rows cross chunk boundaries (and varints are decoded across them) — in the current format, whose
 * index entries carry the partition header, and in format 4, whose reads take it from Data. Seeded:
 * the seed is the first parameter and is printed.
 */
class FirstRowPropertyTest {
  @TempDir Path dir;

  private final StorageFs fs = new NioStorageFs();

  @ParameterizedTest
  @CsvSource({"1, 5", "2, 5", "3, 5", "4, 5", "1, 4", "2, 4"})
  void firstRowEqualsThePartitionView(long seed, int version) throws Exception {
    System.out.println("FirstRowPropertyTest seed " + seed + " format " + version);
    Random r = new Random(seed);
    SSTableOptions opts =
        SSTableOptions.builder()
            .chunkSize(seed % 2 == 0 ? 1024 : 4096)
            .rowIndexBlockSize(seed % 2 == 0 ? 512 : 64 * 1024)
            .build();
    List<TestData.Partition> parts = TestData.partitions(r, 200, 300);
    TestData.write(fs, dir, seed, parts, opts, version);
    assertThat(FormatVersion.CURRENT).isEqualTo(5);
    SSTableReader reader = SSTableReader.open(fs, dir, seed, ChunkCache.create(1 << 20));
    assertThat(reader.formatVersion()).isEqualTo(version);
    int compared = 0;
    int found = 0;
    try {
      for (int probe = 0; probe < 4_000; probe++) {
        TestData.Partition p = parts.get(r.nextInt(parts.size()));
        PartitionKey key = r.nextInt(10) == 0 ? PartitionKey.of(TestData.bytes(r, 24)) : p.key();
        // rows are numbered from below 10 in steps of 1 to 3: mostly hits, some gaps and misses
        int c = r.nextInt(3 * p.rows().size() + 10);
        Slice slice = new Slice(TestData.bound(c, false), TestData.bound(c, true));
        FirstRow got = reader.firstRow(key, slice);
        PartitionData want = reader.partition(key);
        String where = "seed " + seed + " key " + key + " clustering " + c;
        if (want == null) {
          assertThat(got).as(where).isNull();
          continue;
        }
        assertThat(got).as(where).isNotNull();
        assertThat(got.partitionDeletion()).as(where).isEqualTo(want.partitionDeletion());
        assertThat(got.rangeTombstones()).as(where).isEqualTo(want.rangeTombstones(slice));
        Iterator<Row> rows = want.rows(slice, false);
        Row first = rows.hasNext() ? rows.next() : null;
        assertThat(got.row()).as(where).isEqualTo(first);
        compared++;
        if (first != null) {
          found++;
        }
      }
    } finally {
      reader.release();
    }
    System.out.println(
        "FirstRowPropertyTest seed " + seed + ": " + compared + " compared, " + found + " rows");
    assertThat(found).as("rows found").isGreaterThan(100);
  }
}
