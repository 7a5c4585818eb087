package dev.talus.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.CommitLogSync;
import dev.talus.ResultRow;
import dev.talus.Table;
import dev.talus.TalusDb;
import dev.talus.longrun.ResumeState;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Kills a child JVM that writes through the public API (SIGKILL, at a random moment, while it
 * flushes and compacts), reopens the directory and checks every acknowledged write: each
 * acknowledged row is there with its exact value unless an acknowledged delete removed it, and
 * every row present holds a value some write gave it. The next cycle writes on into the same
 * directory, so each cycle also tests recovery of the previous crash.
 */
class EngineCrashTest {
  @TempDir Path tmp;

  /** Flush + compaction rounds the churning children completed (printed in the summary). */
  private long churnRounds;

  /** The expected state after the cycles so far. */
  static final class Expected {
    final Map<Long, Boolean> acked = new HashMap<>(); // key → present?
    final Set<Long> uncertain = new HashSet<>();

    static long key(int thread, int seq) {
      return ((long) thread << 32) | seq;
    }
  }

  @ParameterizedTest
  @EnumSource(CommitLogSync.class)
  void acknowledgedWritesSurviveKillNine(CommitLogSync sync) throws Exception {
    int cycles = Integer.getInteger("talus.crash.cycles", 7);
    long acks = runCycles(sync, cycles, 42 + sync.ordinal(), false);
    summary(sync.name(), cycles, acks);
  }

  /** Kills that land inside a flush or a compaction: the child runs them back to back. */
  @Test
  void acknowledgedWritesSurviveKillNineDuringFlushAndCompaction() throws Exception {
    int cycles = Integer.getInteger("talus.crash.cycles.churn", 4);
    long acks = runCycles(CommitLogSync.BATCH, cycles, 77, true);
    summary("BATCH, flush+compaction loop (" + churnRounds + " rounds completed)", cycles, acks);
    assertThat(churnRounds).as("the children flushed and compacted").isPositive();
  }

  /**
   * The long crash loop ({@code mvn -B verify -Pcrash -Dtalus.crash.cycles.long=1000}): the cycles
   * are split over the sync modes and, for a quarter of them, a flush and compaction loop, in
   * chunks of {@value #CHUNK} cycles. With {@code -Dtalus.crash.resume=/abs/file} each finished
   * chunk is recorded there and a later run with the same file skips it (counting its figures), so
   * a 10,000-cycle run can go in pieces; {@code -Dtalus.crash.minutes=M} ends a piece after the
   * chunk running when M minutes are up.
   */
  @Test
  @Tag("slow")
  @Tag("crash")
  void manyKillNineCycles() throws Exception {
    int cycles = Integer.getInteger("talus.crash.cycles.long", 1000);
    resume = ResumeState.fromProperty("talus.crash.resume");
    resume.requireSame("talus.crash.cycles.long", Integer.toString(cycles));
    churnRounds = resume.get("churnRounds", 0);
    double minutes = Double.parseDouble(System.getProperty("talus.crash.minutes", "1e9"));
    budgetEnds = System.nanoTime() + (long) Math.min(minutes * 60e9, Long.MAX_VALUE / 2.0);
    int perRun = Math.max(1, cycles / 4);
    long acks = 0;
    int done = 0;
    for (CommitLogSync sync : CommitLogSync.values()) {
      acks += runChunked(sync, perRun, 1000 + sync.ordinal(), false);
      done += perRun;
    }
    int churn = Math.max(1, cycles - done);
    acks += runChunked(CommitLogSync.GROUP, churn, 2000, true);
    if (chunksLeft > 0) {
      System.out.println(
          "[crash] stopped after talus.crash.minutes with "
              + chunksLeft
              + " chunks left; so far "
              + cyclesDone
              + " of "
              + (done + churn)
              + " cycles, "
              + acks
              + " acknowledged writes, lost = 0. Run again with "
              + resume.describe()
              + " to go on");
      return;
    }
    summary(
        "long run, all sync modes + flush/compaction loop (" + churnRounds + " rounds)",
        done + churn,
        acks);
  }

