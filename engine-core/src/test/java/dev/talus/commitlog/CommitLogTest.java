package dev.talus.commitlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.CommitLogSync;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CommitLogTest {
  @TempDir Path dir;
  private final StorageFs fs = new NioStorageFs();

  private static CommitLogConfig config(CommitLogSync mode, int segmentSize) {
    return CommitLogConfig.builder()
        .syncMode(mode)
        .segmentSize(segmentSize)
        .groupWindow(java.time.Duration.ofMillis(2))
        .build();
  }

  private List<Path> segmentFiles() throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().startsWith("CommitLog-")).sorted().toList();
    }
  }

  @Test
  void defaultsFollowCassandra() {
    CommitLogConfig c = CommitLogConfig.defaults();
    assertThat(c.segmentSize()).isEqualTo(32 * 1024 * 1024);
    assertThat(c.maxMutationSize()).isEqualTo(16 * 1024 * 1024);
    assertThat(c.syncMode()).isEqualTo(CommitLogSync.PERIODIC);
    assertThat(c.periodicInterval()).hasSeconds(10);
    assertThat(c.groupWindow()).hasMillis(2);
    assertThat(c.skipCorruptRecords()).isFalse();
    assertThatThrownBy(() -> CommitLogConfig.builder().segmentSize(100).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("segmentSize");
  }

  @ParameterizedTest
  @EnumSource(CommitLogSync.class)
  void recordsRoundTripAcrossSegmentsInOrder(CommitLogSync mode) throws Exception {
    long seed = new Random().nextLong();
    System.out.println("recordsRoundTrip seed=" + seed);
    Random rnd = new Random(seed);
    List<byte[]> written = new ArrayList<>();
    List<CommitLogPosition> positions = new ArrayList<>();
    try (CommitLog log = CommitLog.open(fs, dir, config(mode, 8192), new Recorder())) {
      for (int i = 0; i < 200; i++) {
        byte[] p = new byte[rnd.nextInt(300)];
        rnd.nextBytes(p);
        written.add(p);
        positions.add(log.append(p, new int[] {i % 3}));
      }
      assertThat(log.stats().segmentsCreated()).isGreaterThan(3);
    }
    assertThat(positions).isSorted();
    assertThat(new HashSet<>(positions)).hasSize(positions.size());
    Recorder r = new Recorder();
    try (CommitLog log = CommitLog.open(fs, dir, config(mode, 8192), r)) {
      assertThat(log.stats().recordsReplayed()).isEqualTo(200);
      assertThat(log.stats().tornTailsTruncated()).isZero();
    }
    assertThat(r.positions).as("seed %d", seed).containsExactlyElementsOf(positions);
    for (int i = 0; i < written.size(); i++) {
      assertThat(r.payloads.get(i)).as("seed %d record %d", seed, i).isEqualTo(written.get(i));
    }
  }

  @Test
  void segmentRollsWhenFullAndHeaderNamesVersionAndId() throws Exception {
    try (CommitLog log =
        CommitLog.open(fs, dir, config(CommitLogSync.PERIODIC, 4096), new Recorder())) {
      long first = log.currentPosition().segmentId();
      byte[] p = new byte[1000];
      CommitLogPosition a = log.append(p, new int[] {1});
      CommitLogPosition b = log.append(p, new int[] {1});
      CommitLogPosition c = log.append(p, new int[] {1});
      CommitLogPosition d = log.append(p, new int[] {1});
      assertThat(a.segmentId()).isEqualTo(first);
      assertThat(a.offset()).isEqualTo(SegmentFormat.HEADER_SIZE);
      assertThat(d.segmentId()).isGreaterThan(first);
      assertThat(List.of(a, b, c, d)).isSorted();
      assertThat(log.stats().segments()).isBetween(2, 3); // plus perhaps a pre-created spare
    }
    assertThat(segmentFiles())
        .extracting(p -> p.getFileName().toString())
        .allMatch(n -> n.matches("CommitLog-1-\\d+\\.log"));
  }

  @Test
  void concurrentAppendsGetDistinctPositionsAndAllReplay() throws Exception {
    int threads = 4;
    int each = 500;
    List<CommitLogPosition> all = Collections.synchronizedList(new ArrayList<>());
    try (CommitLog log =
        CommitLog.open(fs, dir, config(CommitLogSync.GROUP, 16384), new Recorder())) {
      List<Thread> ts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int base = t * each;
        Thread th =
            new Thread(
                () -> {
                  CommitLogPosition last = null;
                  for (int i = 0; i < each; i++) {
                    CommitLogPosition pos =
                        log.append(Recorder.numbered(base + i, 40), new int[] {base % 7});
                    assertThat(last == null || pos.compareTo(last) > 0).isTrue();
                    last = pos;
                    all.add(pos);
                  }
                });
        ts.add(th);
        th.start();
      }
      for (Thread th : ts) {
        th.join();
      }
      assertThat(log.stats().syncs()).isLessThan(threads * each); // group commit shares fsyncs
    }
    assertThat(new HashSet<>(all)).hasSize(threads * each);
    Recorder r = new Recorder();
    CommitLog.open(fs, dir, config(CommitLogSync.GROUP, 16384), r).close();
    assertThat(new HashSet<>(r.numbers())).hasSize(threads * each);
    assertThat(r.positions).isSorted();
  }

  private boolean exists(long segmentId) {
    return Files.exists(dir.resolve(SegmentFormat.fileName(segmentId)));
  }

  @Test
  void markFlushedDeletesOnlySegmentsCleanForEveryTable() throws Exception {
    try (CommitLog log =
        CommitLog.open(fs, dir, config(CommitLogSync.BATCH, 4096), new Recorder())) {
      byte[] p = new byte[1500];
      CommitLogPosition a1 = log.append(p, new int[] {1, 2}); // segment A
      log.append(p, new int[] {1}); // segment A
      CommitLogPosition b1 = log.append(p, new int[] {1}); // segment B
      CommitLogPosition b2 = log.append(p, new int[] {2}); // segment B
      CommitLogPosition c1 = log.append(p, new int[] {1}); // segment C (active)
      long a = a1.segmentId();
      long b = b1.segmentId();
      long c = c1.segmentId();
      assertThat(List.of(a, b, c)).isSorted().doesNotHaveDuplicates();
      log.sync(); // seal A and B
      assertThat(exists(a) && exists(b) && exists(c)).isTrue();

      log.markFlushed(1, log.currentPosition());
      assertThat(exists(a) && exists(b)).as("table 2 still needs A and B").isTrue();
      log.markFlushed(2, b2); // b2 itself is not flushed: B stays, A goes
      assertThat(exists(a)).isFalse();
      assertThat(exists(b)).isTrue();
      assertThat(log.stats().segmentsDeleted()).isEqualTo(1);
      log.markFlushed(2, log.currentPosition());
      assertThat(exists(b)).isFalse();
      assertThat(exists(c)).as("the active segment is never deleted").isTrue();
    }
  }

  @Test
  void replayedSegmentsAreDiscardedOnceTheEngineFlushedThem() throws Exception {
    List<Long> ids = new ArrayList<>();
    try (CommitLog log =
        CommitLog.open(fs, dir, config(CommitLogSync.PERIODIC, 4096), new Recorder())) {
      for (int i = 0; i < 10; i++) {
        ids.add(log.append(new byte[500], new int[] {7}).segmentId());
      }
    }
    Recorder r = new Recorder();
    try (CommitLog log = CommitLog.open(fs, dir, config(CommitLogSync.PERIODIC, 4096), r)) {
      assertThat(r.size()).isEqualTo(10);
      assertThat(ids).allMatch(this::exists);
      log.markFlushed(7, log.currentPosition());
      assertThat(ids).noneMatch(this::exists);
      assertThat(exists(log.currentPosition().segmentId())).isTrue();
    }
  }

  @Test
  void oversizedPayloadIsRejectedBeforeAnythingIsWritten() throws Exception {
    try (CommitLog log =
        CommitLog.open(fs, dir, config(CommitLogSync.BATCH, 8192), new Recorder())) {
      CommitLogPosition before = log.currentPosition();
      long sizeBefore = Files.size(segmentFiles().get(0));
      assertThatThrownBy(() -> log.append(new byte[4097], new int[] {1}))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("4097 bytes exceeds the maximum of 4096");
      assertThat(log.currentPosition()).isEqualTo(before);
      assertThat(Files.size(segmentFiles().get(0))).isEqualTo(sizeBefore);
      log.append(new byte[4096], new int[] {1}); // the limit itself is fine
    }
  }

  @Test
  void appendAfterCloseThrowsAndCloseIsIdempotent() throws Exception {
    CommitLog log = CommitLog.open(fs, dir, CommitLogConfig.defaults(), new Recorder());
    log.append(new byte[] {1}, new int[] {1});
    log.close();
    log.close();
    assertThatThrownBy(() -> log.append(new byte[] {1}, new int[] {1}))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
    assertThatThrownBy(log::sync).isInstanceOf(IllegalStateException.class);
    assertThat(Thread.getAllStackTraces().keySet())
        .noneMatch(t -> t.getName().equals("talus-commitlog-sync") && t.isAlive());
  }

  @Test
  @org.junit.jupiter.api.Timeout(120)
  void periodicModeSyncsOnItsOwnAndOnDemand() throws Exception {
    CommitLogConfig c =
        CommitLogConfig.builder()
            .syncMode(CommitLogSync.PERIODIC)
            .periodicInterval(java.time.Duration.ofMillis(20))
            .build();
    try (CommitLog log = CommitLog.open(fs, dir, c, new Recorder())) {
      log.append(new byte[10], new int[] {1});
      // the sync thread syncs by itself; no deadline (a loaded machine may delay it; the test's
      // timeout ends a hung run), and no spinning that would take the core it needs
      while (log.stats().syncs() == 0) {
        java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
      }
      assertThat(log.stats().syncs()).isPositive();
      long s = log.stats().syncs();
      log.append(new byte[10], new int[] {1});
      log.sync();
      assertThat(log.stats().syncs()).isGreaterThan(s);
    }
  }

  @Test
  void segmentIdsKeepGrowingAcrossReopens() throws Exception {
    Set<Long> ids = new HashSet<>();
    long last = 0;
    for (int i = 0; i < 3; i++) {
      try (CommitLog log = CommitLog.open(fs, dir, CommitLogConfig.defaults(), new Recorder())) {
        CommitLogPosition p = log.append(new byte[1], new int[] {1});
        log.markFlushed(1, log.currentPosition());
        assertThat(p.segmentId()).isGreaterThan(last);
        last = p.segmentId();
        ids.add(last);
      }
    }
    assertThat(ids).hasSize(3);
  }
}
