package dev.talus.cql.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.talus.cql.CqlSyntaxException;
import dev.talus.cql.parse.ast.RawStatement;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Feeds the parser random token streams, deep nesting, random nested expressions, the corpus
 * statements respelled (other names, literals, keyword case, comments) and the corpus statements
 * mutated (token deletions, duplications, swaps and insertions, truncations, random characters).
 * Every input must either parse — and then print as CQL that parses back to an equal tree — or
 * raise a {@link CqlSyntaxException} whose line, column and token lie inside the input; never
 * another exception, never a hang, and never more parser work than a small multiple of the input's
 * tokens.
 *
 * <p>{@code -Dtalus.cql.fuzz.seed=N} replays a run, {@code -Dtalus.cql.fuzz.inputs=N} changes its
 * length (20,000 by default). The seed is printed; a failure prints the seed, the input and a
 * shrunk input that still fails.
 */
class CqlFuzzTest {
  private static final int INPUTS = Integer.getInteger("talus.cql.fuzz.inputs", 20_000);

  /**
   * Tokens consumed, re-reads included, per token of input: the parser stays linear. The bound
   * follows from the parser: a select clause is read at most three times (JSON with DISTINCT,
   * DISTINCT as a column, JSON as a column), and within one reading a speculative type (a type hint
   * that turns out to be a tuple) re-reads each token at most once: at most 6. Fuzzing sees about
   * 2; adversarial inputs reach 3.
   */
  private static final int WORK_PER_TOKEN = 8;

  private static final String[] PUNCTUATION = {
    "(", ")", "[", "]", "{", "}", ",", ";", ":", ".", "..", "=", "!=", "<", "<=", ">", ">=", "+",
    "-", "*", "/", "%", "?", "+=", "-="
  };
  private static final String[] LITERALS = {
    "1",
    "-1",
    "0",
    "12345678901234567890",
    "1.5",
    "-2e-3",
    "3.",
    "NaN",
    "-Infinity",
    "Infinity",
    "true",
    "false",
    "'s'",
    "'it''s'",
    "$$d$$",
    "0xff",
    "0x",
    "123e4567-e89b-12d3-a456-426614174000",
    "1h30m",
    "-1d",
    "P1Y2M",
    "PT1H",
    "P2W",
    "P0001-02-03T04:05:06",
    "\"Q\"",
    "\"\"",
    "?",
    ":m"
  };
  private static final String[] GENERATORS = {
    "random tokens", "deep nesting", "respelled corpus", "random expressions", "mutated corpus"
  };
  private static final String SPECIAL = "'\"$-/*;\\`#@µ.";
  private static final String[] NAMES = {"a", "b", "k", "t", "ks", "v", "m", "expr", "f"};

