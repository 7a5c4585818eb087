package dev.talus.request;

import java.util.List;

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
    CONTAINS_KEY("CONTAINS KEY");

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

  public Object value() {
    return values.get(0);
  }
}
