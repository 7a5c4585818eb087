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
     * Equality after a text analysis (the recheck of a read served by an analyzed index), of the
     * whole value or of a collection's element or key: its one value is an {@link Analyzed}.
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
   * value}; for a collection, if one of its elements (a list's or set's, a map's values) or, for
   * {@link Part#KEY}, one of a map's keys does.
   *
   * @param value the analyzed query value
   * @param analysis the analysis applied to each row's value
   * @param part what of the column's value is compared
   */
  public record Analyzed(String value, UnaryOperator<String> analysis, Part part) {
    /** What of a column's value an analyzed comparison looks at. */
    public enum Part {
      /** The whole value ({@code =}). */
      WHOLE,
      /** Any element of a list or set, any value of a map ({@code CONTAINS}). */
      ELEMENT,
      /** Any key of a map ({@code CONTAINS KEY}). */
      KEY
    }

    /** An analyzed comparison of the whole value. */
    public Analyzed(String value, UnaryOperator<String> analysis) {
      this(value, analysis, Part.WHOLE);
    }

    /** True if {@code v} (the column's value: text, or a collection of text) matches. */
    public boolean matches(Object v) {
      return switch (part) {
        case WHOLE -> matchesText(v);
        case KEY -> v instanceof java.util.Map<?, ?> m && any(m.keySet());
        case ELEMENT ->
            v instanceof java.util.Map<?, ?> m
                ? any(m.values())
                : v instanceof java.util.Collection<?> c && any(c);
      };
    }

    private boolean any(java.util.Collection<?> values) {
      for (Object o : values) {
        if (matchesText(o)) {
          return true;
        }
      }
      return false;
    }

    private boolean matchesText(Object text) {
      return text instanceof String t && analysis.apply(t).equals(value);
    }
  }

  public Object value() {
    return values.get(0);
  }
}
