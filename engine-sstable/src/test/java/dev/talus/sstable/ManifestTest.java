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

  private Path seal() {
    return dir.resolve(ManifestSeal.FILE_NAME);
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
    byte[] sealBefore;
    try (Manifest m = Manifest.open(fs, dir)) {
      m.apply(List.of(1L, 2L), List.of());
      before = m.sizeInBytes();
      sealBefore = Files2.read(fs, seal());
      m.apply(List.of(3L, 4L, 5L), List.of(1L));
    }
    byte[] full = Files2.read(fs, file());
    byte[] fullSeal = Files2.read(fs, seal());
    for (long len = before; len < full.length; len++) {
      // a crash while the last edit was appended: its seal record was never written
      Files2.write(fs, file(), Arrays.copyOf(full, (int) len));
      Files2.write(fs, seal(), sealBefore);
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
    Files2.write(fs, seal(), fullSeal);
    try (Manifest m = Manifest.open(fs, dir)) {
      assertThat(m.liveGenerations()).containsExactly(2L, 3L, 4L, 5L);
    }
  }

  @Test
  void losingAnAcknowledgedEditIsCorruptionAtEveryTruncationOffset() throws Exception {
    long before;
    try (Manifest m = Manifest.open(fs, dir)) {
      m.apply(List.of(1L, 2L), List.of());
      before = m.sizeInBytes();
      m.apply(List.of(3L, 4L, 5L), List.of(1L)); // acknowledged: its seal record is synced
    }
    byte[] full = Files2.read(fs, file());
    for (long len = before; len < full.length; len++) {
      Files2.write(fs, file(), Arrays.copyOf(full, (int) len));
      long at = before;
      assertThatThrownBy(() -> Manifest.open(fs, dir).close())
          .as("cut at %d", len)
          .isInstanceOf(CorruptFileException.class)
          .hasMessageContaining(file().toString())
          .hasMessageContaining("at offset " + at)
          .hasMessageContaining("lost acknowledged edits");
      assertThat(Files2.read(fs, file())).hasSize((int) len); // nothing repaired or cut
      assertThatThrownBy(() -> Manifest.readLive(fs, dir)).isInstanceOf(CorruptFileException.class);
    }
    byte[] zeroed = full.clone();
    Arrays.fill(zeroed, (int) before + 3, zeroed.length, (byte) 0);
    Files2.write(fs, file(), zeroed);
    assertThatThrownBy(() -> Manifest.open(fs, dir).close())
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("lost acknowledged edits");
  }

  @Test
  void aDamagedOrMissingSealNeverFailsASoundManifest() throws Exception {
    try (Manifest m = Manifest.open(fs, dir)) {
      m.apply(List.of(1L, 2L), List.of());
      m.apply(List.of(3L), List.of(1L));
    }
    byte[] full = Files2.read(fs, file());
    byte[] seal = Files2.read(fs, seal());
    Random r = new Random(5);
    for (int i = 0; i < 60; i++) {
      Files2.write(fs, file(), full);
      byte[] d = seal.clone();
      if (i % 3 == 0) {
        d[r.nextInt(d.length)] ^= (byte) (1 << r.nextInt(8));
      } else if (i % 3 == 1) {
        d = Arrays.copyOf(d, r.nextInt(d.length));
      }
      if (i % 3 == 2) {
        fs.delete(seal());
      } else {
        Files2.write(fs, seal(), d);
      }
      try (Manifest m = Manifest.open(fs, dir)) {
        assertThat(m.liveGenerations()).as("case %d", i).containsExactly(2L, 3L);
        m.apply(List.of(4L), List.of());
      }
      try (Manifest m = Manifest.open(fs, dir)) {
        assertThat(m.liveGenerations()).containsExactly(2L, 3L, 4L);
        m.apply(List.of(), List.of(4L));
      }
      full = Files2.read(fs, file());
      seal = Files2.read(fs, seal());
    }
  }

  @Test
  void aVersionOneManifestIsReadAndRewrittenNumbered() throws Exception {
    // version 1: header, then records without edit numbers (as written before the seal existed)
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    FileFormat.writeHeader(new java.io.DataOutputStream(b), Manifest.HEADER_NAME, 1, 0);
    b.write(v1Record(new byte[] {2, 1, 2, 0, 3})); // added {1, 2}, next generation 3
    b.write(v1Record(new byte[] {1, 7, 1, 1, 8})); // added {7}, removed {1}, next 8
    Files2.write(fs, file(), b.toByteArray());
    assertThat(Manifest.readLive(fs, dir)).containsExactly(2L, 7L);
    try (Manifest m = Manifest.open(fs, dir)) {
      assertThat(m.liveGenerations()).containsExactly(2L, 7L);
      assertThat(m.newGeneration()).isEqualTo(8);
    }
    assertThat(Files2.read(fs, file())[4 + 1 + Manifest.HEADER_NAME.length() + 3])
        .isEqualTo((byte) Manifest.VERSION);
    assertThat(fs.exists(seal())).isTrue();
  }

  private static byte[] v1Record(byte[] payload) {
    java.nio.ByteBuffer r = java.nio.ByteBuffer.allocate(12 + payload.length);
    r.putInt(payload.length);
    r.putInt(
        FileFormat.crc32c(java.nio.ByteBuffer.allocate(4).putInt(payload.length).array(), 0, 4));
    r.putInt(FileFormat.crc32c(payload, 0, payload.length));
    r.put(payload);
    return r.array();
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
    // 500 edits of about 180 bytes each (40 generations in, 40 out) pass the threshold once
    List<Long> last = List.of();
    try (Manifest m = Manifest.open(fs, dir)) {
      for (long i = 0; i < 500; i++) {
        List<Long> added =
            java.util.stream.LongStream.range(40 * i + 1, 40 * i + 41).boxed().toList();
        m.apply(added, last);
        last = added;
      }
      assertThat(m.sizeInBytes()).isLessThan(Manifest.REWRITE_THRESHOLD / 2);
      assertThat(m.liveGenerations()).containsExactlyElementsOf(last);
      m.rewrite();
      assertThat(m.sizeInBytes()).isLessThan(200);
    }
    try (Manifest m = Manifest.open(fs, dir)) {
      assertThat(m.liveGenerations()).containsExactlyElementsOf(last);
      assertThat(m.newGeneration()).isEqualTo(20001);
    }
    assertThat(fs.list(dir)).containsExactlyInAnyOrder(file(), seal());
  }

  @Test
  void leftoversOfDeadGenerationsAndTempFilesAreDeleted() throws Exception {
    Manifest.open(fs, dir).close(); // SSTables are written into a directory with a manifest
    TestData.write(fs, dir, 1, TestData.partitions(new Random(1), 5, 5), SSTableOptions.DEFAULTS);
    TestData.write(fs, dir, 2, TestData.partitions(new Random(2), 5, 5), SSTableOptions.DEFAULTS);
    Files2.write(fs, dir.resolve("nb-3-Data.db.tmp"), new byte[] {1});
    Files2.write(fs, dir.resolve("unrelated.txt"), new byte[] {1});
    try (Manifest m = Manifest.open(fs, dir)) {
      Files2.write(fs, dir.resolve("MANIFEST.seal.tmp"), new byte[] {1}); // a rewrite's leftover
      m.apply(List.of(2L), List.of());
      List<Path> deleted = m.deleteUnlistedFiles();
      assertThat(deleted).hasSize(Component.values().length + 2);
    }
    assertThat(fs.list(dir))
        .allSatisfy(
            p -> {
              String n = p.getFileName().toString();
              assertThat(
                      n.startsWith("nb-2-")
                          || n.equals(Manifest.FILE_NAME)
                          || n.equals(ManifestSeal.FILE_NAME)
                          || n.equals("unrelated.txt"))
                  .as(n)
                  .isTrue();
            });
    SSTableReader r = SSTableReader.open(fs, dir, 2, ChunkCache.disabled());
    r.release();
  }
}
