package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.data.Cell;
import dev.talus.data.DeletionTime;
import dev.talus.data.LivenessInfo;
import dev.talus.data.PartitionKey;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import dev.talus.data.VarInts;
import dev.talus.io.CorruptFileException;
import dev.talus.io.FileFormat;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Format 5's index entries carry the header of a partition with a row index, so a named-row read
 * decompresses only the chunks from its row-index block to its row: not the chunk where the
 * partition starts (format 4 read it for the header), and none at all when every row-index block
 * ends before the row. A partition with range tombstones still has its header read from Data, and
 * an entry whose header flags this build does not know is refused.
 */
class HeaderInIndexTest {
  @TempDir Path dir;

  private final StorageFs fs = new NioStorageFs();

  private static final PartitionKey KEY = PartitionKey.of(new byte[] {7, 7});
  private static final int ROWS = 2_000;

  /** Magic, name length, "Index", version, generation. */
  private static final int HEADER_BYTES = 4 + 1 + 5 + 4 + 8;

  /** {@link #ROWS} rows of a 100-byte random value each: about 50 chunks of 4 KiB. */
  private static List<Row> rows() {
    Random r = new Random(5);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      byte[] v = new byte[100];
      r.nextBytes(v);
      long ts = TestData.BASE_TS + i;
      rows.add(
          new Row(
              TestData.ck(i),
              LivenessInfo.of(ts),
              DeletionTime.LIVE,
              new Cell[] {Cell.live(0, ts, v)}));
    }
    return rows;
  }

  /** Each reader's own cache, so what a read decompressed can be listed. */
  private final Map<SSTableReader, ChunkCache> caches = new HashMap<>();

  private SSTableReader write(
      long gen, int version, DeletionTime deletion, List<RangeTombstone> rts) throws IOException {
    SSTableOptions opts = SSTableOptions.builder().chunkSize(4096).build();
    TestData.write(
        fs, dir, gen, List.of(new TestData.Partition(KEY, deletion, rts, rows())), opts, version);
    ChunkCache cache = ChunkCache.create(64L << 20);
    SSTableReader r = SSTableReader.open(fs, dir, gen, cache);
    caches.put(r, cache);
    return r;
  }

  private static Slice point(int i) {
    return new Slice(TestData.bound(i, false), TestData.bound(i, true));
  }

  /** The Data chunks the reader's cache holds (index stretches left out). */
  private Set<Integer> cachedChunks(SSTableReader r) {
    Set<Integer> chunks = new TreeSet<>();
    for (ChunkCache.Key k : caches.get(r).entries().keySet()) {
      if (k.item >= 0) {
        chunks.add(k.item);
      }
    }
    return chunks;
  }

  @Test
  void aNamedRowReadDecompressesOnlyTheChunksUnderItsRow() throws IOException {
    SSTableReader current = write(1, FormatVersion.CURRENT, DeletionTime.LIVE, List.of());
    SSTableReader four = write(2, 4, DeletionTime.LIVE, List.of());
    try {
      for (SSTableReader r : List.of(current, four)) {
        FirstRow got = r.firstRow(KEY, point(1_500));
        assertThat(got.row().clustering()).isEqualTo(TestData.ck(1_500));
        assertThat(got.row().cells()[0].timestamp()).isEqualTo(TestData.BASE_TS + 1_500);
      }
      // the chunks of the row's row-index block up to the row; format 4 also read the header's
      Set<Integer> now = cachedChunks(current);
      assertThat(now).as("format 5 chunks").isNotEmpty().doesNotContain(0);
      Set<Integer> withHeader = new TreeSet<>(now);
      withHeader.add(0);
      assertThat(cachedChunks(four)).as("format 4 chunks").isEqualTo(withHeader);
    } finally {
      current.release();
      four.release();
    }
  }

  @Test
  void aRowAfterEveryBlockIsAnsweredFromTheEntryWithThePartitionDeletion() throws IOException {
    DeletionTime deleted = new DeletionTime(TestData.BASE_TS - 1, TestData.BASE_SEC);
    SSTableReader r = write(1, FormatVersion.CURRENT, deleted, List.of());
    try {
      FirstRow got = r.firstRow(KEY, point(ROWS + 10));
      assertThat(got.row()).isNull();
      assertThat(got.partitionDeletion()).isEqualTo(deleted);
      assertThat(got.rangeTombstones()).isEmpty();
      assertThat(cachedChunks(r)).isEmpty();
      // and a row inside: its timestamps decode against the bases the entry carries
      FirstRow inside = r.firstRow(KEY, point(900));
      assertThat(inside.partitionDeletion()).isEqualTo(deleted);
      assertThat(inside.row().liveness().timestamp()).isEqualTo(TestData.BASE_TS + 900);
      assertThat(cachedChunks(r)).doesNotContain(0);
    } finally {
      r.release();
    }
  }

  @Test
  void aPartitionWithRangeTombstonesHasItsHeaderReadFromData() throws IOException {
    RangeTombstone rt =
        new RangeTombstone(
            TestData.bound(1_400, false),
            TestData.bound(1_600, true),
            new DeletionTime(TestData.BASE_TS + 5_000, TestData.BASE_SEC));
    SSTableReader r = write(1, FormatVersion.CURRENT, DeletionTime.LIVE, List.of(rt));
    try {
      FirstRow got = r.firstRow(KEY, point(1_500));
      assertThat(got.rangeTombstones()).containsExactly(rt);
      assertThat(got.row().clustering()).isEqualTo(TestData.ck(1_500));
      assertThat(cachedChunks(r)).contains(0);
    } finally {
      r.release();
    }
  }

  @Test
  void verifyFindsAnEntryWhoseHeaderDisagreesWithData() throws IOException {
    SSTableReader good = write(1, FormatVersion.CURRENT, DeletionTime.LIVE, List.of());
    try {
      good.verify();
    } finally {
      good.release();
    }
    // A writer's mistake, not damage: the entry's base timestamp changed and the footer re-sealed,
    // so only the comparison with Data can tell.
    Path index = new SSTableDescriptor(dir, 1).path(Component.INDEX);
    byte[] b = Files2.read(fs, index);
    DataInputStream in =
        new DataInputStream(new ByteArrayInputStream(b, HEADER_BYTES, b.length - HEADER_BYTES));
    in.readLong(); // token
    in.skipNBytes(VarInts.readLength(in, 100)); // key
    VarInts.readUnsigned(in); // position
    assertThat(VarInts.readUnsigned(in)).as("row-index blocks").isGreaterThan(1);
    int flagsAt = b.length - in.available();
    assertThat(b[flagsAt]).as("header flags").isZero();
    b[flagsAt + 1] ^= 0x02; // the base timestamp's first varint byte, its length unchanged
    ByteBuffer.wrap(b)
        .putLong(b.length - 8, Integer.toUnsignedLong(FileFormat.crc32c(b, 0, b.length - 8)));
    Files2.write(fs, index, b);

    ChunkCache cache = ChunkCache.create(1 << 20);
    SSTableReader bad = SSTableReader.open(fs, dir, 1, cache);
    try {
      assertThatThrownBy(bad::verify)
          .isInstanceOf(CorruptFileException.class)
          .hasMessageContaining("Index.db")
          .hasMessageContaining("disagrees with its Data header");
    } finally {
      bad.release();
    }
  }

  @Test
  void headerFlagsThisBuildDoesNotKnowAreRefused() throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(b);
    out.writeLong(1);
    PartitionSerializer.writeBytes(out, new byte[] {1});
    VarInts.writeUnsigned(out, 0); // position
    VarInts.writeUnsigned(out, 1); // one row-index block
    out.writeByte(0x04); // header flags: 0x04 is not defined
    byte[] bytes = b.toByteArray();
    assertThatThrownBy(
            () ->
                IndexEntry.read(
                    new ArrayInput(bytes, 0, bytes.length), FormatVersion.HEADER_IN_INDEX))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("unknown partition flags 4");
  }
}
