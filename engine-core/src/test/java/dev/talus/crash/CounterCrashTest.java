package dev.talus.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.CommitLogSync;
import dev.talus.ResultRow;
import dev.talus.TalusDb;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Kills (SIGKILL) a child JVM whose two threads increment counters while it flushes and compacts in
 * a loop ({@link CounterCrashChild}), reopens the directory (replaying the commit log) and checks
 * the counters exactly. Each increment is a batch of +1 on a shared counter and +(t + 2) on thread
 * t's own counter, so the own counter tells exactly how many of thread t's batches were applied.
 * Per cycle, every acknowledged batch must be there and at most the one batch each thread had in
 * flight may be there too, and the shared counter must be exactly the sum of the applied batches:
 * an increment lost, or counted twice by replay, fails the check. Cycles write on into the same
 * directory, so each also tests recovery of the previous crash.
 */
class CounterCrashTest {
  @TempDir Path tmp;

  @ParameterizedTest
  @EnumSource(
      value = CommitLogSync.class,
      names = {"BATCH", "PERIODIC"})
  void everyAcknowledgedIncrementCountsExactlyOnceAfterKillNine(CommitLogSync sync)
      throws Exception {
    int cycles = Integer.getInteger("talus.crash.cycles.counters", 4);
    Path dir = tmp.resolve(sync.name());
    Random rnd = new Random(17 + sync.ordinal());
    long[] applied = new long[2]; // batches of each thread applied so far, known exactly
    long totalAcks = 0;
    for (int cycle = 0; cycle < cycles; cycle++) {
      ProcessBuilder pb =
          new ProcessBuilder(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              "-Xmx256m",
              "-XX:TieredStopAtLevel=1",
              "-XX:+UseSerialGC",
              "-cp",
              System.getProperty("java.class.path"),
              CounterCrashChild.class.getName(),
              dir.toString(),
              sync.name());
      pb.redirectError(ProcessBuilder.Redirect.DISCARD);
      Process child = pb.start();
      AtomicLongArray acks = new AtomicLongArray(2);
      AtomicInteger ready = new AtomicInteger();
      Thread reader =
          new Thread(
              () -> {
                try (BufferedReader in =
                    new BufferedReader(
                        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                  String line;
                  while ((line = in.readLine()) != null) {
                    if (line.equals("READY")) {
                      ready.set(1);
                    } else if (line.equals("ACK 0") || line.equals("ACK 1")) {
                      acks.incrementAndGet(line.charAt(4) - '0');
                    }
                  }
                } catch (java.io.IOException ignored) {
                  // the child died mid-line: a torn line is not an acknowledgement
                }
              });
      reader.start();
      // wait for the first acknowledgements (bounded), then let it run for a random while
      for (int i = 0; i < 600 && acks.get(0) + acks.get(1) == 0 && child.isAlive(); i++) {
        child.waitFor(50, TimeUnit.MILLISECONDS);
      }
      assertThat(child.isAlive()).as("child alive in cycle %d", cycle).isTrue();
      child.waitFor(200 + rnd.nextInt(1000), TimeUnit.MILLISECONDS);
      child.destroyForcibly(); // SIGKILL
      child.waitFor(30, TimeUnit.SECONDS);
      reader.join(30_000);
      try (TalusDb db = TalusDb.open(CounterCrashChild.options(dir, sync))) {
        var t = db.table("counts");
        long[] now = new long[2];
        for (int thread = 0; thread < 2; thread++) {
          long own = value(t.select().eq("p", thread + 1).eq("c", 0).one().orElse(null));
          assertThat(own % (thread + 2))
              .as("thread %d's counter is whole batches", thread)
              .isZero();
          now[thread] = own / (thread + 2);
          long acked = acks.get(thread);
          assertThat(now[thread] - applied[thread])
              .as(
                  "cycle %d, %s: batches of thread %d applied (acknowledged: %d)",
                  cycle, sync, thread, acked)
              .isBetween(acked, acked + 1);
          totalAcks += acked;
        }
        long shared = value(t.select().eq("p", 0).eq("c", 0).one().orElse(null));
        assertThat(shared)
            .as("cycle %d, %s: the shared counter counts every applied batch once", cycle, sync)
            .isEqualTo(now[0] + now[1]);
        applied = now;
      }
    }
    assertThat(totalAcks).as("the children acknowledged increments").isPositive();
    System.out.println(
        "[crash] counters, "
            + sync
            + ": "
            + cycles
            + " kill -9 cycles, "
            + totalAcks
            + " acknowledged increments, lost = 0, double-counted = 0");
  }

  private static long value(ResultRow r) {
    return r == null || r.getLong("n") == null ? 0 : r.getLong("n");
  }
}
