package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.io.CorruptFileException;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/**
 * The storage-attached index term dictionary: seeded random dictionaries answer exact and range
 * lookups exactly as a sorted in-memory model does, and any damage is caught at open. Replay a run
 * with {@code -Dtalus.seed}.
 */
class IndexTermsTest {
  private static final long GENERATION = 7;
  private final StorageFs fs = new NioStorageFs();
  @TempDir Path dir;

  private static long seed(String test) {
    long seed = Long.getLong("talus.seed", new Random().nextLong());
    System.out.println("IndexTermsTest." + test + " seed=" + seed);
    return seed;
  }

  /** Terms from a small alphabet with shared prefixes, so front coding and ties are exercised. */
  private static byte[] randomTerm(Random r) {
    byte[] t = new byte[r.nextInt(6)];
    for (int i = 0; i < t.length; i++) {
      t[i] = (byte) (r.nextBoolean() ? r.nextInt(4) : 250 + r.nextInt(6)); // high bytes: unsigned
    }
    return t;
  }

  @Test
  void lookupsMatchASortedModel() throws IOException {
    long seed = seed("lookupsMatchASortedModel");
    Random r = new Random(seed);
    for (int round = 0; round < 20; round++) {
      int rows = 1 + r.nextInt(1_000);
      NavigableMap<byte[], Set<Integer>> model = new TreeMap<>(Arrays::compareUnsigned);
      IndexTermsWriter w = new IndexTermsWriter();
      int adds = r.nextInt(3 * rows);
      for (int i = 0; i < adds; i++) {
        byte[] term = randomTerm(r);
        int row = r.nextInt(rows);
        w.add(term, row);
        model.computeIfAbsent(term, k -> new TreeSet<>()).add(row);
      }
      Path file = dir.resolve("terms-" + round + ".db");
      w.write(fs, file, GENERATION, rows);
      try (IndexTermsReader reader = IndexTermsReader.open(fs, file, GENERATION)) {
        String where = "seed " + seed + " round " + round;
        assertThat(reader.termCount()).as(where).isEqualTo(model.size());
        assertThat(reader.rowCount()).as(where).isEqualTo(rows);
        for (int q = 0; q < 100; q++) {
          byte[] a = randomTerm(r);
          assertThat(toSet(reader.exact(a)))
              .as(where + " exact " + Arrays.toString(a))
              .isEqualTo(model.getOrDefault(a, Set.of()));
          byte[] lower = r.nextInt(5) == 0 ? null : a;
          byte[] upper = r.nextInt(5) == 0 ? null : randomTerm(r);
          boolean li = r.nextBoolean();
          boolean ui = r.nextBoolean();
          assertThat(toSet(reader.range(lower, li, upper, ui)))
              .as(where + " range " + Arrays.toString(lower) + li + Arrays.toString(upper) + ui)
              .isEqualTo(modelRange(model, lower, li, upper, ui));
        }
      }
    }
  }

  private static Set<Integer> modelRange(
      NavigableMap<byte[], Set<Integer>> model, byte[] lo, boolean li, byte[] hi, boolean ui) {
    Set<Integer> out = new HashSet<>();
    for (Map.Entry<byte[], Set<Integer>> e : model.entrySet()) {
      byte[] t = e.getKey();
      boolean aboveLower =
          lo == null || Arrays.compareUnsigned(t, lo) > 0 || (li && Arrays.equals(t, lo));
      boolean belowUpper =
          hi == null || Arrays.compareUnsigned(t, hi) < 0 || (ui && Arrays.equals(t, hi));
      if (aboveLower && belowUpper) {
        out.addAll(e.getValue());
      }
    }
    return out;
  }

  private static Set<Integer> toSet(RoaringBitmap b) {
    Set<Integer> out = new HashSet<>();
    b.forEach((int i) -> out.add(i));
    return out;
  }

  @Test
  void anEmptyDictionaryAnswersNothing() throws IOException {
    Path file = dir.resolve("empty.db");
    new IndexTermsWriter().write(fs, file, GENERATION, 0);
    try (IndexTermsReader reader = IndexTermsReader.open(fs, file, GENERATION)) {
      assertThat(reader.termCount()).isZero();
      assertThat(reader.exact(new byte[] {1}).isEmpty()).isTrue();
      assertThat(reader.range(null, true, null, true).isEmpty()).isTrue();
    }
  }

  @Test
  void blockBoundariesLoseNoTerm() throws IOException {
    for (int terms : new int[] {1, 15, 16, 17, 32, 33}) {
      IndexTermsWriter w = new IndexTermsWriter();
      for (int i = 0; i < terms; i++) {
        w.add(new byte[] {(byte) i, (byte) (i * 7)}, i);
      }
      Path file = dir.resolve("blocks-" + terms + ".db");
      w.write(fs, file, GENERATION, terms);
      try (IndexTermsReader reader = IndexTermsReader.open(fs, file, GENERATION)) {
        for (int i = 0; i < terms; i++) {
          assertThat(toSet(reader.exact(new byte[] {(byte) i, (byte) (i * 7)}))).containsOnly(i);
        }
        assertThat(reader.range(null, true, null, true).getCardinality()).isEqualTo(terms);
      }
    }
  }

  @Test
  void aRowIdAtOrPastTheRowCountIsRefused() {
    IndexTermsWriter w = new IndexTermsWriter();
    w.add(new byte[] {1}, 10);
    assertThatThrownBy(() -> w.write(fs, dir.resolve("bad.db"), GENERATION, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("row count");
    assertThatThrownBy(() -> w.add(new byte[] {1}, -1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private Path sample(Random r) throws IOException {
    IndexTermsWriter w = new IndexTermsWriter();
    for (int i = 0; i < 60; i++) {
      w.add(randomTerm(r), r.nextInt(100));
    }
    Path file = dir.resolve("sample.db");
    Files.deleteIfExists(file);
    w.write(fs, file, GENERATION, 100);
    return file;
  }

  /** The header and trailer byte by byte, and 200 seeded positions of the body. */
  @Test
  void flippedBytesAreCaughtAtOpen() throws IOException {
    long seed = seed("flippedBytesAreCaughtAtOpen");
    Path file = sample(new Random(seed));
    IndexFileDamage.flippedBytes(
        file, seed, 40, () -> IndexTermsReader.open(fs, file, GENERATION).close());
  }

  /** Every length short of the whole file. */
  @Test
  void everyTruncationIsCaughtAtOpen() throws IOException {
    Path file = sample(new Random(seed("everyTruncationIsCaughtAtOpen")));
    IndexFileDamage.truncations(file, () -> IndexTermsReader.open(fs, file, GENERATION).close());
  }

  @Test
  void aDictionaryOfAnotherSSTableIsRefused() throws IOException {
    Path file = sample(new Random(1));
    assertThatThrownBy(() -> IndexTermsReader.open(fs, file, GENERATION + 1).close())
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("generation");
  }

  /**
   * A huge count or length written over any position (a damaged count field or varint): the open
   * refuses the file as corrupt before sizing anything by it, instead of running out of memory.
   */
  @Test
  void hugeCountsAnywhereAreRefusedBeforeAnythingIsSizedByThem() throws IOException {
    Path file = dir.resolve("huge.db");
    IndexTermsWriter w = new IndexTermsWriter();
    for (int i = 0; i < 40; i++) {
      w.add(new byte[] {(byte) i, 7}, i);
    }
    w.write(fs, file, GENERATION, 40);
    IndexFileDamage.hugeValuesAnywhere(
        file, () -> IndexTermsReader.open(fs, file, GENERATION).close());
  }
}
