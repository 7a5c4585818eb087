package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.io.CorruptFileException;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A term dictionary written by a writer that spilled runs ({@link IndexTermsWriter#spill}) is byte
 * for byte the one written from memory: seeded random terms and row ids (in order, repeated, and in
 * any order), spilled at random points, a few times or more than {@link IndexTermsWriter#MAX_RUNS}
 * times (so runs are merged before the write). Runs and the scratch block index are deleted once
 * written or on close; a damaged run fails the write with a {@link CorruptFileException} instead of
 * a wrong dictionary. Prints its seeds; {@code -Dtalus.seed} replays one.
 */
class IndexTermSpillTest {
  private static final long GENERATION = 11;
  private final StorageFs fs = new NioStorageFs();
  @TempDir Path dir;

  private static long seed(String test) {
    long seed = Long.getLong("talus.seed", new Random().nextLong());
    System.out.println("IndexTermSpillTest." + test + " seed=" + seed);
    return seed;
  }

  private static byte[] term(Random r, int distinct) {
    int v = r.nextInt(distinct);
    return new byte[] {(byte) (v >>> 16), (byte) (v >>> 8), (byte) v, (byte) (v % 7)};
  }

  @Test
  void aSpilledDictionaryIsTheBytesOfOneWrittenFromMemory() throws IOException {
    long seed = seed("aSpilledDictionaryIsTheBytesOfOneWrittenFromMemory");
    Random r = new Random(seed);
    for (int round = 0; round < 12; round++) {
      int rows = 1 + r.nextInt(5_000);
      int distinct = 1 + r.nextInt(round % 2 == 0 ? 50 : 20_000);
      boolean ordered = r.nextInt(3) > 0;
      int spills = round % 3 == 0 ? 3 * IndexTermsWriter.MAX_RUNS : r.nextInt(8);
      Path memoryFile = dir.resolve("memory" + round + ".db");
      Path spilledFile = dir.resolve("spilled" + round + ".db");
      IndexTermsWriter memory = new IndexTermsWriter();
      try (IndexTermsWriter spilled = new IndexTermsWriter(fs, spilledFile, GENERATION)) {
        int adds = rows * (1 + r.nextInt(3));
        for (int i = 0; i < adds; i++) {
          int row = ordered ? i * rows / adds : r.nextInt(rows);
          byte[] t = term(r, distinct);
          memory.add(t, row);
          spilled.add(t, row);
          if (spills > 0 && r.nextInt(adds) < spills) {
            spilled.spill();
          }
        }
        memory.write(fs, memoryFile, GENERATION, rows);
        spilled.write(fs, spilledFile, GENERATION, rows);
        assertThat(spilled.runCount()).isZero();
      }
      assertThat(Files.readAllBytes(spilledFile))
          .as("seed %d, round %d", seed, round)
          .isEqualTo(Files.readAllBytes(memoryFile));
      try (IndexTermsReader reader = IndexTermsReader.open(fs, spilledFile, GENERATION)) {
        assertThat(reader.rowCount()).isEqualTo(rows);
      }
    }
    assertThat(leftovers()).isEmpty();
  }

  @Test
  void manySpillsAreMergedByLevelSoFewRunsAreKept() throws IOException {
    Path memoryFile = dir.resolve("m.db");
    Path spilledFile = dir.resolve("s.db");
    IndexTermsWriter memory = new IndexTermsWriter();
    try (IndexTermsWriter spilled = new IndexTermsWriter(fs, spilledFile, GENERATION)) {
      for (int i = 0; i < 300; i++) { // 300 spills = 256 + 2 × 16 + 12: runs of three levels
        for (int j = 0; j < 3; j++) {
          byte[] t = {(byte) (i * 7 + j), (byte) j};
          memory.add(t, i);
          spilled.add(t, i);
        }
        spilled.spill();
        assertThat(spilled.runCount()).isLessThan(3 * IndexTermsWriter.MAX_RUNS);
      }
      assertThat(spilled.runCount()).isEqualTo(1 + 2 + 12);
      memory.write(fs, memoryFile, GENERATION, 300);
      spilled.write(fs, spilledFile, GENERATION, 300);
    }
    assertThat(Files.readAllBytes(spilledFile)).isEqualTo(Files.readAllBytes(memoryFile));
    assertThat(leftovers()).isEmpty();
  }

  @Test
  void closingAWriterThatSpilledDeletesItsRuns() throws IOException {
    IndexTermsWriter w = new IndexTermsWriter(fs, dir.resolve("x.db"), GENERATION);
    for (int i = 0; i < 100; i++) {
      w.add(new byte[] {(byte) i}, i);
      if (i % 10 == 9) {
        w.spill();
      }
    }
    assertThat(w.runCount()).isEqualTo(10);
    assertThat(leftovers()).hasSize(10);
    assertThat(w.heapBytes()).isZero();
    w.close();
    assertThat(leftovers()).isEmpty();
    assertThatThrownBy(() -> new IndexTermsWriter().spill())
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aDamagedRunFailsTheWrite() throws IOException {
    long seed = seed("aDamagedRunFailsTheWrite");
    Random r = new Random(seed);
    for (int round = 0; round < 20; round++) {
      Path file = dir.resolve("d" + round + ".db");
      try (IndexTermsWriter w = new IndexTermsWriter(fs, file, GENERATION)) {
        for (int i = 0; i < 300; i++) {
          w.add(term(r, 100), i);
        }
        w.spill();
        w.add(new byte[] {9}, 300);
        Path run;
        try (Stream<Path> files = Files.list(dir)) {
          run = files.filter(p -> p.toString().contains(".run")).findFirst().orElseThrow();
        }
        try (RandomAccessFile f = new RandomAccessFile(run.toFile(), "rw")) {
          long at = r.nextInt((int) f.length());
          f.seek(at);
          int b = f.read();
          f.seek(at);
          f.write(b ^ (1 << r.nextInt(8)));
        }
        assertThatThrownBy(() -> w.write(fs, file, GENERATION, 301))
            .as("seed %d, round %d", seed, round)
            .isInstanceOf(CorruptFileException.class)
            .hasMessageContaining(".run");
      }
      Files.deleteIfExists(file);
      assertThat(leftovers()).isEmpty();
    }
  }

  /** Runs and scratch block indexes left in the directory. */
  private List<Path> leftovers() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.toString().endsWith(".tmp")).toList();
    }
  }
}
