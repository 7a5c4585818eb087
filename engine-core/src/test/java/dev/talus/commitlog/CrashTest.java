package dev.talus.commitlog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.CommitLogSync;
import dev.talus.io.NioStorageFs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kill -9 of a real JVM in the middle of concurrent appends (Xodus' CrashTest, RocksDB's blackbox
 * crash test): every record the child acknowledged must be replayed intact, in every sync mode, and
 * nothing else may appear. Each run crashes the same log directory several times, so replay of logs
 * already repaired after a crash is covered too.
 */
class CrashTest {
  private static final long NUMBERS_PER_CYCLE = 1_000_000_000L;

  @TempDir Path tmp;

  static Stream<Arguments> quick() {
    List<Arguments> out = new ArrayList<>();
    for (CommitLogSync mode : CommitLogSync.values()) {
      for (long seed : new long[] {1, 2}) {
        out.add(Arguments.of(mode, seed));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} seed {1}")
  @MethodSource("quick")
  void killedChildLosesNoAcknowledgedRecord(CommitLogSync mode, long seed) throws Exception {
    run(mode, seed, 2);
  }

  @Tag("slow")
  @Tag("crash")
  @ParameterizedTest
  @EnumSource(CommitLogSync.class)
  void manySeeds(CommitLogSync mode) throws Exception {
    long base = new Random().nextLong();
    for (int i = 0; i < 10; i++) {
      run(mode, base + i, 5);
    }
  }

  private void run(CommitLogSync mode, long seed, int cycles) throws Exception {
    System.out.println("CrashTest " + mode + " seed=" + seed);
    Random rnd = new Random(seed);
    Path dir = tmp.resolve(mode + "-" + seed);
    Set<Long> allAcked = new HashSet<>();
    for (int cycle = 0; cycle < cycles; cycle++) {
      long first = (cycle + 1) * NUMBERS_PER_CYCLE;
      Set<Long> acked = ConcurrentHashMap.newKeySet();
      Process child =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xmx256m",
                  "-XX:TieredStopAtLevel=1",
                  "-cp",
                  System.getProperty("java.class.path"),
                  CrashChild.class.getName(),
                  dir.toString(),
                  mode.name(),
                  Long.toString(rnd.nextLong()),
                  Long.toString(first))
              .redirectError(
                  tmp.resolve("child-" + mode + "-" + seed + "-" + cycle + ".err").toFile())
              .start();
      CountDownLatch ready = new CountDownLatch(1);
      Thread reader = new Thread(() -> readAcks(child.getInputStream(), acked, ready));
      reader.start();
      assertThat(ready.await(60, TimeUnit.SECONDS)).as("child started").isTrue();
      Thread.sleep(200 + rnd.nextInt(1300));
      child.destroyForcibly(); // SIGKILL
      assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
      reader.join();
      allAcked.addAll(acked);

      Recorder r = new Recorder();
      CommitLog.open(new NioStorageFs(), dir, CrashChild.config(mode), r).close();
      List<Long> replayed = r.numbers(); // throws on a damaged payload
      String ctx = mode + " seed " + seed + " cycle " + cycle;
      assertThat(new HashSet<>(replayed)).as(ctx + ": duplicates").hasSize(replayed.size());
      assertThat(replayed)
          .as(ctx + ": only numbers the children wrote")
          .allMatch(n -> n >= NUMBERS_PER_CYCLE && n % NUMBERS_PER_CYCLE < NUMBERS_PER_CYCLE / 2);
      Set<Long> missing = new HashSet<>(allAcked);
      replayed.forEach(missing::remove);
      assertThat(missing).as(ctx + ": acknowledged records lost").isEmpty();
      System.out.println(
          "CrashTest "
              + ctx
              + ": acked "
              + acked.size()
              + ", replayed "
              + replayed.size()
              + ", lost 0");
    }
  }

  /** Collects "ACK n" lines; a last line cut by the kill (no newline) is ignored. */
  private static void readAcks(InputStream in, Set<Long> acked, CountDownLatch ready) {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    try (in) {
      int c;
      while ((c = in.read()) >= 0) {
        if (c != '\n') {
          line.write(c);
          continue;
        }
        String s = line.toString(StandardCharsets.US_ASCII).trim();
        line.reset();
        if (s.equals("READY")) {
          ready.countDown();
        } else if (s.startsWith("ACK ")) {
          acked.add(Long.parseLong(s.substring(4)));
        }
      }
    } catch (IOException e) {
      // the pipe breaks when the child dies
    } finally {
      ready.countDown();
    }
  }
}
