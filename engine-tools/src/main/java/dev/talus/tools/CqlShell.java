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
  private static final Pattern EXPAND = Pattern.compile("(?is)EXPAND(?:\\s+(ON|OFF))?\\s*;?");
  private static final Pattern PAGING = Pattern.compile("(?is)PAGING(?:\\s+(ON|OFF|\\d+))?\\s*;?");

  private final TalusSession session;
  private final PrintWriter out;
  private final PrintWriter err;
  private final boolean prompts;
  private int failed;
  private boolean exited;
  private boolean expand;
  private int pageRows;
  private Lines lines;

  CqlShell(TalusSession session, PrintWriter out, PrintWriter err, boolean prompts) {
    this.session = session;
    this.out = out;
    this.err = err;
    this.prompts = prompts;
    this.pageRows = prompts ? 100 : 0; // cqlsh pages a terminal's output, 100 rows a page
  }

  /** Statements that failed so far. */
  int failed() {
    return failed;
  }

  /** Where the shell's lines come from: a reader, or a line editor with history. */
  interface Lines {
    /** The next line, after showing {@code prompt} (if this source shows prompts); null at end. */
    String read(String prompt) throws IOException;
  }

  /**
   * Thrown by a {@link Lines} when the user interrupts a line (Ctrl-C): the statement is dropped.
   */
  static final class Interrupted extends RuntimeException {
    Interrupted() {
      super("interrupted", null, false, false);
    }
  }

  /** Lines of {@code in}; prompts are printed to {@code out} if {@code prompts}. */
  static Lines lines(BufferedReader in, PrintWriter out, boolean prompts) {
    return prompt -> {
      if (prompts) {
        out.print(prompt);
        out.flush();
      }
      return in.readLine();
    };
  }

  /**
   * Runs what {@code in} holds until its end or {@code EXIT}. With {@code stopAtError} (a file or
   * {@code -e}) the first failed statement ends the run; interactively the shell goes on.
   */
  void run(BufferedReader in, String origin, boolean stopAtError) throws IOException {
    run(lines(in, out, prompts), origin, stopAtError);
  }

  /** Runs the lines of {@code in}; see {@link #run(BufferedReader, String, boolean)}. */
  void run(Lines in, String origin, boolean stopAtError) throws IOException {
    this.lines = in;
    CqlInput input = new CqlInput();
    int lineNo = 0;
    String line;
    while (!exited) {
      try {
        line = in.read(prompt(input));
      } catch (Interrupted e) {
        input.reset();
        continue;
      }
      if (line == null) {
        break;
      }
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
    }
    if (!input.isEmpty()) {
      failed++;
      err.println(
          origin + ": the input ends inside a statement (a ';' is missing): " + input.pending());
      err.flush();
    }
  }

  private String prompt(CqlInput input) {
    return input.isEmpty()
        ? "talus" + session.keyspace().map(k -> ":" + k).orElse("") + "> "
        : "   ... ";
  }

  private static boolean isShellCommand(String s) {
    return SOURCE.matcher(s).matches()
        || CONSISTENCY.matcher(s).matches()
        || EXIT.matcher(s).matches()
        || HELP.matcher(s).matches()
        || EXPAND.matcher(s).matches()
        || PAGING.matcher(s).matches();
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
    if ((m = EXPAND.matcher(statement)).matches()) {
      expand(m.group(1));
      return true;
    }
    if ((m = PAGING.matcher(statement)).matches()) {
      paging(m.group(1));
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
      printPaged(columns, rows);
    }
    out.flush();
  }

  /** Rows as a table (or expanded), a page at a time with {@code ---MORE---} when paging. */
  private void printPaged(List<CqlColumn> columns, List<CqlRow> rows) {
    int page = pageRows <= 0 ? Math.max(1, rows.size()) : pageRows;
    for (int from = 0; from < Math.max(1, rows.size()); from += page) {
      List<CqlRow> part = rows.subList(from, Math.min(rows.size(), from + page));
      if (expand) {
        CqlTable.printExpanded(out, columns, part, from);
      } else {
        CqlTable.printRows(out, columns, part);
      }
      if (from + page < rows.size()) {
        out.flush();
        try {
          String answer = lines.read("---MORE---");
          if (answer == null || answer.trim().equalsIgnoreCase("q")) {
            break;
          }
        } catch (Interrupted | IOException e) {
          break;
        }
      }
    }
    out.println();
    out.println("(" + rows.size() + (rows.size() == 1 ? " row)" : " rows)"));
  }

  private void expand(String on) {
    if (on == null) {
      out.println(
          expand
              ? "Expanded output is currently enabled. Use EXPAND OFF to disable"
              : "Expanded output is currently disabled. Use EXPAND ON to enable.");
    } else {
      expand = on.equalsIgnoreCase("ON");
      out.println(expand ? "Now Expanded output is enabled" : "Disabled Expanded output.");
    }
    out.flush();
  }

  private void paging(String arg) {
    if (arg == null) {
      out.println(
          pageRows > 0
              ? "Query paging is currently enabled. Use PAGING OFF to disable\nPage size: "
                  + pageRows
              : "Query paging is currently disabled. Use PAGING ON to enable.");
    } else if (arg.equalsIgnoreCase("OFF")) {
      pageRows = 0;
      out.println("Disabled Query paging.");
    } else {
      pageRows = arg.equalsIgnoreCase("ON") ? 100 : Math.max(1, Integer.parseInt(arg));
      out.println("Now Query paging is enabled\nPage size: " + pageRows);
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
    out.println(
        "Shell commands: SOURCE 'file' | CONSISTENCY [level] | EXPAND [ON|OFF]"
            + " | PAGING [ON|OFF|rows] | HELP | EXIT | QUIT");
    out.println("A statement ends with ';' and may span lines.");
    out.flush();
  }
}
