package dev.talus.cql.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.talus.cql.CqlSyntaxException;
import dev.talus.cql.parse.ast.RawStatement;

/** Test helpers: parse, round-trip through the printer, catch syntax errors. */
final class Cql {
  private Cql() {}

  static RawStatement parse(String cql) {
    return CqlParser.parse(cql).statement();
  }

  @SuppressWarnings("unchecked")
  static <T extends RawStatement> T parse(String cql, Class<T> type) {
    RawStatement s = parse(cql);
    assertThat(s).isInstanceOf(type);
    return (T) s;
  }

  /**
   * Parses, prints, and checks that the print parses to an equal tree and prints the same again.
   * Returns the canonical text.
   */
  static String roundTrip(String cql) {
    RawStatement first = parse(cql);
    String printed = CqlPrinter.print(first);
    RawStatement second;
    try {
      second = parse(printed);
    } catch (CqlSyntaxException e) {
      throw new AssertionError("the reprint of\n" + cql + "\ndoes not parse:\n" + printed, e);
    }
    assertThat(second).as("reprint of %s:%n%s", cql, printed).isEqualTo(first);
    assertThat(CqlPrinter.print(second)).isEqualTo(printed);
    return printed;
  }

  static CqlSyntaxException error(String cql) {
    CqlSyntaxException e =
        catchThrowableOfType(CqlSyntaxException.class, () -> CqlParser.parse(cql));
    assertThat(e).as("a syntax error for %s", cql).isNotNull();
    return e;
  }

  static String normalize(String s) {
    return s.replaceAll("\\s+", " ").replace("( ", "(").replace(" )", ")").trim();
  }
}
