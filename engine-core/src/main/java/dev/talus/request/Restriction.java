package dev.talus.request;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * One condition of a query or a write's WHERE part. Internal.
 *
 * @param column the column name as the user wrote it
 * @param op the comparison
 * @param values one value, or several for {@link Op#IN}
 */
public record Restriction(String column, Op op, List<Object> values) {
  /** Comparisons a restriction can make. */
  public enum Op {
    EQ("="),
    IN("IN"),
    GT(">"),
    GE(">="),
    LT("<"),
    LE("<="),
    /** A collection holds the value (a set or list element, a map value). */
    CONTAINS("CONTAINS"),
    /** A map holds the key. */
    CONTAINS_KEY("CONTAINS KEY"),
    /** A map holds the entry: its two values are the key and the value ({@code m[k] = v}). */
    MAP_ENTRY("="),
    /**
     * Equality after a text analysis (the recheck of a read served by an analyzed index): its one
     * value is an {@link Analyzed}.
     */
    ANALYZED_EQ("=");

    private final String symbol;

    Op(String symbol) {
      this.symbol = symbol;
    }

    public String symbol() {
      return symbol;
    }

    public boolean isSlice() {
      return this == GT || this == GE || this == LT || this == LE;
    }
  }

  /**
   * The value of an {@link Op#ANALYZED_EQ}: a text value matches if its analysis equals {@code
   * value}.
   *
   * @param value the analyzed query value
   * @param analysis the analysis applied to each row's value
   */
  public record Analyzed(String value, UnaryOperator<String> analysis) {
    /** True if {@code text} analyzes to this value. */
    public boolean matches(Object text) {
      return text instanceof String t && analysis.apply(t).equals(value);
    }
  }

  public Object value() {
    return values.get(0);
  }
}