  /** The long run's progress ({@code talus.crash.resume}); none for the short runs. */
  private ResumeState resume = ResumeState.none();

  private long budgetEnds = Long.MAX_VALUE;
  private int chunksLeft;
  private int cyclesDone;

  private static void summary(String what, int cycles, long acks) {
    // Every cycle asserts that no acknowledged write is missing, so reaching here means lost = 0.
    System.out.println(
        "[crash] "
            + what
            + ": "
            + cycles
            + " kill -9 cycles, "
            + acks
            + " acknowledged writes, lost = 0");
  }

  private long runCycles(CommitLogSync sync, int cycles, long seed, boolean churn)
      throws Exception {
    return runCycles(sync, cycles, seed, churn, "");
  }

  /**
   * Long runs go in chunks of {@value #CHUNK} cycles, each in a directory of its own: every cycle
   * verifies whole partitions, and a directory that kept growing would make each verify slower than
   * the last.
   */
  private long runChunked(CommitLogSync sync, int cycles, long seed, boolean churn)
      throws Exception {
    long acks = 0;
    for (int done = 0, chunk = 0; done < cycles; done += CHUNK, chunk++) {
      int n = Math.min(CHUNK, cycles - done);
      String name = sync + (churn ? " flush+compaction loop" : "") + " chunk " + chunk;
      String key = "chunk." + sync + (churn ? ".churn." : ".") + chunk;
      long a;
      if (resume.has(key)) {
        a = resume.get(key, 0);
        System.out.println("[crash] " + name + ": done by an earlier run, " + a + " acks");
      } else if (System.nanoTime() - budgetEnds > 0) {
        chunksLeft++;
        continue;
      } else {
        a = runCycles(sync, n, seed * 100 + chunk, churn, "-" + chunk);
        summary(name, n, a);
        resume.put(key, a);
        resume.put("churnRounds", churnRounds);
        resume.save();
      }
      acks += a;
      cyclesDone += n;
    }
    return acks;
  }

  static final int CHUNK = 50;

