package dev.talus.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code Compare}'s command line prints and whether it would run, without running a benchmark:
 * {@code --help} prints the usage and stops successfully, a bad argument or a missing {@code --dir}
 * stops with exit code 2 and says why.
 */
class CompareCommandLineTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private Compare.CommandLine parse(String... args) {
    return Compare.commandLine(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void helpPrintsTheUsageAndStopsSuccessfully() {
    Compare.CommandLine cl = parse("--help");
    assertThat(cl.config()).isNull();
    assertThat(cl.exitCode()).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .startsWith("usage: Compare")
        .contains("--scale", "--workloads", "--durability", "--dir", "--create-dir", "--help");
    assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    assertThat(parse("-h").exitCode()).isZero();
  }

  @Test
  void aMissingDataDirectoryIsRefusedWithoutCreateDir(@TempDir Path tmp) {
    Path missing = tmp.resolve("no-such-dir");
    Compare.CommandLine cl = parse("--dir", missing.toString());
    assertThat(cl.config()).isNull();
    assertThat(cl.exitCode()).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("--dir " + missing + " does not exist")
        .contains("--create-dir");
    assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    assertThat(missing).doesNotExist();
  }

  @Test
  void aFileIsNotADataDirectory(@TempDir Path tmp) throws Exception {
    Path file = Files.writeString(tmp.resolve("a-file"), "x");
    Compare.CommandLine cl = parse("--dir", file.toString());
    assertThat(cl.exitCode()).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("not a directory");
  }

  @Test
  void createDirAcceptsAMissingDirectoryAndLeavesItForTheRun(@TempDir Path tmp) {
    Path missing = tmp.resolve("later");
    Compare.CommandLine cl = parse("--dir", missing.toString(), "--create-dir");
    assertThat(cl.exitCode()).isZero();
    assertThat(cl.config()).isNotNull();
    assertThat(cl.config().dataDir()).isEqualTo(missing);
    assertThat(missing).as("parsing creates nothing").doesNotExist();
  }

  @Test
  void anExistingDirectoryIsAccepted(@TempDir Path tmp) {
    Compare.CommandLine cl = parse("--dir", tmp.toString(), "--scale", "0.5", "--reps", "2");
    assertThat(cl.exitCode()).isZero();
    assertThat(cl.config().dataDir()).isEqualTo(tmp);
    assertThat(cl.config().scale()).isEqualTo(0.5);
    assertThat(cl.config().repetitions()).isEqualTo(2);
  }

  @Test
  void anUnknownArgumentStopsWithTheUsage() {
    Compare.CommandLine cl = parse("--bogus");
    assertThat(cl.config()).isNull();
    assertThat(cl.exitCode()).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .startsWith("unknown argument --bogus")
        .contains("usage: Compare");
  }
}
