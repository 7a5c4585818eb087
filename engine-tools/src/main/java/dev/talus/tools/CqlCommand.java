package dev.talus.tools;

import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.cql.TalusSession;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code talus cql DIR [-k KEYSPACE] [-e STATEMENTS | -f FILE]}: a cqlsh-like shell on a data
 * directory, in process (no server needed).
 */
@Command(
    name = "cql",
    mixinStandardHelpOptions = true,
    description = {
      "A cqlsh-like CQL shell on a data directory, in this process (no server).",
      "Runs the statements of -e or of -f and exits (stopping at the first error, exit status 1),"
          + " or reads statements from standard input until EXIT, QUIT or end of input (in a"
          + " terminal: line editing, history in ~/.talus/cql_history, results paged 100 rows at"
          + " a time). A statement ends with ';' and may span lines. Shell commands: SOURCE"
          + " 'file', CONSISTENCY [level] (accepted; Talus is one replica), EXPAND [ON|OFF],"
          + " PAGING [ON|OFF|rows], HELP, EXIT, QUIT. Creates the directory if it is missing."
    })
public final class CqlCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "The data directory.")
  Path dir;

  @Option(
      names = {"-k", "--keyspace"},
      paramLabel = "KEYSPACE",
      description = "Start in this keyspace (as USE would).")
  String keyspace;

  @Option(
      names = {"-e", "--execute"},
      paramLabel = "STATEMENTS",
      description = "Run these statements (';'-separated) and exit.")
  String execute;

  @Option(
      names = {"-f", "--file"},
      paramLabel = "FILE",
      description = "Run the statements of this file (a schema.cql) and exit.")
  Path file;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (execute != null && file != null) {
      err.println("give -e or -f, not both");
      return ExitCodes.USAGE;
    }
    BufferedReader in;
    String origin;
    if (execute != null) {
      in = new BufferedReader(new StringReader(execute));
      origin = "";
    } else if (file != null) {
      try {
        in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
      } catch (NoSuchFileException e) {
        err.println("no such file: " + file);
        return ExitCodes.ERROR;
      }
      origin = file.toString();
    } else {
      in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      origin = "";
    }
    boolean interactive = execute == null && file == null;
    boolean terminal = interactive && System.console() != null;
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).build());
        BufferedReader input = in) {
      TalusSession.Builder b = TalusSession.builder(db);
      if (keyspace != null) {
        b.keyspace(keyspace);
      }
      CqlShell shell = new CqlShell(b.build(), out, err, terminal);
      if (terminal) {
        try (LineEditor editor = LineEditor.onTerminal(historyFile())) {
          shell.run(editor, origin, false);
        }
      } else {
        shell.run(input, origin, !interactive);
      }
      out.flush();
      return shell.failed() == 0 ? ExitCodes.OK : ExitCodes.ERROR;
    }
  }

  /** {@code ~/.talus/cql_history}, as cqlsh keeps {@code ~/.cassandra/cqlsh_history}. */
  private static Path historyFile() {
    return Path.of(System.getProperty("user.home"), ".talus", "cql_history");
  }
}
