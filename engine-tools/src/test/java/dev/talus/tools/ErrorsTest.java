package dev.talus.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.ManualClock;
import dev.talus.TalusDb;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The errors every inspection command shares, with their exit statuses. */
class ErrorsTest {
  @TempDir Path dir;

  private static String[] args(String command, Path d) {
    return switch (command) {
      case "stats", "verify" -> new String[] {command, d.toString()};
      case "dump" -> new String[] {command, d.toString(), "readings", "--key", "s-1,2026-09-01"};
      default -> new String[] {command, d.toString(), "readings"};
    };
  }

  @ParameterizedTest
  @ValueSource(strings = {"stats", "histograms", "dump", "metadata", "verify"})
  void aMissingDirectoryIsAnErrorAndIsNotCreated(String command) {
    Path missing = dir.resolve("nope");
    Cli.Result r = Cli.run(args(command, missing));
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err()).contains("error: no such directory: " + missing);
    assertThat(missing).doesNotExist();
  }

  @ParameterizedTest
  @ValueSource(strings = {"stats", "histograms", "dump", "metadata", "verify"})
  void aDirectoryThatIsNotTalusIsRefusedUntouched(String command) throws IOException {
    Path other = Files.createDirectory(dir.resolve("photos"));
    Cli.Result r = Cli.run(args(command, other));
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err()).contains("is not a Talus data directory");
    try (var s = Files.list(other)) {
      assertThat(s).isEmpty();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"stats", "histograms", "dump", "metadata", "verify"})
  @SuppressWarnings("try") // the database is held open, not used
  void aLockedDirectoryExitsWith3(String command) {
    Fixtures.write(dir);
    try (TalusDb db = Fixtures.open(dir, ManualClock.startingAtDefault())) {
      Cli.Result r = Cli.run(args(command, dir));
      assertThat(r.exitCode()).isEqualTo(3);
      assertThat(r.err()).contains("error: data directory").contains("is already open");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"histograms", "dump", "metadata"})
  void anUnknownTableListsTheTables(String command) {
    Fixtures.write(dir);
    String[] a = args(command, dir);
    a[2] = "reading";
    Cli.Result r = Cli.run(a);
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err()).contains("no table named 'reading' in").contains("tables: queue, readings");
  }

  @Test
  void statsOfAnUnknownTableListsTheTables() {
    Fixtures.write(dir);
    Cli.Result r = Cli.run("stats", dir.toString(), "nope");
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err()).contains("tables: queue, readings");
  }

  @Test
  void dumpOfATableWithADamagedDataFileExitsWith2() throws IOException {
    Fixtures.write(dir);
    Path data;
    try (var s = Files.walk(dir.resolve("tables"))) {
      data =
          s.filter(p -> p.getFileName().toString().endsWith("-Data.db"))
              .filter(p -> p.getParent().getFileName().toString().startsWith("readings-"))
              .sorted()
              .findFirst()
              .orElseThrow();
    }
    try (RandomAccessFile f = new RandomAccessFile(data.toFile(), "rw")) {
      long mid = f.length() / 2;
      for (int i = 0; i < 8; i++) {
        f.seek(mid + i);
        int b = f.read();
        f.seek(mid + i);
        f.write(b ^ 0x5A);
      }
    }
    Cli.Result r = Cli.run(args("dump", dir));
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("corrupt: ").contains("file:   " + data);
  }

  @Test
  void unknownCommandsAndOptionsAreUsageErrors() {
    assertThat(Cli.run("frobnicate").exitCode()).isEqualTo(64);
    Cli.Result r = Cli.run("stats", dir.toString(), "--frob");
    assertThat(r.exitCode()).isEqualTo(64);
    assertThat(r.err()).contains("Unknown option: '--frob'");
  }

  @Test
  void helpListsEveryCommandAndTheExitStatuses() {
    Cli.Result r = Cli.run("--help");
    assertThat(r.exitCode()).isZero();
    assertThat(r.out())
        .contains("demo", "stats", "histograms", "dump", "metadata", "verify", "stress")
        .contains("Exit status:")
        .containsPattern("3 +the data directory is locked");
  }
}
