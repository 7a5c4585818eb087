package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import dev.talus.data.Slice;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Key iteration for scans: every key in (token, key) order, from any starting key (present or not,
 * included or not), across many index sample blocks; each key's partition read from its index entry
 * holds the rows written.
 */
class SSTableKeysTest {
  @TempDir Path dir;

  private final StorageFs fs = new NioStorageFs();

  private static List<PartitionKey> drain(Iterator<PartitionKey> it) {
    List<PartitionKey> out = new ArrayList<>();
    it.forEachRemaining(out::add);
    return out;
  }

  @Test
  void keysFromAnyStartInTokenOrder() throws Exception {
    long seed = 11;
    System.out.println("seed=" + seed);
    Random r = new Random(seed);
    // more than one sample block (SAMPLE_INTERVAL entries each)
    List<TestData.Partition> parts =
        TestData.partitions(r, 3 * SSTableReader.SAMPLE_INTERVAL + 7, 5);
    TestData.write(fs, dir, 3, parts, SSTableOptions.builder().build());
    SSTableReader reader = SSTableReader.open(fs, dir, 3, ChunkCache.create(1 << 20));
    try {
      List<PartitionKey> all = parts.stream().map(TestData.Partition::key).toList();
      assertThat(drain(reader.keys(null, true))).isEqualTo(all);
      for (int i = 0; i < all.size(); i += 13) {
        PartitionKey k = all.get(i);
        assertThat(drain(reader.keys(k, true))).isEqualTo(all.subList(i, all.size()));
        assertThat(drain(reader.keys(k, false))).isEqualTo(all.subList(i + 1, all.size()));
        // a key not in the table, just after k in token order (same token, longer bytes)
        byte[] longer = java.util.Arrays.copyOf(k.bytes(), k.bytes().length + 1);
        PartitionKey between = PartitionKey.of(longer, k.token(), 0);
        assertThat(drain(reader.keys(between, true))).isEqualTo(all.subList(i + 1, all.size()));
      }
      // before the first and after the last
      assertThat(drain(reader.keys(PartitionKey.of(new byte[0], Long.MIN_VALUE, 0), true)))
          .isEqualTo(all);
      assertThat(drain(reader.keys(all.get(all.size() - 1), false))).isEmpty();
    } finally {
      reader.release();
    }
  }

  @Test
  void eachKeysPartitionIsTheOneANamedReadFinds() throws Exception {
    long seed = 12;
    System.out.println("seed=" + seed);
    Random r = new Random(seed);
    List<TestData.Partition> parts =
        TestData.partitions(r, 2 * SSTableReader.SAMPLE_INTERVAL + 3, 40);
    TestData.write(fs, dir, 4, parts, SSTableOptions.builder().chunkSize(1024).build());
    SSTableReader reader = SSTableReader.open(fs, dir, 4, ChunkCache.create(1 << 20));
    try {
      int from = parts.size() / 3;
      SSTableKeys keys = reader.keys(parts.get(from).key(), true);
      assertThatThrownBy(keys::partition).isInstanceOf(IllegalStateException.class);
      for (int i = from; i < parts.size(); i++) {
        TestData.Partition expected = parts.get(i);
        assertThat(keys.next()).isEqualTo(expected.key());
        PartitionData d = keys.partition();
        assertThat(d.key()).isEqualTo(expected.key());
        assertThat(SSTableRoundTripTest.collect(d.rows(Slice.ALL, false)))
            .isEqualTo(expected.rows());
      }
      assertThat(keys.hasNext()).isFalse();
    } finally {
      reader.release();
    }
  }
}
