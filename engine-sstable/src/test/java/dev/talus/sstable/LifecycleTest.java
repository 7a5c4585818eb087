package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.data.DeletionTime;
import dev.talus.data.PartitionKey;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writer transactions, key order, reference counting and stats. */
class LifecycleTest {
  @TempDir Path dir;

  private final StorageFs fs = new NioStorageFs();

  @Test
  void abortAndCloseWithoutCommitLeaveNoFiles() throws Exception {
    List<TestData.Partition> parts = TestData.partitions(new Random(1), 50, 100);
    try (SSTableWriter w = SSTableWriter.create(fs, dir, 1, 50, SSTableOptions.DEFAULTS)) {
      for (TestData.Partition p : parts) {
        w.append(p.key(), p.deletion(), p.rangeTombstones(), p.rows().iterator());
      }
    }
    assertThat(fs.list(dir)).isEmpty();
    SSTableWriter w = SSTableWriter.create(fs, dir, 2, 50, SSTableOptions.DEFAULTS);
    TestData.Partition p = parts.get(0);
    w.append(p.key(), p.deletion(), p.rangeTombstones(), p.rows().iterator());
    w.prepareToCommit();
    assertThat(fs.list(dir)).isNotEmpty();
    w.abort();
    assertThat(fs.list(dir)).isEmpty();
  }

  @Test
  void outOfOrderAndDuplicateKeysAreRejectedAndTheWriterStaysUsable() throws Exception {
    List<TestData.Partition> parts = TestData.partitions(new Random(2), 3, 10);
    try (SSTableWriter w = SSTableWriter.create(fs, dir, 1, 3, SSTableOptions.DEFAULTS)) {
      TestData.Partition a = parts.get(0);
      TestData.Partition b = parts.get(1);
      w.append(b.key(), b.deletion(), b.rangeTombstones(), b.rows().iterator());
      assertThatThrownBy(
              () -> w.append(a.key(), a.deletion(), a.rangeTombstones(), a.rows().iterator()))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("ascending");
      assertThatThrownBy(
              () -> w.append(b.key(), b.deletion(), b.rangeTombstones(), b.rows().iterator()))
          .isInstanceOf(IllegalStateException.class);
      TestData.Partition c = parts.get(2);
      w.append(c.key(), c.deletion(), c.rangeTombstones(), c.rows().iterator());
      w.commit();
    }
    SSTableReader r = SSTableReader.open(fs, dir, 1, ChunkCache.disabled());
    assertThat(r.stats().partitionCount()).isEqualTo(2);
    assertThat(r.partition(parts.get(0).key())).isNull();
    assertThat(SSTableRoundTripTest.collect(r.partition(parts.get(2).key()).rows(Slice.ALL, false)))
        .isEqualTo(parts.get(2).rows());
    r.release();
  }

  @Test
  void emptyWriterCannotCommit() throws Exception {
    try (SSTableWriter w = SSTableWriter.create(fs, dir, 1, 0, SSTableOptions.DEFAULTS)) {
      assertThatThrownBy(w::commit).isInstanceOf(IllegalStateException.class);
    }
    assertThat(fs.list(dir)).isEmpty();
  }

