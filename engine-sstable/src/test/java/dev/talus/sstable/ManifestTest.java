package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.io.CorruptFileException;
import dev.talus.io.FileFormat;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManifestTest {
  @TempDir Path dir;

  private final StorageFs fs = new NioStorageFs();

  private Path file() {
    return dir.resolve(Manifest.FILE_NAME);
  }

  @Test
  void editsSurviveReopen() throws Exception {
    try (Manifest m = Manifest.open(fs, dir)) {
      long a = m.newGeneration();
      long b = m.newGeneration();
      m.apply(List.of(a), List.of());
      m.apply(List.of(b), List.of());
      long c = m.newGeneration();
      m.apply(List.of(c), List.of(a, b)); // a compaction swap
    }
    try (Manifest m = Manifest.open(fs, dir)) {
      assertThat(m.liveGenerations()).containsExactly(3L);
      assertThat(m.newGeneration()).isEqualTo(4);
      assertThatThrownBy(() -> m.apply(List.of(), List.of(1L)))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void tornLastRecordIsIgnoredAtEveryTruncationOffset() throws Exception {
    long before;
    try (Manifest m = Manifest.open(fs, dir)) {
      m.apply(List.of(1L, 2L), List.of());
      before = m.sizeInBytes();
      m.apply(List.of(3L, 4L, 5L), List.of(1L));
    }
    byte[] full = Files2.read(fs, file());
    for (long len = before; len < full.length; len++) {
      Files2.write(fs, file(), Arrays.copyOf(full, (int) len));
      try (Manifest m = Manifest.open(fs, dir)) {
        assertThat(m.liveGenerations()).as("cut at %d", len).containsExactly(1L, 2L);
        assertThat(m.sizeInBytes()).isEqualTo(before); // the torn tail was cut off
        m.apply(List.of(9L), List.of()); // and appending works afterwards
      }
      try (Manifest m = Manifest.open(fs, dir)) {
        assertThat(m.liveGenerations()).containsExactly(1L, 2L, 9L);
      }
    }
    // Zeros left by a crash after the file grew count as torn too.
    byte[] zeros = Arrays.copyOf(full, full.length + 40);
    Files2.write(fs, file(), zeros);
    try (Manifest m = Manifest.open(fs, dir)) {
      assertThat(m.liveGenerations()).containsExactly(2L, 3L, 4L, 5L);
    }
  }

  @Test
  void damagedEarlierRecordIsCorruption() throws Exception {
    long firstEnd;
    try (Manifest m = Manifest.open(fs, dir)) {
      m.apply(List.of(1L), List.of());
      firstEnd = m.sizeInBytes();
      m.apply(List.of(2L), List.of());
    }
    byte[] full = Files2.read(fs, file());
    int headerEnd = FileFormat.headerLength(Manifest.HEADER_NAME);
    // The snapshot record written at creation sits between the header and the first edit.
    Random r = new Random(11);
    for (int i = 0; i < 50; i++) {
      byte[] d = full.clone();
      int at = headerEnd + r.nextInt((int) firstEnd - headerEnd);
      d[at] ^= (byte) (1 << r.nextInt(8));
      Files2.write(fs, file(), d);
      assertThatThrownBy(() -> Manifest.open(fs, dir).close())
          .as("flip at %d", at)
          .isInstanceOf(CorruptFileException.class);
    }
    byte[] d = full.clone();
    d[0] ^= 1;
    Files2.write(fs, file(), d);
    assertThatThrownBy(() -> Manifest.open(fs, dir).close())
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("magic");
  }

  @Test
  void rewriteKeepsTheLiveSet() throws Exception {
    try (Manifest m = Manifest.open(fs, dir)) {
      for (long g = 1; g <= 5000; g++) {
        m.apply(List.of(g), g > 3 ? List.of(g - 3) : List.of());
      }
      assertThat(m.sizeInBytes()).isLessThan(Manifest.REWRITE_THRESHOLD + 100);
      assertThat(m.liveGenerations()).containsExactly(4998L, 4999L, 5000L);
      m.rewrite();
      assertThat(m.sizeInBytes()).isLessThan(100);
    }
    try (Manifest m = Manifest.open(fs, dir)) {
      assertThat(m.liveGenerations()).containsExactly(4998L, 4999L, 5000L);
      assertThat(m.newGeneration()).isEqualTo(5001);
    }
    assertThat(fs.list(dir)).containsExactly(file());
  }

  @Test
  void leftoversOfDeadGenerationsAndTempFilesAreDeleted() throws Exception {
    TestData.write(fs, dir, 1, TestData.partitions(new Random(1), 5, 5), SSTableOptions.DEFAULTS);
    TestData.write(fs, dir, 2, TestData.partitions(new Random(2), 5, 5), SSTableOptions.DEFAULTS);
    Files2.write(fs, dir.resolve("nb-3-Data.db.tmp"), new byte[] {1});
    Files2.write(fs, dir.resolve("unrelated.txt"), new byte[] {1});
    try (Manifest m = Manifest.open(fs, dir)) {
      m.apply(List.of(2L), List.of());
      List<Path> deleted = m.deleteUnlistedFiles();
      assertThat(deleted).hasSize(Component.values().length + 1);
    }
    assertThat(fs.list(dir))
        .allSatisfy(
            p -> {
              String n = p.getFileName().toString();
              assertThat(
                      n.startsWith("nb-2-")
                          || n.equals(Manifest.FILE_NAME)
                          || n.equals("unrelated.txt"))
                  .as(n)
                  .isTrue();
            });
    SSTableReader r = SSTableReader.open(fs, dir, 2, ChunkCache.disabled());
    r.release();
  }
}
