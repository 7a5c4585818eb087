package dev.talus.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StressCommandTest {
  @TempDir Path dir;

  @Test
  void writeThenReadThenMixedPrintTheSummary() {
    Path d = dir.resolve("stress-data");
    Cli.Result w =
        Cli.run(
            "stress",
            d.toString(),
            "--mode",
            "write",
            "--ops",
            "2000",
            "--threads",
            "2",
            "--partitions",
            "50",
            "--rows-per-partition",
            "4",
            "--value-size",
            "16");
    assertThat(w.exitCode()).as(w.toString()).isZero();
    assertThat(w.out())
        .contains("stress: mode=write threads=2 rate=unlimited")
        .contains("time(s)", "ops/s", "p50(µs)", "p99(µs)", "max(µs)")
        .contains("Summary")
        .contains("operations:  2000 (errors: 0)")
        .contains("latency µs:  p50 ")
        .contains("throughput:");

    Cli.Result r =
        Cli.run(
            "stress",
            d.toString(),
            "--mode",
            "READ",
            "--ops",
            "500",
            "--partitions",
            "50",
            "--rows-per-partition",
            "4");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out()).contains("operations:  500 (errors: 0, reads that found no row: ");

    Cli.Result m =
        Cli.run(
            "stress",
            d.toString(),
            "--mode",
            "mixed",
            "--ops",
            "300",
            "--rate",
            "2000",
            "--sync",
            "group",
            "--read-ratio",
            "0.3");
    assertThat(m.exitCode()).as(m.toString()).isZero();
    assertThat(m.out()).contains("rate=2000/s").contains("sync=group").contains("operations:  300");
  }

  @Test
  void aReadAfterAShortWriteReadsWhatTheTableHolds() {
    Path d = dir.resolve("short");
    // 300 writes fill partitions 0..29 of the default 10 rows: far less than the default key space
    Cli.Result w = Cli.run("stress", d.toString(), "--mode", "write", "--ops", "300");
    assertThat(w.exitCode()).as(w.toString()).isZero();
    Cli.Result r = Cli.run("stress", d.toString(), "--mode", "read", "--ops", "400");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains("read key space (found in the table): 30 partition(s) x 10 row(s)")
        .contains("reads that found no row: 0)")
        .doesNotContain("warning");

    // a key space larger than what was written: warned about, with the flags that fix it
    Cli.Result wide =
        Cli.run("stress", d.toString(), "--mode", "read", "--ops", "100", "--partitions", "1000");
    assertThat(wide.out())
        .contains("warning: about ")
        .contains("of reads find no row")
        .contains("--mode write --partitions 1000 --rows-per-partition 10 --ops 10000");
  }

  @Test
  void readingBeforeWritingIsAClearError() {
    Fixtures.write(dir);
    Cli.Result r = Cli.run("stress", dir.toString(), "--mode", "read", "--ops", "10");
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err()).contains("no table 'stress'").contains("--mode write' first");
  }

  @Test
  void readingAMissingDirectoryDoesNotCreateIt() {
    Path missing = dir.resolve("missing");
    Cli.Result r = Cli.run("stress", missing.toString(), "--mode", "read");
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(missing).doesNotExist();
  }

  @Test
  void badOptionsAreUsageErrors() {
    assertThat(Cli.run("stress", dir.toString(), "--sync", "sometimes").exitCode()).isEqualTo(64);
    Cli.Result d = Cli.run("stress", dir.toString(), "--duration", "soon");
    assertThat(d.exitCode()).isEqualTo(64);
    assertThat(d.err()).contains("'soon' is not a duration");
    assertThat(Cli.run("stress", dir.toString(), "--threads", "0").exitCode()).isEqualTo(64);
  }
}
