package dev.talus;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One condition of a conditional write (CQL's {@code IF col op value}): on a whole regular or
 * static column, on one element of a map (by key) or list (by position), or on one field of a user
 * type; {@code CONTAINS} and {@code CONTAINS KEY} examine a whole collection column. A conditional
 * write applies only if all its conditions hold on the row's current state; see {@link
 * Update#onlyIf} and {@link Delete#onlyIf}.
 *
 * <p>Comparisons follow the column type's order (the one CQL's {@code ORDER BY} uses for it). An
 * absent value is null: {@code eq(c, null)} holds when {@code c} has no value, {@code ne(c, v)}
 * holds when it has none, and an ordering comparison with an absent value is false. Comparing with
 * null by {@code < <= > >=} is refused, as in Cassandra.
 *
 * <p>Immutable and thread-safe.
 */
public final class Condition {
  /** How the current value is compared with the condition's value. */
  public enum Op {
    EQ("="),
    NE("!="),
    LT("<"),
    LE("<="),
    GT(">"),
    GE(">="),
    IN("IN"),
    /** A list or set holds the value as an element, or a map as a value. */
    CONTAINS("CONTAINS"),
    /** A map holds the value as a key. */
    CONTAINS_KEY("CONTAINS KEY");

    private final String symbol;

    Op(String symbol) {
      this.symbol = symbol;
    }

    /** The operator as CQL writes it. */
    public String symbol() {
      return symbol;
    }

    /** True for {@code < <= > >=}. */
    public boolean isSlice() {
      return this == LT || this == LE || this == GT || this == GE;
    }
  }

  private final String column;
  private final boolean element;
  private final Object elementKey;
  private final Op op;
  private final List<Object> values;

  private Condition(String column, boolean element, Object key, Op op, List<Object> values) {
    this.column = Objects.requireNonNull(column, "column");
    this.element = element;
    this.elementKey = key;
    this.op = Objects.requireNonNull(op, "op");
    this.values = values;
  }

  /**
   * A condition on a whole column.
   *
   * @param value the value to compare with; for {@link Op#IN} a {@link java.util.Collection} of
   *     values
   */
  public static Condition column(String column, Op op, Object value) {
    return new Condition(column, false, null, op, valuesOf(op, value));
  }

  /**
   * A condition on one element of a collection or user type column: a map value by key ({@code IF
   * m['k'] = v}), a list element by position ({@code IF l[0] = v}) or a user type field by name
   * ({@code IF u.f = v}). A missing key, a position past the end or an unset field reads as null.
   */
  public static Condition element(String column, Object keyIndexOrField, Op op, Object value) {
    if (keyIndexOrField == null) {
      throw new InvalidQueryException("Invalid null value for the element of " + column);
    }
    return new Condition(column, true, keyIndexOrField, op, valuesOf(op, value));
  }

  /** {@code column = value} (null: the column has no value). */
  public static Condition eq(String column, Object value) {
    return column(column, Op.EQ, value);
  }

  /** {@code column != value} (null: the column has a value). */
  public static Condition ne(String column, Object value) {
    return column(column, Op.NE, value);
  }

  /** {@code column < value}. */
  public static Condition lt(String column, Object value) {
    return column(column, Op.LT, value);
  }

  /** {@code column <= value}. */
  public static Condition le(String column, Object value) {
    return column(column, Op.LE, value);
  }

  /** {@code column > value}. */
  public static Condition gt(String column, Object value) {
    return column(column, Op.GT, value);
  }

  /** {@code column >= value}. */
  public static Condition ge(String column, Object value) {
    return column(column, Op.GE, value);
  }

  /**
   * {@code column CONTAINS value} (Cassandra 5.0): a list or set column holds {@code value} as an
   * element, or a map column as a value; false when the column has no value.
   */
  public static Condition contains(String column, Object value) {
    return column(column, Op.CONTAINS, value);
  }

  /** {@code column CONTAINS KEY key}: a map column holds {@code key}; false when it has none. */
  public static Condition containsKey(String column, Object key) {
    return column(column, Op.CONTAINS_KEY, key);
  }

  /** {@code column IN (values...)}: equal to one of them (a null among them: no value). */
  public static Condition in(String column, Object... values) {
    return column(column, Op.IN, Arrays.asList(values));
  }

  private static List<Object> valuesOf(Op op, Object value) {
    if (op != Op.IN) {
      return Collections.singletonList(value);
    }
    if (!(value instanceof java.util.Collection<?> c)) {
      throw new InvalidQueryException("IN condition values must be a collection, got " + value);
    }
    return Collections.unmodifiableList(new java.util.ArrayList<>(c));
  }

  /** The column the condition is on. */
  public String columnName() {
    return column;
  }

  /** True for a condition on one element or field rather than the whole column. */
  public boolean isElement() {
    return element;
  }

  /** The map key, list position or field name of an element condition, else null. */
  public Object elementKey() {
    return elementKey;
  }

  public Op op() {
    return op;
  }

  /** The value(s) compared with: one, or the candidates of {@link Op#IN}. */
  public List<Object> values() {
    return values;
  }

  @Override
  public String toString() {
    String target = column + (element ? "[" + elementKey + "]" : "");
    return target + " " + op.symbol() + " " + (op == Op.IN ? values : values.get(0));
  }
}
