package dev.talus.cql.parse.ast;

/**
 * One condition of an {@code IF} clause (lightweight transactions); the clause is their
 * conjunction. The target is a column, a collection element ({@code IF m['k'] = 1}) or a UDT field
 * ({@code IF addr.city = 'Paris'}).
 */
public sealed interface Condition permits Condition.Compare, Condition.In {

  /**
   * Returns what the condition tests.
   *
   * @return the column, element or field
   */
  ColumnRef target();

  /**
   * Returns where the condition starts.
   *
   * @return the position
   */
  default SourcePosition position() {
    return target().position();
  }

  /**
   * {@code target op value} with {@code op} one of {@code = != < <= > >=}, or, on a whole column,
   * {@code CONTAINS} / {@code CONTAINS KEY}.
   *
   * @param target the column, element or field
   * @param operator the operator
   * @param value the value
   */
  record Compare(ColumnRef target, Operator operator, Term value) implements Condition {}

  /**
   * {@code target IN (...)} or {@code target IN ?}.
   *
   * @param target the column, element or field
   * @param values the values
   */
  record In(ColumnRef target, InValues values) implements Condition {}
}
