package dev.talus.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.CommitLogSync;
import dev.talus.ResultRow;
import dev.talus.TalusDb;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
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
      // The acknowledgements go to a file, not a pipe: what the child wrote before the kill is
      // all there afterwards (a pipe read after the child's death can lose its unread tail).
      Path acksFile = tmp.resolve(sync + "-" + cycle + ".acks");
      pb.redirectOutput(acksFile.toFile());
      Process child = pb.start();
      // wait for the first acknowledgements (bounded), then let it run for a random while
      for (int i = 0; i < 600 && !acknowledged(acksFile) && child.isAlive(); i++) {
        child.waitFor(50, TimeUnit.MILLISECONDS);
      }
      assertThat(child.isAlive()).as("child alive in cycle %d", cycle).isTrue();
      child.waitFor(200 + rnd.nextInt(1000), TimeUnit.MILLISECONDS);
      child.destroyForcibly(); // SIGKILL
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("child killed").isTrue();
      long[] acks = acks(acksFile);
      try (TalusDb db = TalusDb.open(CounterCrashChild.options(dir, sync))) {
        var t = db.table("counts");
        long[] now = new long[2];
        for (int thread = 0; thread < 2; thread++) {
          long own = value(t.select().eq("p", thread + 1).eq("c", 0).one().orElse(null));
          assertThat(own % (thread + 2))
              .as("thread %d's counter is whole batches", thread)
              .isZero();
          now[thread] = own / (thread + 2);
          long acked = acks[thread];
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

  private static boolean acknowledged(Path file) throws java.io.IOException {
    return Files.exists(file) && Files.readString(file, StandardCharsets.UTF_8).contains("ACK");
  }

  /** Complete {@code ACK t} lines per thread (a line torn by the kill does not count). */
  private static long[] acks(Path file) throws java.io.IOException {
    String all = Files.readString(file, StandardCharsets.UTF_8);
    long[] n = new long[2];
    int start = 0;
    for (int end = all.indexOf('\n'); end >= 0; start = end + 1, end = all.indexOf('\n', start)) {
      String line = all.substring(start, end);
      if (line.equals("ACK 0") || line.equals("ACK 1")) {
        n[line.charAt(4) - '0']++;
      }
    }
    return n;
  }

  private static long value(ResultRow r) {
    return r == null || r.getLong("n") == null ? 0 : r.getLong("n");
  }
}