  private long runCycles(CommitLogSync sync, int cycles, long seed, boolean churn, String dirSuffix)
      throws Exception {
    Path dir = tmp.resolve(sync.name() + (churn ? "-churn" : "") + dirSuffix);
    Random rnd = new Random(seed);
    Expected expected = new Expected();
    int next = 0;
    long totalAcks = 0;
    boolean created = false; // a child printed READY: its table creation was acknowledged
    for (int cycle = 0; cycle < cycles; cycle++) {
      int first = next;
      ProcessBuilder pb =
          new ProcessBuilder(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              "-Xmx256m",
              "-XX:TieredStopAtLevel=1",
              "-XX:+UseSerialGC",
              "-cp",
              System.getProperty("java.class.path"),
              EngineCrashChild.class.getName(),
              dir.toString(),
              sync.name(),
              Long.toString(seed * 1000 + cycle),
              Integer.toString(first),
              churn ? "churn" : "plain");
      pb.redirectErrorStream(false);
      pb.redirectError(ProcessBuilder.Redirect.DISCARD);
      Process child = pb.start();
      long killAfterMs = 300 + rnd.nextInt(1200);
      List<String> lines = new ArrayList<>();
      Thread reader =
          new Thread(
              () -> {
                try (BufferedReader in =
                    new BufferedReader(
                        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                  String line;
                  while ((line = in.readLine()) != null) {
                    synchronized (lines) {
                      lines.add(line);
                    }
                  }
                } catch (java.io.IOException ignored) {
                  // the child died mid-line: the torn line is simply not an acknowledgement
                }
              });
      reader.start();
      // wait for READY, then let it write for a while
      for (int i = 0; i < 600 && !hasReady(lines); i++) {
        child.waitFor(50, TimeUnit.MILLISECONDS);
        assertThat(child.isAlive() || hasReady(lines))
            .as("child died before READY in cycle %d", cycle)
            .isTrue();
      }
      child.waitFor(killAfterMs, TimeUnit.MILLISECONDS);
      child.destroyForcibly(); // SIGKILL
      child.waitFor(30, TimeUnit.SECONDS);
      reader.join(30_000);
      int maxSeq = first;
      // Per writer: the two threads run at different speeds, so the window of a delete that may
      // have been in flight must follow each thread's own progress, not the faster one's.
      int[] threadMax = {first, first};
      synchronized (lines) {
        for (String line : lines) {
          String[] f = line.split(" ");
          if (f.length == 2 && f[0].equals("CHURN")) {
            churnRounds++;
          }
          if (f.length != 3) {
            continue;
          }
          long k = Expected.key(Integer.parseInt(f[1]), Integer.parseInt(f[2]));
          if (f[0].equals("ACK")) {
            expected.acked.put(k, true);
            expected.uncertain.remove(k);
            maxSeq = Math.max(maxSeq, Integer.parseInt(f[2]));
            int th = Integer.parseInt(f[1]);
            threadMax[th] = Math.max(threadMax[th], Integer.parseInt(f[2]));
            totalAcks++;
          } else if (f[0].equals("DEL")) {
            expected.acked.put(k, false);
            expected.uncertain.remove(k);
          }
        }
      }
      // The write each thread had in flight (its next insert, and a delete near it) may or may
      // not have survived: those keys are uncertain until a later cycle decides them.
      for (int thread = 0; thread < 2; thread++) {
        for (int s = first; s <= threadMax[thread] + 2; s++) {
          long k = Expected.key(thread, s);
          if (!expected.acked.containsKey(k)) {
            expected.uncertain.add(k);
          }
        }
        for (int s = Math.max(first, threadMax[thread] - 40); s <= threadMax[thread] + 2; s++) {
          long k = Expected.key(thread, s);
          if (Boolean.TRUE.equals(expected.acked.get(k))) {
            expected.uncertain.add(k); // a delete of it may have been in flight
          }
        }
      }
      // A child on a starved machine may not reach READY before the kill: then this cycle killed
      // it while it opened the database or created the table, which need not have survived
      // unless an earlier cycle's child had created it.
      synchronized (lines) {
        created |= lines.contains("READY");
      }
      verify(dir, sync, expected, cycle, created);
      next = maxSeq + 100;
    }
    assertThat(totalAcks).as("the children acknowledged writes").isPositive();
    return totalAcks;
  }

  private static boolean hasReady(List<String> lines) {
    synchronized (lines) {
      return !lines.isEmpty() && lines.get(0).equals("READY");
    }
  }

  /**
   * Opens the database and checks every acknowledged write; {@code created}: the table's creation
   * was acknowledged (else it may be missing, and then nothing was acknowledged either).
   */
  private static void verify(
      Path dir, CommitLogSync sync, Expected expected, int cycle, boolean created) {
    try (TalusDb db = TalusDb.open(EngineCrashChild.options(dir, sync))) {
      if (!created && db.tables().stream().noneMatch(x -> x.schema().name().equals("crash"))) {
        assertThat(expected.acked).as("cycle %d: acknowledged without a table", cycle).isEmpty();
        return;
      }
      Table t = db.table("crash");
      for (int thread = 0; thread < 2; thread++) {
        Map<Integer, String> present = new HashMap<>();
        for (ResultRow r : t.select().eq("p", thread).execute()) {
          present.put(r.getInt("c"), r.getString("v"));
        }
        for (Map.Entry<Integer, String> e : present.entrySet()) {
          assertThat(e.getValue())
              .as("cycle %d: row %d/%d holds a value a write gave it", cycle, thread, e.getKey())
              .isEqualTo(EngineCrashChild.value(thread, e.getKey()));
        }
        for (Map.Entry<Long, Boolean> e : expected.acked.entrySet()) {
          long k = e.getKey();
          if ((int) (k >>> 32) != thread || expected.uncertain.contains(k)) {
            continue;
          }
          int seq = (int) k;
          assertThat(present.containsKey(seq))
              .as(
                  "cycle %d, %s: acknowledged %s of row %d/%d",
                  cycle, sync, e.getValue() ? "insert" : "delete", thread, seq)
              .isEqualTo(e.getValue());
        }
      }
    }
  }
}
