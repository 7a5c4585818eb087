package dev.talus.request;

import java.util.List;

/**
 * A multi-column relation on clustering columns, CQL's {@code (a, b) > (1, 2)} or {@code (a, b) IN
 * ((1, 2), (3, 4))}. Internal.
 *
 * @param columns the column names as the user wrote them, in the order written
 * @param op the comparison
 * @param tuples one tuple of values (one per column), or several for {@link Restriction.Op#IN}
 */
public record TupleRestriction(List<String> columns, Restriction.Op op, List<List<Object>> tuples) {
  /** A restriction holding copies of {@code columns} and {@code tuples} (none may be null). */
  public static TupleRestriction copyOf(
      List<String> columns, Restriction.Op op, List<? extends List<?>> tuples) {
    java.util.Objects.requireNonNull(columns, "columns");
    java.util.Objects.requireNonNull(tuples, "tuples");
    List<List<Object>> copy = new java.util.ArrayList<>(tuples.size());
    for (List<?> t : tuples) {
      copy.add(new java.util.ArrayList<>(java.util.Objects.requireNonNull(t, "tuple")));
    }
    return new TupleRestriction(List.copyOf(columns), op, copy);
  }

  @Override
  public String toString() {
    return columns.toString().replace('[', '(').replace(']', ')')
        + " "
        + op.symbol()
        + " "
        + (op == Restriction.Op.IN ? tuples : tuples.get(0))
            .toString()
            .replace('[', '(')
            .replace(']', ')');
  }
}