  @Test
  void everyInputParsesOrIsASyntaxError() throws IOException {
    long seed = Long.getLong("talus.cql.fuzz.seed", ThreadLocalRandom.current().nextLong());
    System.out.println(
        "CqlFuzzTest seed " + seed + " (-Dtalus.cql.fuzz.seed=" + seed + "), inputs " + INPUTS);
    List<String> corpus = corpus();
    String[] vocabulary = vocabulary();
    SplittableRandom random = new SplittableRandom(seed);
    int[] outcomes = new int[2];
    double[] maxRatio = new double[1];
    int[] generated = new int[GENERATORS.length];
    int[] parsedBy = new int[GENERATORS.length];
    assertTimeoutPreemptively(
        Duration.ofMinutes(10), // a backstop against a hang; a normal run takes seconds
        () -> {
          for (int i = 0; i < INPUTS; i++) {
            int generator =
                switch (random.nextInt(10)) {
                  case 0, 1 -> 0;
                  case 2 -> 1;
                  case 3, 4 -> 2;
                  case 5 -> 3;
                  default -> 4;
                };
            String input =
                switch (generator) {
                  case 0 -> randomTokens(random, vocabulary);
                  case 1 -> deepNesting(random, vocabulary);
                  case 2 -> respell(random, corpus.get(random.nextInt(corpus.size())));
                  case 3 -> expressions(random);
                  default -> mutate(random, corpus.get(random.nextInt(corpus.size())), vocabulary);
                };
            String failure = check(input);
            if (failure != null) {
              String shrunk = shrink(input, in -> check(in) != null);
              throw new AssertionError(
                  "seed "
                      + seed
                      + ", input #"
                      + i
                      + ": "
                      + failure
                      + "\ninput:  "
                      + input
                      + "\nshrunk: "
                      + shrunk
                      + "\nshrunk failure: "
                      + check(shrunk));
            }
            boolean parsed = parses(input);
            outcomes[parsed ? 0 : 1]++;
            generated[generator]++;
            if (parsed) {
              parsedBy[generator]++;
            }
            if (lexes(input)) {
              double ratio = (double) CqlParser.work(input) / CqlParser.tokenCount(input);
              maxRatio[0] = Math.max(maxRatio[0], ratio);
            }
          }
        });
    System.out.println(
        "CqlFuzzTest: "
            + outcomes[0]
            + " inputs parsed, "
            + outcomes[1]
            + " were syntax errors; most parser work per input token: "
            + String.format(Locale.ROOT, "%.2f", maxRatio[0]));
    for (int g = 0; g < GENERATORS.length; g++) {
      System.out.println(
          "  " + GENERATORS[g] + ": " + generated[g] + " inputs, " + parsedBy[g] + " parsed");
      // the generators built to produce valid statements do (random tokens and deep nesting
      // are built to fail; with hundreds of inputs, the others parse by the hundred)
      if (g >= 2 && generated[g] >= 500) {
        assertThat(parsedBy[g]).as(GENERATORS[g]).isGreaterThan(generated[g] / 50);
      }
    }
    // the generators reach both outcomes, or the test would prove little
    assertThat(outcomes[0]).isGreaterThan(INPUTS / 10);
    assertThat(outcomes[1]).isGreaterThan(INPUTS / 2);
  }

  private static boolean parses(String input) {
    try {
      CqlParser.parse(input);
      return true;
    } catch (CqlSyntaxException e) {
      return false;
    }
  }

  /** Null when the input behaves, otherwise what went wrong. */
  static String check(String input) {
    RawStatement parsed;
    try {
      parsed = CqlParser.parse(input).statement();
    } catch (CqlSyntaxException e) {
      return checkError(input, e);
    } catch (Throwable t) {
      return "parse threw " + t;
    }
    String printed;
    try {
      printed = CqlPrinter.print(parsed);
      RawStatement again = CqlParser.parse(printed).statement();
      if (!again.equals(parsed)) {
        return "the reprint parses to another tree:\n" + printed + "\n" + parsed + "\n" + again;
      }
    } catch (Throwable t) {
      return "the reprint fails: " + t;
    }
    try {
      CqlScript.split(input);
      CqlScript.parse(input);
    } catch (CqlSyntaxException e) {
      return checkError(input, e);
    } catch (Throwable t) {
      return "the script reading threw " + t;
    }
    long work = CqlParser.work(input);
    int tokens = CqlParser.tokenCount(input);
    if (work > (long) WORK_PER_TOKEN * tokens + WORK_PER_TOKEN) {
      return "the parser consumed " + work + " tokens for " + tokens;
    }
    return null;
  }

  private static String checkError(String input, CqlSyntaxException e) {
    String[] lines = input.split("\r\n|\r|\n", -1);
    if (e.line() < 1 || e.line() > lines.length) {
      return "error line " + e.line() + " outside the input: " + e.getMessage();
    }
    String line = lines[e.line() - 1];
    if (e.column() < 1 || e.column() > line.length() + 1) {
      return "error column " + e.column() + " outside its line: " + e.getMessage();
    }
    if (!e.token().isEmpty() && !input.contains(e.token())) {
      return "error token '" + e.token() + "' is not in the input: " + e.getMessage();
    }
    if (e.reason() == null || e.reason().isEmpty() || e.getMessage() == null) {
      return "error without a reason";
    }
    if (lexes(input)) {
      long work = CqlParser.work(input);
      int tokens = CqlParser.tokenCount(input);
      if (work > (long) WORK_PER_TOKEN * tokens + WORK_PER_TOKEN) {
        return "the parser consumed " + work + " tokens for " + tokens;
      }
    }
    return null;
  }

  private static boolean lexes(String input) {
    try {
      CqlParser.tokenCount(input);
      return true;
    } catch (CqlSyntaxException e) {
      return false;
    }
  }

