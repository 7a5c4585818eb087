package dev.talus.cql.parse.ast;

/**
 * One assignment of an {@code UPDATE ... SET}: {@code c = v}, {@code c[k] = v}, {@code c.f = v},
 * {@code c = c + v} (also {@code c += v}: add to a counter, append to a list, add to a set or map),
 * {@code c = c - v} ({@code c -= v}), {@code c = v + c} (prepend to a list).
 */
public sealed interface Operation
    permits Operation.Assign, Operation.Add, Operation.Subtract, Operation.Prepend {

  /**
   * Returns the column the operation writes.
   *
   * @return the column
   */
  Identifier column();

  /**
   * Returns where the assignment starts (at the column's name).
   *
   * @return the position
   */
  default SourcePosition position() {
    return column().position();
  }

  /**
   * {@code target = value} for a whole column, an element or a field.
   *
   * @param target what is set
   * @param value the new value
   */
  record Assign(ColumnRef target, Term value) implements Operation {
    @Override
    public Identifier column() {
      return target.column();
    }
  }

  /**
   * {@code column = column + value} or {@code column += value}.
   *
   * @param column the column
   * @param value what is added
   */
  record Add(Identifier column, Term value) implements Operation {}

  /**
   * {@code column = column - value} or {@code column -= value}.
   *
   * @param column the column
   * @param value what is removed or subtracted
   */
  record Subtract(Identifier column, Term value) implements Operation {}

  /**
   * {@code column = value + column}: prepend to a list.
   *
   * @param column the list column
   * @param value the elements to prepend
   */
  record Prepend(Identifier column, Term value) implements Operation {}
}
