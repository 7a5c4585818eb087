package dev.talus.cql.exec.term;

import dev.talus.ResultRow;
import dev.talus.cql.ColumnType;
import dev.talus.cql.exec.support.ExecContext;

/**
 * A prepared term or selector: typed once, evaluated per execution (and, for a selector, per row).
 * Immutable and thread-safe.
 */
public interface Operand {
  /**
   * The value: null, {@link ExecContext#UNSET} for an unset bind marker, or an instance of {@link
   * #type()}'s Java class.
   *
   * @param ctx the execution
   * @param row the row a selector reads, or null for a term
   */
  Object eval(ExecContext ctx, ResultRow row);

  /** The type of the value. */
  ColumnType type();

  /** True if the value is the same for every execution and row. */
  default boolean isConstant() {
    return false;
  }

  /** A value known when preparing. */
  static Operand constant(Object value, ColumnType type) {
    return new Constant(value, type);
  }

  /**
   * A value known when preparing.
   *
   * @param value the value
   * @param type its type
   */
  record Constant(Object value, ColumnType type) implements Operand {
    @Override
    public Object eval(ExecContext ctx, ResultRow row) {
      return value instanceof byte[] b ? b.clone() : value;
    }

    @Override
    public boolean isConstant() {
      return true;
    }
  }
}
