package dev.talus.commitlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.CommitLogSync;
import dev.talus.io.NioStorageFs;
import dev.talus.testfs.FaultInjectingFs;
import dev.talus.testfs.FaultInjectingFs.Fault;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** fsyncgate: an I/O error is never retried into a false acknowledgement. */
class FsyncFailureTest {
  @TempDir Path tmp;

  private static CommitLogConfig config(CommitLogSync mode) {
    return CommitLogConfig.builder()
        .syncMode(mode)
        .segmentSize(4096)
        .groupWindow(java.time.Duration.ofMillis(1))
        .build();
  }

  @ParameterizedTest
  @EnumSource(
      value = CommitLogSync.class,
      names = {"GROUP", "BATCH"})
  void failedFsyncFailsTheWriterAndEveryLaterAppend(CommitLogSync mode) throws Exception {
    FaultInjectingFs fs = new FaultInjectingFs(new NioStorageFs());
    CommitLog log = CommitLog.open(fs, tmp, config(mode), new Recorder());
    log.append(new byte[] {1}, new int[] {1});
    fs.failSync(1, Fault.EIO);
    assertThatThrownBy(() -> log.append(new byte[] {2}, new int[] {1}))
        .isInstanceOf(CommitLogFailedException.class)
        .hasRootCauseMessage("EIO: injected I/O error on sync #" + fs.syncCount());
    assertThat(log.stats().failed()).isTrue();
    // The disk "recovered", but the log must not pretend a later fsync covers the lost data.
    assertThatThrownBy(() -> log.append(new byte[] {3}, new int[] {1}))
        .isInstanceOf(CommitLogFailedException.class);
    assertThatThrownBy(log::sync).isInstanceOf(CommitLogFailedException.class);
    log.close(); // the failure was reported already: close does not throw it again
    log.close();
  }

  @Test
  void periodicModeReportsTheFailureOnSyncAndRefusesAppends() throws Exception {
    FaultInjectingFs fs = new FaultInjectingFs(new NioStorageFs());
    CommitLog log = CommitLog.open(fs, tmp, config(CommitLogSync.PERIODIC), new Recorder());
    log.append(new byte[] {1}, new int[] {1});
    fs.failAllSyncs(Fault.DISK_FULL);
    assertThatThrownBy(log::sync)
        .isInstanceOf(CommitLogFailedException.class)
        .hasRootCauseMessage("No space left on device");
    fs.clearFaults();
    assertThatThrownBy(() -> log.append(new byte[] {2}, new int[] {1}))
        .isInstanceOf(CommitLogFailedException.class);
    log.close();
  }

  @Test
  void failedWriteIsNeverAcknowledged() throws Exception {
    FaultInjectingFs fs = new FaultInjectingFs(new NioStorageFs());
    CommitLog log = CommitLog.open(fs, tmp, config(CommitLogSync.PERIODIC), new Recorder());
    fs.failWrite(1, Fault.DISK_FULL);
    assertThatThrownBy(() -> log.append(new byte[] {1}, new int[] {1}))
        .isInstanceOf(CommitLogFailedException.class)
        .hasRootCauseMessage("No space left on device");
    assertThatThrownBy(() -> log.append(new byte[] {2}, new int[] {1}))
        .isInstanceOf(CommitLogFailedException.class);
    log.close();
  }

  /**
   * Runs a small workload once to count its writes and syncs, then again failing the 1st, 2nd, ...
   * n-th of them (EIO, ENOSPC or a torn write), cutting the power, and reopening: every
   * acknowledged record must come back and nothing unwritten may appear.
   */
  @ParameterizedTest
  @EnumSource(
      value = CommitLogSync.class,
      names = {"GROUP", "BATCH"})
  void failingEveryNthOperationNeverLosesAnAcknowledgedRecord(CommitLogSync mode) throws Exception {
    long seed = new Random().nextLong();
    System.out.println("failEveryNth " + mode + " seed=" + seed);
    Random rnd = new Random(seed);
    int records = 25;
    FaultInjectingFs probe = new FaultInjectingFs(new NioStorageFs());
    CommitLog first = CommitLog.open(probe, tmp.resolve("probe"), config(mode), new Recorder());
    long writes0 = probe.writeCount();
    long syncs0 = probe.syncCount();
    for (int i = 0; i < records; i++) {
      first.append(Recorder.numbered(i, 300), new int[] {1});
    }
    long writes = probe.writeCount() - writes0;
    long syncs = probe.syncCount() - syncs0;
    first.close();
    int cases = 0;
    for (int kind = 0; kind < 2; kind++) {
      long ops = kind == 0 ? writes : syncs;
      for (long n = 1; n <= ops; n++) {
        Fault fault = Fault.values()[rnd.nextInt(Fault.values().length)];
        Path dir = tmp.resolve("k" + kind + "n" + n);
        FaultInjectingFs fs = new FaultInjectingFs(new NioStorageFs(), new Random(rnd.nextLong()));
        CommitLog log = CommitLog.open(fs, dir, config(mode), new Recorder());
        if (kind == 0) {
          fs.failWrite(n, fault);
        } else {
          fs.failSync(n, fault);
        }
        List<Long> acked = new ArrayList<>();
        boolean failed = false;
        for (int i = 0; i < records && !failed; i++) {
          try {
            log.append(Recorder.numbered(i, 300), new int[] {1});
            acked.add((long) i);
          } catch (CommitLogFailedException e) {
            failed = true;
          }
        }
        try {
          log.close();
        } catch (CommitLogFailedException e) {
          failed = true;
        }
        fs.simulatePowerLoss(new Random(rnd.nextLong()));
        Recorder r = new Recorder();
        CommitLog.open(fs, dir, config(mode), r).close();
        String ctx = mode + " seed " + seed + " " + (kind == 0 ? "write" : "sync") + " #" + n;
        List<Long> replayed = r.numbers();
        assertThat(replayed).as(ctx).containsAll(acked);
        assertThat(new HashSet<>(replayed)).as(ctx).hasSize(replayed.size());
        assertThat(replayed).as(ctx).allMatch(x -> x >= 0 && x < records);
        cases++;
      }
    }
    System.out.println("failEveryNth " + mode + ": " + cases + " fault points, lost 0");
  }
}
