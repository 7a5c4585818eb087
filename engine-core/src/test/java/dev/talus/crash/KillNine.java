package dev.talus.crash;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a crash child in its own JVM, waits for its {@code READY} line, lets it work for a while and
 * kills it with SIGKILL; returns every whole line it printed (its acknowledgements). Stateless.
 */
final class KillNine {
  private KillNine() {}

  static List<String> runAndKill(Class<?> child, long killAfterMs, String... args)
      throws Exception {
    return runAndKillAfter(child, "READY", killAfterMs, args);
  }

  /**
   * As {@link #runAndKill}, but the wait of {@code killAfterMs} starts when the child prints a line
   * starting with {@code linePrefix} (after its {@code READY}), so the kill lands in the work that
   * line announces; the child must print it within a minute.
   */
  static List<String> runAndKillAfter(
      Class<?> child, String linePrefix, long killAfterMs, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(
        List.of(
            "-Xmx256m",
            "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC",
            "-cp",
            System.getProperty("java.class.path"),
            child.getName()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process process = pb.start();
    List<String> lines = new ArrayList<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                  synchronized (lines) {
                    lines.add(line);
                  }
                }
              } catch (java.io.IOException ignored) {
                // killed mid-line: a torn line acknowledges nothing
              }
            });
    reader.start();
    awaitLine(process, lines, "READY", 600);
    if (!linePrefix.equals("READY")) {
      awaitLine(process, lines, linePrefix, 1200);
    }
    process.waitFor(killAfterMs, TimeUnit.MILLISECONDS);
    process.destroyForcibly(); // SIGKILL
    process.waitFor(30, TimeUnit.SECONDS);
    reader.join(30_000);
    synchronized (lines) {
      return new ArrayList<>(lines);
    }
  }

  /** Waits up to {@code polls} × 50 ms for a line starting with {@code prefix}. */
  private static void awaitLine(Process process, List<String> lines, String prefix, int polls)
      throws InterruptedException {
    for (int i = 0; i < polls; i++) {
      synchronized (lines) {
        if (lines.stream().anyMatch(l -> l.startsWith(prefix))) {
          return;
        }
      }
      if (!process.isAlive()) {
        break;
      }
      process.waitFor(50, TimeUnit.MILLISECONDS);
    }
    process.destroyForcibly(); // leave no child behind a failed wait
    synchronized (lines) {
      assertThat(lines)
          .as("the child printed a line starting with %s", prefix)
          .anyMatch(l -> l.startsWith(prefix));
    }
  }
}
