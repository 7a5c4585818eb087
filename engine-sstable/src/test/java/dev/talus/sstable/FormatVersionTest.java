package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.data.Cell;
import dev.talus.data.ClusteringBytes;
import dev.talus.data.ComplexDeletion;
import dev.talus.data.DeletionTime;
import dev.talus.data.LivenessInfo;
import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import dev.talus.io.CorruptFileException;
import dev.talus.io.FileFormat;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Format versions: what this build writes is version 5; a version 4 SSTable of a one-block
 * partition (its index entry then carries nothing new) and a version 3 SSTable (a Filter component
 * without the row filter), a version 2 SSTable (also a TOC without the manifest's witness lines)
 * and a version 1 SSTable (scalar data only) still read; a version newer than this build knows is
 * refused at open with a message naming it, and version 2 fields inside a version 1 file are
 * refused as damage.
 */
class FormatVersionTest {
  @TempDir Path dir;

  private final StorageFs fs = new NioStorageFs();

  private static final PartitionKey KEY = PartitionKey.of(new byte[] {1, 2});
  private static final byte[] CK = TestData.ck(1);

  private void writeScalar() throws Exception {
    Row r =
        new Row(
            CK,
            LivenessInfo.of(10),
            DeletionTime.LIVE,
            new Cell[] {Cell.live(0, 10, new byte[] {5})});
    try (SSTableWriter w = SSTableWriter.create(fs, dir, 1, 1, SSTableOptions.builder().build())) {
      w.append(KEY, DeletionTime.LIVE, List.of(), List.of(r).iterator());
      w.commit();
    }
  }

  /**
   * Rewrites the version in a component's header and fixes its footer checksum; before version 4 a
   * Filter component loses its (empty) row filter, the 12 bytes before the 16-byte footer.
   */
  private void setHeaderVersion(Component c, int version) throws Exception {
    Path p = new SSTableDescriptor(dir, 1).path(c);
    byte[] b = Files2.read(fs, p);
    if (c == Component.FILTER && version < Filters.ROW_FILTER_VERSION) {
      byte[] shorter = new byte[b.length - 12];
      System.arraycopy(b, 0, shorter, 0, b.length - 28);
      System.arraycopy(b, b.length - 16, shorter, b.length - 28, 16);
      b = shorter;
    }
    ByteBuffer.wrap(b).putInt(5 + c.headerName().length(), version);
    long crc = Integer.toUnsignedLong(FileFormat.crc32c(b, 0, b.length - 8));
    ByteBuffer.wrap(b).putLong(b.length - 8, crc);
    Files2.write(fs, p, b);
  }

  private void setVersion(int version) throws Exception {
    for (Component c : Component.values()) {
      if (c != Component.TOC) {
        setHeaderVersion(c, version);
      }
    }
    Files2.write(fs, new SSTableDescriptor(dir, 1).path(Component.TOC), Toc.render(version, 1));
  }

  @Test
  void writesTheCurrentVersion() throws Exception {
    writeScalar();
    SSTableReader r = SSTableReader.open(fs, dir, 1, ChunkCache.disabled());
    try {
      assertThat(r.formatVersion()).isEqualTo(FormatVersion.CURRENT).isEqualTo(5);
      assertThat(r.stats().creationInfo()).startsWith("format=5 ");
    } finally {
      r.release();
    }
  }

  @Test
  void aVersionFourSSTableStillReads() throws Exception {
    writeScalar();
    setVersion(4); // one block: its index entry carries no header in either version
    SSTableReader r = SSTableReader.open(fs, dir, 1, ChunkCache.disabled());
    try {
      assertThat(r.formatVersion()).isEqualTo(4);
      r.verify();
      Slice one = new Slice(TestData.bound(1, false), TestData.bound(1, true));
      assertThat(r.firstRow(KEY, one).row()).isNotNull();
    } finally {
      r.release();
    }
  }

  @Test
  void aVersionThreeSSTableStillReadsWithoutARowFilter() throws Exception {
    writeScalar();
    setVersion(3); // no row filter in Filter.db
    SSTableReader r = SSTableReader.open(fs, dir, 1, ChunkCache.disabled());
    try {
      assertThat(r.formatVersion()).isEqualTo(3);
      r.verify();
      assertThat(r.mayContain(KEY)).isTrue();
      assertThat(r.mayContainRow(KEY, SSTableReader.rowHash(TestData.ck(2))))
          .isTrue(); // no row filter: always maybe
    } finally {
      r.release();
    }
  }

  @Test
  void aVersionTwoSSTableStillReads() throws Exception {
    writeScalar();
    setVersion(2); // the same components; its TOC has no witness lines
    SSTableReader r = SSTableReader.open(fs, dir, 1, ChunkCache.disabled());
    try {
      assertThat(r.formatVersion()).isEqualTo(2);
      r.verify();
    } finally {
      r.release();
    }
  }

  @Test
  void aVersionOneSSTableStillReads() throws Exception {
    writeScalar();
    // Scalar data: version 2 writes none of its optional Stats fields, so only versions differ.
    setVersion(1);
    SSTableReader r = SSTableReader.open(fs, dir, 1, ChunkCache.disabled());
    try {
      assertThat(r.formatVersion()).isEqualTo(1);
      PartitionData d = r.partition(KEY);
      assertThat(SSTableRoundTripTest.collect(d.rows(Slice.ALL, false)))
          .singleElement()
          .satisfies(row -> assertThat(row.cell(0).value()).containsExactly(5));
      assertThat(r.stats().complexDeletions()).isZero();
      r.verify();
    } finally {
      r.release();
    }
  }

  @Test
  void aNewerVersionIsRefusedAtOpenNamingIt() throws Exception {
    writeScalar();
    setVersion(6);
    assertThatThrownBy(() -> SSTableReader.open(fs, dir, 1, ChunkCache.disabled()))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("format version 6 is newer than this build reads (versions 1 to 5)");
  }

  @Test
  void aComponentOfAnotherVersionThanItsTocIsRefused() throws Exception {
    writeScalar();
    setHeaderVersion(Component.STATS, 6);
    assertThatThrownBy(() -> SSTableReader.open(fs, dir, 1, ChunkCache.disabled()))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("format version 6 is newer");
  }

  @Test
  void statsCountCollectionDeletionsElementsAndStaticRows() throws Exception {
    Row r =
        new Row(
            ClusteringBytes.STATIC,
            LivenessInfo.EMPTY,
            DeletionTime.LIVE,
            new ComplexDeletion[] {new ComplexDeletion(0, new DeletionTime(9, 100))},
            new Cell[] {Cell.element(0, new byte[] {1}, 10, 0, 100, new byte[] {5})});
    try (SSTableWriter w = SSTableWriter.create(fs, dir, 1, 1, SSTableOptions.builder().build())) {
      w.append(KEY, DeletionTime.LIVE, List.of(), List.of(r).iterator());
      w.commit();
    }
    SSTableReader reader = SSTableReader.open(fs, dir, 1, ChunkCache.disabled());
    try {
      SSTableStats st = reader.stats();
      assertThat(st.complexDeletions()).isEqualTo(1);
      assertThat(st.elementCells()).isEqualTo(1);
      assertThat(st.staticRows()).isEqualTo(1);
      assertThat(st.tombstoneCount()).isEqualTo(1);
      assertThat(st.maxLocalDeletionTime()).isEqualTo(Long.MAX_VALUE);
    } finally {
      reader.release();
    }
  }

  @Test
  void versionTwoFieldsInAVersionOneFileAreDamage() throws Exception {
    Row r =
        new Row(
            ClusteringBytes.STATIC,
            LivenessInfo.EMPTY,
            DeletionTime.LIVE,
            new ComplexDeletion[] {new ComplexDeletion(0, new DeletionTime(9, 100))},
            new Cell[] {Cell.element(0, new byte[] {1}, 10, 0, 100, new byte[] {5})});
    try (SSTableWriter w = SSTableWriter.create(fs, dir, 1, 1, SSTableOptions.builder().build())) {
      w.append(KEY, DeletionTime.LIVE, List.of(), List.of(r).iterator());
      w.commit();
    }
    Path stats = new SSTableDescriptor(dir, 1).path(Component.STATS);
    byte[] b = Files2.read(fs, stats);
    byte[] v1 = new byte[b.length - 24];
    System.arraycopy(b, 0, v1, 0, b.length - 40);
    System.arraycopy(b, b.length - 16, v1, b.length - 40, 16);
    Files2.write(fs, stats, v1);
    setVersion(1);
    SSTableReader reader = SSTableReader.open(fs, dir, 1, ChunkCache.disabled());
    try {
      assertThat(reader.stats().complexDeletions()).as("format 1 has no such field").isZero();
      PartitionData d = reader.partition(KEY);
      assertThatThrownBy(() -> SSTableRoundTripTest.collect(d.rows(Slice.ALL, false)))
          .isInstanceOf(CorruptFileException.class)
          .hasMessageContaining("in format version 1");
    } finally {
      reader.release();
    }
  }
}
