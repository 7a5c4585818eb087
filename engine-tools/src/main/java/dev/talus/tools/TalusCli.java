package dev.talus.tools;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code talus} command line. */
@Command(
    name = "talus",
    mixinStandardHelpOptions = true,
    version = "talus 0.1.0-SNAPSHOT",
    description = "Talus: an embedded wide-column storage engine with Cassandra's data model.",
    subcommands = {DemoCommand.class})
public final class TalusCli implements Runnable {
  @Override
  public void run() {
    CommandLine.usage(this, System.out);
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new TalusCli()).execute(args));
  }
}