  // ---- inputs ----

  private static List<String> corpus() throws IOException {
    List<String> statements = new ArrayList<>();
    for (String line : resource("statements.txt").split("\n")) {
      String l = line.strip();
      if (!l.isEmpty() && !l.startsWith("#")) {
        statements.add(l.startsWith("=> ") ? l.substring(3) : l);
      }
    }
    for (ParsedStatement p : CqlScript.parse(resource("seed-statements.cql"))) {
      statements.add(p.text());
    }
    return statements;
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = CqlFuzzTest.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static String[] vocabulary() {
    List<String> words = new ArrayList<>();
    for (Keyword k : Keyword.values()) {
      words.add(k.name().toLowerCase(Locale.ROOT));
    }
    words.addAll(Arrays.asList(PUNCTUATION));
    words.addAll(Arrays.asList(LITERALS));
    words.addAll(Arrays.asList(NAMES));
    return words.toArray(new String[0]);
  }

  private static String randomTokens(SplittableRandom random, String[] vocabulary) {
    StringBuilder sb = new StringBuilder();
    String[] starts = {"SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "ALTER", "DROP", "BEGIN"};
    if (random.nextBoolean()) {
      sb.append(starts[random.nextInt(starts.length)]).append(' ');
    }
    int n = 1 + random.nextInt(40);
    for (int i = 0; i < n; i++) {
      sb.append(vocabulary[random.nextInt(vocabulary.length)])
          .append(random.nextInt(4) == 0 ? "" : " ");
    }
    return sb.toString();
  }

  private static String deepNesting(SplittableRandom random, String[] vocabulary) {
    String[] openers = {"(", "[", "{", "f(", "- ", "(int) ", "frozen<", "((", "[{"};
    String opener = openers[random.nextInt(openers.length)];
    int depth = 1 + random.nextInt(random.nextBoolean() ? 150 : 3000);
    String[] prefixes = {
      "SELECT ",
      "SELECT * FROM t WHERE a = ",
      "SELECT * FROM t WHERE ",
      "INSERT INTO t (a) VALUES (",
      "CREATE TABLE t (a ",
      "UPDATE t SET a = "
    };
    StringBuilder sb = new StringBuilder(prefixes[random.nextInt(prefixes.length)]);
    sb.append(opener.repeat(depth)).append(vocabulary[random.nextInt(vocabulary.length)]);
    if (random.nextBoolean()) {
      String closer =
          opener.contains("[")
              ? "]"
              : opener.contains("{") ? "}" : opener.contains("<") ? ">" : ")";
      sb.append(closer.repeat(random.nextInt(depth + 1)));
    }
    return sb.toString();
  }

  private static String mutate(SplittableRandom random, String statement, String[] vocabulary) {
    List<Token> tokens;
    try {
      tokens = Lexer.tokenize(new SourceText(statement));
    } catch (CqlSyntaxException e) {
      return statement;
    }
    List<String> pieces = new ArrayList<>();
    for (Token t : tokens) {
      if (t.kind() != TokenKind.EOF) {
        pieces.add(statement.substring(t.start(), t.end()));
      }
    }
    int rounds = 1 + random.nextInt(3);
    for (int r = 0; r < rounds && !pieces.isEmpty(); r++) {
      int i = random.nextInt(pieces.size());
      switch (random.nextInt(8)) {
        case 0 -> pieces.remove(i);
        case 1 -> pieces.add(i, pieces.get(i));
        case 2 -> {
          int j = random.nextInt(pieces.size());
          String tmp = pieces.get(i);
          pieces.set(i, pieces.get(j));
          pieces.set(j, tmp);
        }
        case 3 -> pieces.add(i, vocabulary[random.nextInt(vocabulary.length)]);
        case 4 -> pieces.set(i, vocabulary[random.nextInt(vocabulary.length)]);
        case 5 -> pieces.subList(i, pieces.size()).clear();
        case 6 -> pieces.set(i, randomCharacters(random));
        default -> {
          String s = pieces.get(i);
          int cut = random.nextInt(s.length() + 1);
          pieces.set(i, s.substring(0, cut));
        }
      }
    }
    String joined = String.join(random.nextInt(5) == 0 ? "" : " ", pieces);
    if (random.nextInt(10) == 0) {
      int at = random.nextInt(joined.length() + 1);
      joined = joined.substring(0, at) + randomCharacters(random) + joined.substring(at);
    }
    return joined;
  }

  /**
   * The statement with the same grammar but other spellings: keywords in random case, names
   * replaced by unreserved keywords, quoted or odd names, literals by other literals, comments and
   * line breaks between tokens. Most of these still parse.
   */
  private static String respell(SplittableRandom random, String statement) {
    List<Token> tokens;
    try {
      tokens = Lexer.tokenize(new SourceText(statement));
    } catch (CqlSyntaxException e) {
      return statement;
    }
    String[] names = {
      "key",
      "value",
      "type",
      "json",
      "distinct",
      "ttl",
      "exists",
      "text",
      "map",
      "frozen",
      "keys",
      "\"MiXed\"",
      "\"sel ect\"",
      "\"a\"\"b\"",
      "\"from\"",
      "\"\"",
      "x_1",
      "count",
      "writetime",
      "options",
      "static",
      "ann",
      "cluster",
      "as",
      "\"é\""
    };
    String[] literals = {
      "0",
      "-7",
      "99999999999999999999999",
      "1.25",
      "-1e-9",
      "NaN",
      "-Infinity",
      "'x''y'",
      "''",
      "$$a'b$$",
      "0xABCD",
      "true",
      "FALSE",
      "1mo2d",
      "-PT5S",
      "P1W",
      "?",
      ":n",
      "NULL",
      "now()",
      "[1, 2]",
      "{'k': 1}",
      "(1, 'a')",
      "{f: 1}"
    };
    StringBuilder sb = new StringBuilder();
    for (Token t : tokens) {
      if (t.kind() == TokenKind.EOF) {
        break;
      }
      String piece = statement.substring(t.start(), t.end());
      int dice = random.nextInt(6);
      if (t.kind() == TokenKind.KEYWORD && dice == 0) {
        StringBuilder mixed = new StringBuilder();
        for (char c : piece.toCharArray()) {
          mixed.append(random.nextBoolean() ? Character.toUpperCase(c) : Character.toLowerCase(c));
        }
        piece = mixed.toString();
      } else if ((t.kind() == TokenKind.IDENT || t.kind() == TokenKind.QUOTED_NAME) && dice == 0) {
        piece = names[random.nextInt(names.length)];
      } else if (TermParser.isConstant(t) && dice < 2) {
        piece = literals[random.nextInt(literals.length)];
      }
      sb.append(piece);
      switch (random.nextInt(12)) {
        case 0 -> sb.append(" /* c */ ");
        case 1 -> sb.append(" -- c\n");
        case 2 -> sb.append("\n\t");
        default -> sb.append(' ');
      }
    }
    return sb.toString();
  }

  private static final String[] EXPRESSION_LITERALS = {
    "0",
    "7",
    "-7",
    "1.5",
    "-2.5",
    "3.",
    "1e3",
    "NaN",
    "-Infinity",
    "'s'",
    "true",
    "0xab",
    "1h",
    "-1d",
    "P1W",
    "123e4567-e89b-12d3-a456-426614174000",
    "?",
    ":p",
    "NULL"
  };
  private static final String[] EXPRESSION_NAMES = {
    "a", "b", "key", "ttl", "\"Q\"", "text", "json"
  };
  private static final String[] EXPRESSION_TYPES = {
    "int", "text", "frozen<list<int>>", "addr", "'c'"
  };
  private static final String[] OPERATORS = {" + ", " - ", " * ", " / ", " % ", "+", "-"};

  /** A SELECT of random nested selectors and a WHERE of random nested terms. */
  private static String expressions(SplittableRandom random) {
    StringBuilder sb = new StringBuilder("SELECT ");
    int n = 1 + random.nextInt(3);
    for (int i = 0; i < n; i++) {
      sb.append(i == 0 ? "" : ", ").append(selector(random, 4));
    }
    sb.append(" FROM t WHERE a = ").append(term(random, 4));
    if (random.nextBoolean()) {
      sb.append(" AND b IN (")
          .append(term(random, 2))
          .append(", ")
          .append(term(random, 2))
          .append(')');
    }
    return sb.toString();
  }

  private static String pick(SplittableRandom random, String[] options) {
    return options[random.nextInt(options.length)];
  }

  private static String selector(SplittableRandom random, int depth) {
    int choice = depth <= 0 ? random.nextInt(2) : random.nextInt(16);
    return switch (choice) {
      case 0 -> pick(random, EXPRESSION_NAMES);
      case 1 -> pick(random, EXPRESSION_LITERALS);
      case 2 -> "f(" + selector(random, depth - 1) + ", " + selector(random, depth - 1) + ")";
      case 3 -> "count(*)";
      case 4 -> "writetime(a" + (random.nextBoolean() ? "['k']" : ".f") + ")";
      case 5 -> "CAST(" + selector(random, depth - 1) + " AS int)";
      case 6 -> selector(random, depth - 1) + pick(random, OPERATORS) + selector(random, depth - 1);
      case 7 -> "-" + (random.nextBoolean() ? " " : "") + selector(random, depth - 1);
      case 8 -> "(" + pick(random, EXPRESSION_TYPES) + ") " + selector(random, depth - 1);
      case 9 -> "(" + selector(random, depth - 1) + ", " + selector(random, depth - 1) + ")";
      case 10 -> "[" + selector(random, depth - 1) + "]";
      case 11 -> "{" + selector(random, depth - 1) + ": " + selector(random, depth - 1) + "}";
      case 12 -> selector(random, depth - 1) + (random.nextBoolean() ? " .f" : ".f");
      case 13 -> selector(random, depth - 1) + "[" + term(random, depth - 1) + "]";
      case 14 -> selector(random, depth - 1) + "[" + term(random, 1) + ".." + term(random, 1) + "]";
      default -> "(" + selector(random, depth - 1) + ")";
    };
  }

  private static String term(SplittableRandom random, int depth) {
    int choice = depth <= 0 ? 0 : random.nextInt(11);
    return switch (choice) {
      case 0 -> pick(random, EXPRESSION_LITERALS);
      case 1 -> "[" + term(random, depth - 1) + ", " + term(random, depth - 1) + "]";
      case 2 -> "{" + term(random, depth - 1) + "}";
      case 3 -> "{" + term(random, depth - 1) + ": " + term(random, depth - 1) + "}";
      case 4 -> "{f: " + term(random, depth - 1) + "}";
      case 5 ->
          "("
              + term(random, depth - 1)
              + (random.nextBoolean() ? ", " + term(random, 1) : "")
              + ")";
      case 6 -> "now(" + (random.nextBoolean() ? term(random, depth - 1) : "") + ")";
      case 7 -> "(" + pick(random, EXPRESSION_TYPES) + ") " + term(random, depth - 1);
      case 8 -> "CAST(" + term(random, depth - 1) + " AS text)";
      case 9 -> term(random, depth - 1) + pick(random, OPERATORS) + term(random, depth - 1);
      default -> "- " + term(random, depth - 1);
    };
  }

  private static String randomCharacters(SplittableRandom random) {
    StringBuilder sb = new StringBuilder();
    int n = 1 + random.nextInt(4);
    for (int i = 0; i < n; i++) {
      int kind = random.nextInt(4);
      char c =
          switch (kind) {
            case 0 -> (char) random.nextInt(0x20, 0x7f);
            case 1 -> (char) random.nextInt(0, 0x20);
            case 2 -> SPECIAL.charAt(random.nextInt(SPECIAL.length()));
            default -> (char) random.nextInt(0x80, 0xFFFF);
          };
      sb.append(c);
    }
    return sb.toString();
  }

  /** Removes chunks of the input while it still fails; bounded. */
  static String shrink(String input, Predicate<String> fails) {
    String current = input;
    int attempts = 0;
    for (int chunk = Math.max(1, current.length() / 2);
        chunk >= 1 && attempts < 5_000;
        chunk /= 2) {
      boolean progress = true;
      while (progress && attempts < 5_000) {
        progress = false;
        for (int at = 0; at + chunk <= current.length() && attempts < 5_000; at += chunk) {
          String candidate = current.substring(0, at) + current.substring(at + chunk);
          attempts++;
          if (fails.test(candidate)) {
            current = candidate;
            progress = true;
            break;
          }
        }
      }
    }
    return current;
  }
}
