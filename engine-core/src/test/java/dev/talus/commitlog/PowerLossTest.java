package dev.talus.commitlog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.CommitLogSync;
import dev.talus.io.NioStorageFs;
import dev.talus.testfs.FaultInjectingFs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Concurrent writers, then a simulated power loss (unsynced writes kept whole, in part or not at
 * all, at random), then a reopen. GROUP and BATCH must keep every acknowledged record; PERIODIC
 * every record acknowledged before the last completed {@link CommitLog#sync}. Nothing that was not
 * written may appear, and every replayed payload must be intact.
 */
class PowerLossTest {
  @TempDir Path tmp;

  @ParameterizedTest
  @EnumSource(CommitLogSync.class)
  void acknowledgedRecordsSurvivePowerLoss(CommitLogSync mode) throws Exception {
    long seed = new Random().nextLong();
    Random rnd = new Random(seed);
    System.out.println("PowerLossTest " + mode + " seed=" + seed);
    int cycles = 25;
    long totalAcked = 0;
    for (int cycle = 0; cycle < cycles; cycle++) {
      totalAcked += cycle(mode, seed, rnd, cycle);
    }
    System.out.println(
        "PowerLossTest " + mode + ": " + cycles + " power losses, " + totalAcked + " acks, lost 0");
  }

  private long cycle(CommitLogSync mode, long seed, Random rnd, int cycle) throws Exception {
    Path dir = tmp.resolve("c" + cycle);
    FaultInjectingFs fs = new FaultInjectingFs(new NioStorageFs(), new Random(rnd.nextLong()));
    CommitLogConfig config =
        CommitLogConfig.builder()
            .syncMode(mode)
            .segmentSize(8192)
            .groupWindow(Duration.ofMillis(1))
            .periodicInterval(Duration.ofMillis(3))
            .build();
    CommitLog log = CommitLog.open(fs, dir, config, new Recorder());
    Set<Long> attempted = ConcurrentHashMap.newKeySet();
    Set<Long> acked = ConcurrentHashMap.newKeySet();
    Set<Long> ackedBeforeLastSync = new HashSet<>();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong next = new AtomicLong();
    List<Thread> writers = new ArrayList<>();
    for (int t = 0; t < 3; t++) {
      long writerSeed = rnd.nextLong();
      Thread th =
          new Thread(
              () -> {
                Random r = new Random(writerSeed);
                while (!stop.get()) {
                  long n = next.getAndIncrement();
                  if (n >= 2000) {
                    return; // PERIODIC writers are fast; keep each cycle small
                  }
                  attempted.add(n);
                  try {
                    log.append(Recorder.numbered(n, r.nextInt(200)), new int[] {(int) (n % 4)});
                  } catch (CommitLogFailedException | IllegalStateException e) {
                    return;
                  }
                  acked.add(n);
                }
              });
      writers.add(th);
      th.start();
    }
    int steps = 1 + rnd.nextInt(20);
    for (int i = 0; i < steps; i++) {
      if (mode == CommitLogSync.PERIODIC && rnd.nextBoolean()) {
        Set<Long> snapshot = new HashSet<>(acked);
        try {
          log.sync();
          ackedBeforeLastSync = snapshot;
        } catch (CommitLogFailedException e) {
          break;
        }
      }
      Thread.sleep(1);
    }
    // Power off: the disk stops at once (RocksDB's inactive file system), then the lights go out.
    fs.failEverything(true);
    stop.set(true);
    for (Thread th : writers) {
      th.join();
    }
    fs.simulatePowerLoss(new Random(rnd.nextLong()));
    try {
      log.close();
    } catch (CommitLogFailedException expected) {
      // the old instance's handles died with the power
    }

    Recorder r = new Recorder();
    CommitLog.open(fs, dir, config, r).close();
    String ctx = mode + " seed " + seed + " cycle " + cycle;
    List<Long> replayed = r.numbers(); // throws if a payload is damaged
    assertThat(new HashSet<>(replayed)).as(ctx + ": no duplicates").hasSize(replayed.size());
    assertThat(attempted).as(ctx + ": nothing unwritten replayed").containsAll(replayed);
    Set<Long> mustSurvive = mode == CommitLogSync.PERIODIC ? ackedBeforeLastSync : acked;
    assertThat(replayed).as(ctx + ": acknowledged records lost").containsAll(mustSurvive);
    return acked.size();
  }
}
