package dev.talus.commitlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.CommitLogSync;
import dev.talus.io.CorruptFileException;
import dev.talus.io.NioStorageFs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Damage in the synced part of the log is corruption, never a silently shorter log. */
class CorruptionTest {
  @TempDir Path tmp;

  private final List<CommitLogPosition> positions = new ArrayList<>();
  private final List<byte[]> payloads = new ArrayList<>();

  private Path writeLog(Path dir, CommitLogSync mode, int records) {
    CommitLogConfig config =
        CommitLogConfig.builder().syncMode(mode).segmentSize(64 * 1024).build();
    try (CommitLog log = CommitLog.open(new NioStorageFs(), dir, config, new Recorder())) {
      for (int i = 0; i < records; i++) {
        byte[] p = Recorder.numbered(i, 50);
        payloads.add(p);
        positions.add(log.append(p, new int[] {1}));
      }
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().findFirst().orElseThrow();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void flip(Path file, long offset, int mask) throws Exception {
    byte[] b = Files.readAllBytes(file);
    b[(int) offset] ^= (byte) mask;
    Files.write(file, b);
  }

  @ParameterizedTest
  @EnumSource(
      value = CommitLogSync.class,
      names = {"PERIODIC", "BATCH"})
  void flippedByteInAnEarlierRecordFailsTheOpenNamingFileAndOffset(CommitLogSync mode)
      throws Exception {
    Path dir = tmp.resolve("log");
    Path segment = writeLog(dir, mode, 30);
    long bad = positions.get(10).offset();
    flip(segment, bad + 20, 0x40); // inside the payload

    CommitLogConfig strict = CommitLogConfig.builder().syncMode(mode).build();
    assertThatThrownBy(() -> CommitLog.open(new NioStorageFs(), dir, strict, new Recorder()))
        .isInstanceOfSatisfying(
            CorruptFileException.class,
            e -> {
              assertThat(e.file()).isEqualTo(segment);
              assertThat(e.offset()).isEqualTo(bad);
            })
        .hasMessageContaining("checksum");

    Recorder r = new Recorder();
    CommitLogConfig lenient = strict.toBuilder().skipCorruptRecords(true).build();
    try (CommitLog log = CommitLog.open(new NioStorageFs(), dir, lenient, r)) {
      assertThat(log.stats().recordsSkippedAsCorrupt()).isEqualTo(1);
      assertThat(log.stats().recordsReplayed()).isEqualTo(29);
    }
    List<Long> expected = new ArrayList<>();
    for (long i = 0; i < 30; i++) {
      if (i != 10) {
        expected.add(i);
      }
    }
    assertThat(r.numbers()).isEqualTo(expected);
  }

  @Test
  void flippedFrameHeaderIsCorruptionToo() throws Exception {
    Path dir = tmp.resolve("log");
    Path segment = writeLog(dir, CommitLogSync.BATCH, 10);
    long bad = positions.get(3).offset();
    flip(segment, bad + 1, 0x01); // the length field
    assertThatThrownBy(
            () ->
                CommitLog.open(new NioStorageFs(), dir, CommitLogConfig.defaults(), new Recorder()))
        .isInstanceOfSatisfying(
            CorruptFileException.class, e -> assertThat(e.offset()).isEqualTo(bad));
  }

  @Test
  void damagedHeaderOfAnOlderSegmentIsCorruption() throws Exception {
    Path dir = tmp.resolve("log");
    Path segment = writeLog(dir, CommitLogSync.PERIODIC, 3);
    CommitLog.open(new NioStorageFs(), dir, CommitLogConfig.defaults(), new Recorder()).close();
    flip(segment, 9, 0x10); // the segment id in the header
    assertThatThrownBy(
            () ->
                CommitLog.open(new NioStorageFs(), dir, CommitLogConfig.defaults(), new Recorder()))
        .isInstanceOfSatisfying(
            CorruptFileException.class,
            e -> {
              assertThat(e.file()).isEqualTo(segment);
              assertThat(e.offset()).isZero();
            });
  }

  /** Random single-byte flips: either a CorruptFileException or every record intact. */
  @Test
  void randomFlipsAreDetectedOrHarmless() throws Exception {
    long seed = new Random().nextLong();
    System.out.println("randomFlips seed=" + seed);
    Random rnd = new Random(seed);
    Path dir = tmp.resolve("log");
    Path segment = writeLog(dir, CommitLogSync.BATCH, 20);
    byte[] clean = Files.readAllBytes(segment);
    int detected = 0;
    int harmless = 0;
    for (int round = 0; round < 200; round++) {
      Path caseDir = tmp.resolve("flip" + round);
      Files.createDirectories(caseDir);
      byte[] b = clean.clone();
      int at = SegmentFormat.HEADER_SIZE + rnd.nextInt(b.length - SegmentFormat.HEADER_SIZE);
      b[at] ^= (byte) (1 + rnd.nextInt(255));
      Files.write(caseDir.resolve(segment.getFileName()), b);
      Recorder r = new Recorder();
      try {
        CommitLog.open(new NioStorageFs(), caseDir, CommitLogConfig.defaults(), r).close();
      } catch (CorruptFileException e) {
        detected++;
        continue;
      }
      // Undetected flips may only hit bytes no record depends on (alignment padding, the final
      // marker): the replay must be complete and exact.
      assertThat(r.size()).as("seed %d flip at %d", seed, at).isEqualTo(20);
      for (int i = 0; i < 20; i++) {
        assertThat(r.payloads.get(i)).as("seed %d flip at %d", seed, at).isEqualTo(payloads.get(i));
      }
      harmless++;
    }
    System.out.println("randomFlips: detected=" + detected + " harmless=" + harmless);
    assertThat(detected).isGreaterThan(150);
  }
}
