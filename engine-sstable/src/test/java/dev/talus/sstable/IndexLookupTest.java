package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.data.ClusteringBytes;
import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import dev.talus.data.VarInts;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The partition lookup through cached, parsed index stretches: binary search boundaries, token
 * collisions, misses between and around entries, cache on and off, and the cache emptied when the
 * reader goes away.
 */
class IndexLookupTest {
  @TempDir Path dir;

  private final StorageFs fs = new NioStorageFs();

  /** Index entry bytes as the writer lays them out, with no row index. */
  private static byte[] entry(long token, byte[] key, long position) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(b);
    out.writeLong(token);
    VarInts.writeUnsigned(out, key.length);
    out.write(key);
    VarInts.writeUnsigned(out, position);
    VarInts.writeUnsigned(out, 0);
    return b.toByteArray();
  }

  private static IndexStretch stretch(long[] tokens, byte[][] keys) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (int i = 0; i < tokens.length; i++) {
      all.write(entry(tokens[i], keys[i], 100L * i));
    }
    return IndexStretch.parse(all.toByteArray(), FormatVersion.CURRENT);
  }

  @Test
  void binarySearchFindsEveryEntryAndMissesBetweenAndAroundThem() throws IOException {
    long[] tokens = {-50, -3, 0, 5, 5, 5, 9, Long.MAX_VALUE};
    byte[][] keys = {{1}, {2}, {3}, {1}, {4, 0}, {(byte) 0xF0}, {7}, {8}};
    IndexStretch s = stretch(tokens, keys);
    assertThat(s.size()).isEqualTo(tokens.length);
    for (int i = 0; i < tokens.length; i++) {
      int found = s.find(PartitionKey.of(keys[i], tokens[i], 0));
      assertThat(found).as("entry %s", i).isEqualTo(i);
      IndexEntry e = s.entry(found);
      assertThat(e.token()).isEqualTo(tokens[i]);
      assertThat(e.key()).isEqualTo(keys[i]);
      assertThat(e.position()).isEqualTo(100L * i);
    }
    // before the first, after the last, between tokens
    assertThat(s.find(PartitionKey.of(new byte[] {1}, Long.MIN_VALUE, 0))).isEqualTo(-1);
    assertThat(s.find(PartitionKey.of(new byte[] {9}, Long.MAX_VALUE, 0))).isEqualTo(-1);
    assertThat(s.find(PartitionKey.of(new byte[] {3}, 1, 0))).isEqualTo(-1);
    // a token shared by several entries: before, between and after their keys
    assertThat(s.find(PartitionKey.of(new byte[] {0}, 5, 0))).isEqualTo(-1);
    assertThat(s.find(PartitionKey.of(new byte[] {4}, 5, 0))).isEqualTo(-1);
    assertThat(s.find(PartitionKey.of(new byte[] {4, 0, 0}, 5, 0))).isEqualTo(-1);
    assertThat(s.find(PartitionKey.of(new byte[] {(byte) 0xF1}, 5, 0))).isEqualTo(-1);
  }

  @Test
  void aSingleEntryStretch() throws IOException {
    IndexStretch s = stretch(new long[] {42}, new byte[][] {{1, 2}});
    assertThat(s.find(PartitionKey.of(new byte[] {1, 2}, 42, 0))).isZero();
    assertThat(s.find(PartitionKey.of(new byte[] {1}, 42, 0))).isEqualTo(-1);
    assertThat(s.find(PartitionKey.of(new byte[] {1, 2}, 41, 0))).isEqualTo(-1);
    assertThat(s.find(PartitionKey.of(new byte[] {1, 2}, 43, 0))).isEqualTo(-1);
  }

  @Test
  void everyPartitionIsFoundAcrossStretchesWithAndWithoutTheCache() throws IOException {
    Random r = new Random(11);
    // 1,000 partitions: 8 stretches, so first/last entries of stretches are exercised
    List<TestData.Partition> parts = TestData.partitions(r, 1_000, 300);
    SSTableOptions opts =
        SSTableOptions.builder().bloomFpChance(1.0).rowIndexBlockSize(1024).build();
    TestData.write(fs, dir, 1, parts, opts);
    for (ChunkCache cache : List.of(ChunkCache.create(8 << 20), ChunkCache.disabled())) {
      SSTableReader reader = SSTableReader.open(fs, dir, 1, cache);
      try {
        for (int pass = 0; pass < 2; pass++) { // the second pass hits the cache
          for (TestData.Partition p : parts) {
            PartitionData d = reader.partition(p.key());
            assertThat(d).as("%s", p.key()).isNotNull();
            assertThat(d.key()).isEqualTo(p.key());
            assertThat(SSTableRoundTripTest.collect(d.rows(Slice.ALL, false))).isEqualTo(p.rows());
          }
          // absent keys (the filter says "maybe" to all): misses inside and around stretches
          for (int i = 0; i < 300; i++) {
            PartitionKey k = PartitionKey.of(TestData.bytes(r, 30));
            boolean present = parts.stream().anyMatch(p -> p.key().equals(k));
            assertThat(reader.partition(k) != null).isEqualTo(present);
          }
        }
      } finally {
        reader.release();
      }
      assertThat(cache.size()).isZero(); // chunks and index stretches both dropped
      assertThat(cache.unreleasedReaders()).isEmpty();
    }
  }

  @Test
  void pointSlicesInsideAWideBlockSkipTheRowsBeforeThem() throws IOException {
    Random r = new Random(5);
    List<TestData.Partition> parts = TestData.partitions(r, 20, 2_000);
    SSTableOptions opts = SSTableOptions.builder().rowIndexBlockSize(8192).build();
    TestData.write(fs, dir, 2, parts, opts);
    SSTableReader reader = SSTableReader.open(fs, dir, 2, ChunkCache.create(8 << 20));
    try {
      for (TestData.Partition p : parts) {
        PartitionData d = reader.partition(p.key());
        for (int i = 0; i < p.rows().size(); i += 1 + p.rows().size() / 50) {
          Row want = p.rows().get(i);
          Slice one =
              want.isStatic()
                  ? Slice.STATIC
                  : new Slice(
                      ClusteringBytes.before(want.clustering()),
                      ClusteringBytes.after(want.clustering()));
          assertThat(SSTableRoundTripTest.collect(d.rows(one, false))).containsExactly(want);
          assertThat(SSTableRoundTripTest.collect(d.rows(one, true))).containsExactly(want);
        }
      }
    } finally {
      reader.release();
    }
  }
}
