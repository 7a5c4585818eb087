package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an open reader keeps on the heap beyond the chunk cache ({@link SSTableReader#heapBytes}).
 */
class ReaderHeapBytesTest {
  @TempDir Path dir;

  private final StorageFs fs = new NioStorageFs();

  /** An array's heap bytes with compressed references: 16-byte header, elements, padded to 8. */
  private static long arrayBytes(Object array) {
    int n = java.lang.reflect.Array.getLength(array);
    Class<?> t = array.getClass().getComponentType();
    int element = t == long.class ? 8 : t == int.class ? 4 : t == byte.class ? 1 : 4;
    long bytes = (16 + (long) n * element + 7) & ~7L;
    if (!t.isPrimitive()) {
      for (Object e : (Object[]) array) {
        bytes += e == null ? 0 : arrayBytes(e);
      }
    }
    return bytes;
  }

  /** Every array field of {@code o} (not static), counted with its elements' arrays. */
  private static long arrayFields(Object o) throws ReflectiveOperationException {
    long bytes = 0;
    for (Field f : o.getClass().getDeclaredFields()) {
      if (!Modifier.isStatic(f.getModifiers()) && f.getType().isArray()) {
        f.setAccessible(true);
        bytes += arrayBytes(f.get(o));
      }
    }
    return bytes;
  }

  private static Object field(Object o, String name) throws ReflectiveOperationException {
    Field f = o.getClass().getDeclaredField(name);
    f.setAccessible(true);
    return f.get(o);
  }

  @Test
  void heapBytesAreEveryArrayTheReaderHoldsAndGrowWithItsPartitions() throws Exception {
    long small = 0;
    for (int partitions : new int[] {1_000, 10_000}) {
      long gen = partitions;
      TestData.write(
          fs,
          dir,
          gen,
          TestData.partitions(new Random(partitions), partitions, 3),
          SSTableOptions.DEFAULTS);
      SSTableReader r = SSTableReader.open(fs, dir, gen, ChunkCache.disabled());
      try {
        // the reader's own arrays (index samples) and those of its filter and chunk offsets: a new
        // array field in any of them is counted here and must be in heapBytes() too; and its
        // chunk-cache slots, one reference per Data chunk and index stretch
        CompressionInfo ci = (CompressionInfo) field(r, "compression");
        int stretches = ((long[]) field(r, "sampleTokens")).length;
        long expected =
            arrayFields(r)
                + arrayFields(field(field(r, "filter"), "partitions"))
                + arrayFields(field(field(r, "filter"), "rows"))
                + arrayBytes(ci.offsets())
                + arrayBytes(new Object[ci.chunkCount() + stretches]);
        assertThat(r.heapBytes()).isEqualTo(expected);
        // the Bloom filter alone takes about 9.6 bits per key at a 1% false-positive chance
        assertThat(r.heapBytes()).isGreaterThan(partitions * 9L / 8);
        if (small == 0) {
          small = r.heapBytes();
        } else {
          assertThat(r.heapBytes()).isGreaterThan(5 * small);
        }
      } finally {
        r.release();
      }
    }
  }
}
