package dev.talus.tools;

import dev.talus.cql.CqlColumn;
import dev.talus.cql.CqlErrorCode;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlRow;
import dev.talus.cql.TalusSession;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The loop of {@code talus cql}: reads lines, runs each complete statement on a {@link
 * TalusSession} and prints what cqlsh would print — rows as a table, {@code DESCRIBE} output as
 * DDL, warnings, and errors with Cassandra's error code. Besides CQL it knows cqlsh's {@code SOURCE
 * 'file'}, {@code CONSISTENCY}, {@code HELP}, {@code EXIT} and {@code QUIT}. Not thread-safe.
 */
final class CqlShell {
  private static final Pattern SOURCE = Pattern.compile("(?is)SOURCE\\s+'((?:[^']|'')*)'\\s*;?");
  private static final Pattern CONSISTENCY =
      Pattern.compile("(?is)(?:SERIAL\\s+)?CONSISTENCY(?:\\s+(\\w+))?\\s*;?");
  private static final Pattern EXIT = Pattern.compile("(?is)(EXIT|QUIT)\\s*;?");
  private static final Pattern HELP = Pattern.compile("(?is)HELP(\\s+\\w+)*\\s*;?");

  private final TalusSession session;
  private final PrintWriter out;
  private final PrintWriter err;
  private final boolean prompts;
  private int failed;
  private boolean exited;

  CqlShell(TalusSession session, PrintWriter out, PrintWriter err, boolean prompts) {
    this.session = session;
    this.out = out;
    this.err = err;
    this.prompts = prompts;
  }

  /** Statements that failed so far. */
  int failed() {
    return failed;
  }

  /**
   * Runs what {@code in} holds until its end or {@code EXIT}. With {@code stopAtError} (a file or
   * {@code -e}) the first failed statement ends the run; interactively the shell goes on.
   */
  void run(BufferedReader in, String origin, boolean stopAtError) throws IOException {
    CqlInput input = new CqlInput();
    int lineNo = 0;
    prompt(input);
    String line;
    while (!exited && (line = in.readLine()) != null) {
      lineNo++;
      List<String> statements;
      if (input.isEmpty() && isShellCommand(line.trim())) {
        statements = List.of(line.trim());
      } else {
        statements = input.add(line);
      }
      for (String s : statements) {
        if (!execute(s, origin, lineNo) && stopAtError) {
          return;
        }
        if (exited) {
          return;
        }
      }
      prompt(input);
    }
    if (!input.isEmpty()) {
      failed++;
      err.println(
          origin + ": the input ends inside a statement (a ';' is missing): " + input.pending());
      err.flush();
    }
  }

  private void prompt(CqlInput input) {
    if (prompts) {
      out.print(
          input.isEmpty()
              ? "talus" + session.keyspace().map(k -> ":" + k).orElse("") + "> "
              : "   ... ");
      out.flush();
    }
  }

  private static boolean isShellCommand(String s) {
    return SOURCE.matcher(s).matches()
        || CONSISTENCY.matcher(s).matches()
        || EXIT.matcher(s).matches()
        || HELP.matcher(s).matches();
  }

  /** Runs one statement or shell command; false if it failed. */
  boolean execute(String statement, String origin, int lineNo) {
    Matcher m;
    if (EXIT.matcher(statement).matches()) {
      exited = true;
      return true;
    }
    if (HELP.matcher(statement).matches()) {
      help();
      return true;
    }
    if ((m = CONSISTENCY.matcher(statement)).matches()) {
      String level = m.group(1) == null ? "ONE" : m.group(1).toUpperCase(Locale.ROOT);
      out.println(
          (m.group(1) == null ? "Current consistency level is " : "Consistency level set to ")
              + level
              + ". (Talus is one replica: every level reads and writes that replica.)");
      out.flush();
      return true;
    }
    if ((m = SOURCE.matcher(statement)).matches()) {
      return source(Path.of(m.group(1).replace("''", "'")));
    }
    try {
      CqlResult r = session.execute(statement);
      print(statement, r);
      return true;
    } catch (RuntimeException e) {
      failed++;
      err.println((origin.isEmpty() ? "" : origin + ":" + lineNo + ":") + describe(e));
      err.flush();
      return false;
    }
  }

  private boolean source(Path file) {
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      int before = failed;
      new CqlShell(session, out, err, false).runInto(this, in, file.toString());
      return failed == before;
    } catch (IOException e) {
      failed++;
      err.println("cannot read " + file + ": " + e.getMessage());
      err.flush();
      return false;
    }
  }

  /** Runs a sourced file with this shell's session, counting its failures in {@code parent}. */
  private void runInto(CqlShell parent, BufferedReader in, String origin) throws IOException {
    run(in, origin, false);
    parent.failed += failed;
  }

  private void print(String statement, CqlResult first) {
    for (String w : first.warnings()) {
      err.println("Warnings :");
      err.println(w);
      err.println();
    }
    err.flush();
    if (first.kind() != CqlResult.Kind.ROWS) {
      return;
    }
    List<CqlRow> rows = new ArrayList<>(first.rows());
    CqlResult page = first;
    while (page.hasMorePages()) {
      page = page.fetchNextPage();
      rows.addAll(page.rows());
    }
    List<CqlColumn> columns = first.columns();
    boolean describe = statement.toUpperCase(Locale.ROOT).matches("(?s)\\s*DESC(RIBE)?\\b.*");
    if (describe && columns.stream().anyMatch(c -> c.name().equals("create_statement"))) {
      for (CqlRow r : rows) {
        out.println();
        out.println(r.get("create_statement"));
      }
      out.println();
    } else if (describe && columns.size() == 3 && columns.get(2).name().equals("name")) {
      List<String> names = new ArrayList<>();
      rows.forEach(r -> names.add(String.valueOf(r.get("name"))));
      out.println();
      out.println(String.join("  ", names));
      out.println();
    } else {
      CqlTable.print(out, columns, rows);
    }
    out.flush();
  }

  /** An error as cqlsh prints it: the driver's exception name, Cassandra's code and message. */
  static String describe(RuntimeException e) {
    CqlErrorCode code = CqlErrorCode.of(e);
    String message = String.valueOf(e.getMessage());
    if (code == CqlErrorCode.SYNTAX_ERROR) {
      return "SyntaxException: " + message;
    }
    String[] kind =
        switch (code) {
          case INVALID -> new String[] {"InvalidRequest", "Invalid query"};
          case CONFIG_ERROR ->
              new String[] {
                "ConfigurationException", "Query invalid because of configuration issue"
              };
          case ALREADY_EXISTS -> new String[] {"AlreadyExists", "Already exists"};
          case READ_FAILURE -> new String[] {"ReadFailure", "Replica(s) failed to execute read"};
          case OVERLOADED -> new String[] {"OverloadedError", "Request overloaded"};
          case UNPREPARED -> new String[] {"Unprepared", "Unprepared query"};
          default -> new String[] {"ServerError", "Server error"};
        };
    return String.format(
        "%s: Error from server: code=%04x [%s] message=\"%s\"",
        kind[0], code.code(), kind[1], message);
  }

  private void help() {
    out.println("CQL statements run as on Cassandra 5.0 (docs/cql.md says what Talus runs).");
    out.println("Shell commands: SOURCE 'file' | CONSISTENCY [level] | HELP | EXIT | QUIT");
    out.println("A statement ends with ';' and may span lines.");
    out.flush();
  }
}
