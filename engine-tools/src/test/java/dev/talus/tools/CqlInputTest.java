package dev.talus.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * How the shell cuts typed lines into statements. Replay a seeded run with {@code -Dtalus.seed}.
 */
class CqlInputTest {
  private static List<String> feed(String... lines) {
    CqlInput in = new CqlInput();
    List<String> out = new ArrayList<>();
    for (String l : lines) {
      out.addAll(in.add(l));
    }
    return out;
  }

  @Test
  void aStatementEndsAtItsSemicolonAndMaySpanLines() {
    assertThat(feed("SELECT *", "FROM t", "WHERE k = 1;"))
        .containsExactly("SELECT *\nFROM t\nWHERE k = 1;");
    assertThat(feed("USE a; USE b;")).containsExactly("USE a;", "USE b;");
    assertThat(feed(";;", "  ")).isEmpty();
  }

  @Test
  void semicolonsInStringsNamesAndCommentsEndNothing() {
    assertThat(feed("INSERT INTO t (k, v) VALUES (1, 'a; it''s -- not; the end');"))
        .containsExactly("INSERT INTO t (k, v) VALUES (1, 'a; it''s -- not; the end');");
    assertThat(feed("SELECT \"odd;name\" FROM t;")).containsExactly("SELECT \"odd;name\" FROM t;");
    assertThat(feed("SELECT $$x; y$$ FROM t;")).containsExactly("SELECT $$x; y$$ FROM t;");
    assertThat(feed("SELECT * -- a comment; still one", "FROM t; // trailing ;"))
        .containsExactly("SELECT * \nFROM t;");
    assertThat(feed("SELECT /* one; ", "two; */ * FROM t;")).containsExactly("SELECT \n * FROM t;");
    assertThat(feed("INSERT INTO t (k, v) VALUES (1, 'line one;", "line two');"))
        .containsExactly("INSERT INTO t (k, v) VALUES (1, 'line one;\nline two');");
  }

  @Test
  void aBatchRunsToItsApplyBatch() {
    assertThat(
            feed(
                "BEGIN BATCH",
                "  INSERT INTO t (k) VALUES (1);",
                "  INSERT INTO t (k) VALUES (2);",
                "APPLY BATCH;",
                "SELECT * FROM t;"))
        .containsExactly(
            "BEGIN BATCH\n  INSERT INTO t (k) VALUES (1);\n  INSERT INTO t (k) VALUES (2);\nAPPLY BATCH;",
            "SELECT * FROM t;");
    assertThat(feed("begin unlogged batch insert into t (k) values (1); apply   batch;"))
        .containsExactly("begin unlogged batch insert into t (k) values (1); apply   batch;");
  }

  @Test
  void anUnfinishedStatementWaitsAndResetForgetsIt() {
    CqlInput in = new CqlInput();
    assertThat(in.add("SELECT * FROM t WHERE v = 'open")).isEmpty();
    assertThat(in.isEmpty()).isFalse();
    assertThat(in.pending()).isEqualTo("SELECT * FROM t WHERE v = 'open");
    in.reset();
    assertThat(in.isEmpty()).isTrue();
    assertThat(in.add("USE a;")).containsExactly("USE a;");
  }

  private static String normalised(String s) {
    return s.replaceAll("\\s+", " ").replace(" ;", ";");
  }

  /**
   * Statements typed on one line each, or cut into lines anywhere outside a token, cut the same.
   */
  @Test
  void lineBreaksBetweenTokensNeverChangeTheStatements() {
    long seed = Long.getLong("talus.seed", new Random().nextLong());
    System.out.println("CqlInputTest seed=" + seed);
    Random r = new Random(seed);
    String[] tokens = {
      "SELECT", "*", "FROM", "t", "WHERE", "k", "=", "'a;b'", "'it''s'", "\"q;\"", "$$d;$$", "1",
      "(", ")", ","
    };
    for (int round = 0; round < 500; round++) {
      List<List<String>> statements = new ArrayList<>();
      int n = 1 + r.nextInt(4);
      for (int i = 0; i < n; i++) {
        List<String> st = new ArrayList<>();
        int len = 1 + r.nextInt(8);
        for (int j = 0; j < len; j++) {
          st.add(tokens[r.nextInt(tokens.length)]);
        }
        statements.add(st);
      }
      List<String> expected = new ArrayList<>();
      for (List<String> st : statements) {
        expected.add(String.join(" ", st) + ";");
      }
      List<String> lines = new ArrayList<>();
      StringBuilder line = new StringBuilder();
      for (List<String> st : statements) {
        for (int j = 0; j < st.size(); j++) {
          line.append(st.get(j));
          if (r.nextInt(3) == 0) {
            lines.add(line.toString());
            line.setLength(0);
          } else if (j < st.size() - 1) {
            line.append(' ');
          }
        }
        line.append("; ");
      }
      lines.add(line.toString());
      List<String> typed = feed(lines.toArray(String[]::new));
      // a line break is white space between tokens: compare with white space normalised
      assertThat(typed.stream().map(CqlInputTest::normalised).toList())
          .as("seed %d round %d: %s", seed, round, lines)
          .isEqualTo(expected.stream().map(CqlInputTest::normalised).toList());
    }
  }
}
