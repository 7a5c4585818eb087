package dev.talus.commitlog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.CommitLogSync;
import dev.talus.ManualClock;
import dev.talus.io.NioStorageFs;
import dev.talus.testfs.FaultInjectingFs;
import dev.talus.testfs.FaultInjectingFs.Fault;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A sync that stalls (an fsync blocked by {@link FaultInjectingFs#stall} until released): the stall
 * indicator holds the time (config clock) the pass began; a writer that stops waiting ({@link
 * CommitLog#awaitDurable} with a timeout) hands its record over ({@link CommitLog#whenDurable}),
 * whose action runs once, with no cause, after the pass that makes it durable — or with the cause
 * when the log fails first — and {@link CommitLog#close} waits for it. The tests wait for the
 * stalled fsync ({@code awaitStalled}) or for the action, never for a time; the timeouts passed are
 * short because the stall is certain.
 */
@Timeout(60)
class StalledSyncTest {
  @TempDir Path tmp;

  private static final Instant T0 = Instant.parse("2026-12-05T10:00:00Z");

  private static CommitLogConfig config(CommitLogSync mode, ManualClock clock) {
    return CommitLogConfig.builder().syncMode(mode).segmentSize(64 << 10).clock(clock).build();
  }

  @ParameterizedTest
  @EnumSource(
      value = CommitLogSync.class,
      names = {"GROUP", "BATCH"})
  void aRecordHandedOverIsCompletedOnceItsStalledFsyncReturns(CommitLogSync mode) throws Exception {
    FaultInjectingFs fs = new FaultInjectingFs(new NioStorageFs());
    ManualClock clock = new ManualClock(T0);
    CommitLog log = CommitLog.open(fs, tmp, config(mode, clock), new Recorder());
    log.append(new byte[] {1}, new int[] {1});
    fs.stall(FaultInjectingFs.Op.SYNC, "CommitLog-*");
    Appended a = log.appendAsync(Payload.of(new byte[] {2}), new int[] {1});
    assertThat(log.awaitDurable(a, Duration.ofMillis(50))).as("the fsync hangs").isFalse();
    fs.awaitStalled(1);
    assertThat(log.stats().syncRunningSince()).as("the stall indicator").isEqualTo(T0);
    List<Throwable> outcomes = new CopyOnWriteArrayList<>();
    CountDownLatch done = new CountDownLatch(1);
    log.whenDurable(
        a,
        cause -> {
          outcomes.add(cause == null ? new Throwable("durable") : cause);
          done.countDown();
        });
    assertThat(log.stats().lateRecords()).isEqualTo(1);
    assertThat(log.stats().lateRecordsPending()).isEqualTo(1);
    assertThat(outcomes).isEmpty();
    fs.releaseStalls();
    done.await();
    assertThat(outcomes).singleElement().extracting(Throwable::getMessage).isEqualTo("durable");
    assertThat(log.stats().lateRecordsPending()).isZero();
    log.close();
    Recorder replay = new Recorder();
    CommitLog.open(fs, tmp, config(mode, clock), replay).close();
    assertThat(replay.size()).isEqualTo(2);
  }

  @ParameterizedTest
  @EnumSource(
      value = CommitLogSync.class,
      names = {"GROUP", "BATCH"})
  void aFailedFsyncCompletesAHandedOverRecordWithItsCause(CommitLogSync mode) throws Exception {
    FaultInjectingFs fs = new FaultInjectingFs(new NioStorageFs());
    CommitLog log = CommitLog.open(fs, tmp, config(mode, new ManualClock(T0)), new Recorder());
    fs.stall(FaultInjectingFs.Op.SYNC, "CommitLog-*");
    Appended a = log.appendAsync(Payload.of(new byte[] {2}), new int[] {1});
    assertThat(log.awaitDurable(a, Duration.ofMillis(50))).isFalse();
    CompletableFuture<Throwable> outcome = new CompletableFuture<>();
    log.whenDurable(a, outcome::complete);
    fs.failNext(FaultInjectingFs.Op.SYNC, "CommitLog-*", Fault.EIO); // the stalled one, released
    fs.releaseStalls();
    assertThat(outcome.get()).isNotNull();
    assertThat(log.stats().failed()).isTrue();
    log.close();
  }

  @ParameterizedTest
  @EnumSource(
      value = CommitLogSync.class,
      names = {"GROUP", "BATCH"})
  void closeWaitsForAHandedOverRecordAndCompletesIt(CommitLogSync mode) throws Exception {
    FaultInjectingFs fs = new FaultInjectingFs(new NioStorageFs());
    CommitLog log = CommitLog.open(fs, tmp, config(mode, new ManualClock(T0)), new Recorder());
    fs.stall(FaultInjectingFs.Op.SYNC, "CommitLog-*");
    Appended a = log.appendAsync(Payload.of(new byte[] {2}), new int[] {1});
    assertThat(log.awaitDurable(a, Duration.ofMillis(50))).isFalse();
    CompletableFuture<Throwable> outcome = new CompletableFuture<>();
    log.whenDurable(a, cause -> outcome.complete(cause == null ? new Throwable("durable") : cause));
    CompletableFuture<Void> close = CompletableFuture.runAsync(log::close);
    fs.releaseStalls();
    close.get();
    assertThat(outcome).isDone();
    assertThat(outcome.get().getMessage()).isEqualTo("durable");
  }
}
