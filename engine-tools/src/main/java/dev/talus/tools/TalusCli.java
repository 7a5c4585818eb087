package dev.talus.tools;

import dev.talus.CorruptDataException;
import dev.talus.DirectoryLockedException;
import dev.talus.TalusException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code talus} command line. Exit statuses: 0 success, 1 error, 2 corrupt data, 3 directory
 * locked, 64 bad command line (see {@link ExitCodes}).
 */
@Command(
    name = "talus",
    mixinStandardHelpOptions = true,
    version = TalusCli.VERSION,
    description = "Talus: an embedded wide-column storage engine with Cassandra's data model.",
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
      "0:success (verify: every checksum matched)",
      "1:error (missing directory, unknown table, bad key value, I/O error)",
      "2:corrupt data (file and offset printed)",
      "3:the data directory is locked by another instance",
      "64:bad command line"
    },
    subcommands = {
      CommandLine.HelpCommand.class,
      DemoCommand.class,
      StatsCommand.class,
      HistogramsCommand.class,
      DumpCommand.class,
      MetadataCommand.class,
      VerifyCommand.class,
      SnapshotCommands.Take.class,
      SnapshotCommands.ListAll.class,
      SnapshotCommands.Clear.class,
      SnapshotCommands.Import.class,
      SnapshotCommands.Copy.class,
      StressCommand.class,
      ServeCommand.class,
      CqlCommand.class
    })
public final class TalusCli implements Runnable {
  static final String VERSION = "talus 0.1.0-SNAPSHOT";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The command line with Talus's exit statuses and error messages. */
  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new TalusCli());
    cl.setParameterExceptionHandler(
        (ex, args) -> {
          CommandLine cmd = ex.getCommandLine();
          PrintWriter err = cmd.getErr();
          err.println("error: " + ex.getMessage());
          if (!CommandLine.UnmatchedArgumentException.printSuggestions(ex, err)) {
            err.println("Usage: see '" + cmd.getCommandSpec().qualifiedName() + " --help'");
          }
          err.flush();
          return ExitCodes.USAGE;
        });
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setExecutionExceptionHandler(
        (ex, cmd, parseResult) -> {
          PrintWriter err = cmd.getErr();
          int code = report(ex, err);
          err.flush();
          return code;
        });
    return cl;
  }

  /** Prints {@code ex} the way a user needs to read it and returns the exit status. */
  static int report(Exception ex, PrintWriter err) {
    if (ex instanceof CliException c) {
      err.println("error: " + Fmt.printable(c.getMessage()));
      return c.exitCode();
    }
    if (ex instanceof DirectoryLockedException) {
      err.println("error: " + Fmt.printable(ex.getMessage()));
      return ExitCodes.LOCKED;
    }
    if (ex instanceof DataDirs.CorruptAtOpen c) {
      corrupt(c.damage, err);
      err.println("  " + c.hint);
      return ExitCodes.CORRUPT;
    }
    if (ex instanceof CorruptDataException c) {
      corrupt(c, err);
      return ExitCodes.CORRUPT;
    }
    if (ex instanceof TalusException) {
      err.println("error: " + Fmt.printable(ex.getMessage()));
      return ExitCodes.ERROR;
    }
    err.println("error: " + Fmt.printable(ex.toString()));
    return ExitCodes.ERROR;
  }

  private static void corrupt(CorruptDataException c, PrintWriter err) {
    err.println("corrupt: " + Fmt.printable(c.getMessage()));
    err.println("  file:   " + c.file());
    err.println("  offset: " + c.offset());
  }
}