  @Test
  void obsoleteFilesAreDeletedOnlyAfterTheLastRelease() throws Exception {
    List<TestData.Partition> parts = TestData.partitions(new Random(3), 20, 10);
    TestData.write(fs, dir, 5, parts, SSTableOptions.DEFAULTS);
    SSTableReader r = SSTableReader.open(fs, dir, 5, ChunkCache.create(1 << 20));
    assertThat(r.refCount()).isEqualTo(1);
    assertThat(r.tryRef()).isTrue();
    assertThat(r.refCount()).isEqualTo(2);
    r.markObsolete();
    r.release(); // the opener's reference
    assertThat(fs.list(dir)).hasSize(Component.values().length);
    assertThat(r.partition(parts.get(0).key())).isNotNull();
    r.release(); // the last one
    assertThat(r.refCount()).isZero();
    assertThat(fs.list(dir)).isEmpty();
    assertThat(r.tryRef()).isFalse();
    assertThatThrownBy(() -> r.partition(parts.get(0).key()))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(r::release).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void leakedReferencesAreReportedByTheCache() throws Exception {
    TestData.write(fs, dir, 5, TestData.partitions(new Random(4), 5, 5), SSTableOptions.DEFAULTS);
    ChunkCache cache = ChunkCache.create(1 << 20);
    SSTableReader r = SSTableReader.open(fs, dir, 5, cache);
    assertThat(r.tryRef()).isTrue();
    r.release();
    assertThat(cache.unreleasedReaders()).singleElement().asString().endsWith("nb-5-Data.db");
    r.release();
    assertThat(cache.unreleasedReaders()).isEmpty();
  }

  @Test
  void releasedWithoutObsoleteKeepsFiles() throws Exception {
    TestData.write(fs, dir, 5, TestData.partitions(new Random(4), 5, 5), SSTableOptions.DEFAULTS);
    SSTableReader r = SSTableReader.open(fs, dir, 5, ChunkCache.disabled());
    r.release();
    assertThat(fs.list(dir)).hasSize(Component.values().length);
    r.markObsolete(); // after the last release: deleted at once
    assertThat(fs.list(dir)).isEmpty();
  }

  @Test
  void missingGenerationFailsWithNoSuchFile() {
    assertThatThrownBy(() -> SSTableReader.open(fs, dir, 9, ChunkCache.disabled()))
        .isInstanceOf(NoSuchFileException.class);
  }

  @Test
  void componentFromAnotherGenerationIsRejected() throws Exception {
    TestData.write(fs, dir, 1, TestData.partitions(new Random(5), 5, 5), SSTableOptions.DEFAULTS);
    TestData.write(fs, dir, 2, TestData.partitions(new Random(6), 5, 5), SSTableOptions.DEFAULTS);
    Path f1 = new SSTableDescriptor(dir, 1).path(Component.FILTER);
    Path f2 = new SSTableDescriptor(dir, 2).path(Component.FILTER);
    Files2.write(fs, f2, Files2.read(fs, f1));
    assertThatThrownBy(() -> SSTableReader.open(fs, dir, 2, ChunkCache.disabled()))
        .isInstanceOf(dev.talus.io.CorruptFileException.class)
        .hasMessageContaining("generation");
  }

  @Test
  void statsCountTombstonesAndDroppableTimes() throws Exception {
    long t = TestData.BASE_SEC;
    byte[] ck1 = TestData.ck(1);
    Row tomb =
        new Row(
            ck1,
            dev.talus.data.LivenessInfo.EMPTY,
            DeletionTime.LIVE,
            new dev.talus.data.Cell[] {
              dev.talus.data.Cell.tombstone(1, 10, t),
              dev.talus.data.Cell.expiring(2, 11, 100, t, new byte[] {1}),
              dev.talus.data.Cell.live(3, 12, new byte[] {2})
            });
    Row rowDel = Row.deletion(TestData.ck(2), new DeletionTime(13, t + 1000));
    PartitionKey k = PartitionKey.of(new byte[] {9});
    try (SSTableWriter w =
        SSTableWriter.create(
            fs,
            dir,
            1,
            1,
            SSTableOptions.builder().compression(SSTableOptions.Compression.ZSTD).build())) {
      w.append(
          k,
          new DeletionTime(5, t - 100),
          List.of(
              new dev.talus.data.RangeTombstone(
                  TestData.bound(10, false),
                  TestData.bound(20, true),
                  new DeletionTime(6, t + 5000))),
          List.of(tomb, rowDel).iterator());
      w.commit();
    }
    SSTableReader r = SSTableReader.open(fs, dir, 1, ChunkCache.disabled());
    SSTableStats s = r.stats();
    assertThat(s.tombstoneCount()).isEqualTo(5);
    assertThat(s.cellCount()).isEqualTo(3);
    assertThat(s.minTimestamp()).isEqualTo(5);
    assertThat(s.maxTimestamp()).isEqualTo(13);
    assertThat(s.minLocalDeletionTime()).isEqualTo(t - 100);
    assertThat(s.maxLocalDeletionTime()).isEqualTo(Long.MAX_VALUE);
    assertThat(s.estimatedDroppableTombstones(t + 200))
        .isEqualTo(3); // pd, cell tombstone, expiring
    assertThat(s.estimatedDroppableTombstones(Long.MAX_VALUE)).isEqualTo(5);
    assertThat(s.droppableTombstoneRatio(t + 200)).isEqualTo(3.0 / 6);
    assertThat(s.minClustering()).isEqualTo(ck1);
    assertThat(s.maxClustering()).isEqualTo(TestData.bound(20, true));
    assertThat(s.compression()).isEqualTo(SSTableOptions.Compression.ZSTD);
    assertThat(r.partition(k).maxTimestamp()).isEqualTo(13);
    assertThat(Collections.list(Collections.enumeration(List.of(r.generation()))))
        .containsExactly(1L);
    r.release();
  }

  @Test
  void tombstoneHistogramStaysBounded() {
    TombstoneHistogram h = new TombstoneHistogram();
    Random r = new Random(8);
    for (int i = 0; i < 100_000; i++) {
      h.update(TestData.BASE_SEC + r.nextInt(10_000_000));
    }
    assertThat(h.bins()).hasSizeLessThanOrEqualTo(TombstoneHistogram.MAX_BINS);
    assertThat(h.total()).isEqualTo(100_000);
    long mid = h.countBefore(TestData.BASE_SEC + 5_000_000);
    assertThat(mid).isBetween(40_000L, 60_000L);
  }

  @Test
  void optionsAreValidated() {
    assertThatThrownBy(() -> SSTableOptions.builder().chunkSize(1000).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("power of two");
    assertThatThrownBy(() -> SSTableOptions.builder().bloomFpChance(0).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(SSTableOptions.DEFAULTS.chunkSize()).isEqualTo(16 * 1024);
    assertThat(SSTableOptions.DEFAULTS.rowIndexBlockSize()).isEqualTo(64 * 1024);
    assertThat(SSTableOptions.DEFAULTS.compression()).isEqualTo(SSTableOptions.Compression.LZ4);
  }
}
