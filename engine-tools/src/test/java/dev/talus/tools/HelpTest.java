package dev.talus.tools;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every subcommand answers --help, -h and 'talus help CMD' with its own usage and options. */
class HelpTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "demo",
        "stats",
        "histograms",
        "dump",
        "metadata",
        "verify",
        "snapshot",
        "listsnapshots",
        "clearsnapshot",
        "import",
        "copy",
        "stress",
        "serve",
        "cql",
        "help"
      })
  void everySubcommandPrintsItsHelp(String command) {
    for (String[] args : new String[][] {{command, "--help"}, {command, "-h"}, {"help", command}}) {
      Cli.Result r = Cli.run(args);
      assertThat(r.exitCode()).as(String.join(" ", args) + "\n" + r).isZero();
      assertThat(r.out()).as(String.join(" ", args)).contains("Usage: talus " + command);
      assertThat(r.err()).isEmpty();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"stats", "histograms", "dump", "metadata"})
  void inspectionCommandsShowTheirOpenOptions(String command) {
    assertThat(Cli.run(command, "--help").out())
        .contains("--disk-failure-policy", "--skip-corrupt-commit-log", "--now=INSTANT");
  }

  @org.junit.jupiter.api.Test
  void stressShowsEveryOption() {
    assertThat(Cli.run("stress", "--help").out())
        .contains(
            "--mode",
            "--rate",
            "--duration",
            "--ops",
            "--threads",
            "--partitions",
            "--rows-per-partition",
            "--value-size",
            "--read-ratio",
            "--sync",
            "--seed");
  }

  @org.junit.jupiter.api.Test
  void aBadOptionPointsAtTheSubcommandsHelp() {
    Cli.Result r = Cli.run("stats", "/tmp", "--frob");
    assertThat(r.exitCode()).isEqualTo(64);
    assertThat(r.err()).contains("see 'talus stats --help'");
    assertThat(Cli.run("stats", "--help").exitCode()).isZero();
  }
}
