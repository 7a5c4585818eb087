package dev.talus.commitlog;

import dev.talus.CommitLogSync;
import dev.talus.io.NioStorageFs;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The child JVM of {@link CrashTest}: opens the log in {@code args[0]} with sync mode {@code
 * args[1]}, then appends numbered, self-checking records from two threads, starting at {@code
 * args[3]}, printing {@code ACK <n>} after each append returned, until it is killed.
 */
public final class CrashChild {
  private CrashChild() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    CommitLogSync mode = CommitLogSync.valueOf(args[1]);
    long seed = Long.parseLong(args[2]);
    AtomicLong next = new AtomicLong(Long.parseLong(args[3]));
    CommitLog log = CommitLog.open(new NioStorageFs(), dir, config(mode), (pos, payload) -> {});
    PrintStream out = System.out;
    out.println("READY");
    out.flush();
    Thread[] writers = new Thread[2];
    for (int t = 0; t < writers.length; t++) {
      Random rnd = new Random(seed * 31 + t);
      writers[t] =
          new Thread(
              () -> {
                while (true) {
                  long n = next.getAndIncrement();
                  log.append(Recorder.numbered(n, rnd.nextInt(400)), new int[] {(int) (n & 3)});
                  synchronized (out) {
                    out.println("ACK " + n);
                    out.flush();
                  }
                }
              },
              "crash-writer-" + t);
      writers[t].start();
    }
    for (Thread w : writers) {
      w.join();
    }
  }

  static CommitLogConfig config(CommitLogSync mode) {
    return CommitLogConfig.builder()
        .syncMode(mode)
        .segmentSize(128 * 1024)
        .periodicInterval(Duration.ofMillis(50))
        .groupWindow(Duration.ofMillis(2))
        .build();
  }
}
