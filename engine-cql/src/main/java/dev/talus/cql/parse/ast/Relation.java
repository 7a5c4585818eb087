package dev.talus.cql.parse.ast;

import java.util.List;

/**
 * One restriction of a {@code WHERE} clause; the clause is their conjunction ({@code AND}). A
 * relation in parentheses is the relation itself.
 */
public sealed interface Relation
    permits Relation.Compare,
        Relation.MapElement,
        Relation.In,
        Relation.IsNotNull,
        Relation.Token,
        Relation.MultiColumn,
        Relation.MultiColumnIn,
        Relation.CustomIndexExpression {

  /**
   * Returns where the relation starts.
   *
   * @return the position
   */
  SourcePosition position();

  /**
   * {@code column op value} with {@code op} one of {@code = != < <= > >=}, {@code LIKE}, {@code
   * CONTAINS} or {@code CONTAINS KEY}.
   *
   * @param column the column
   * @param operator the operator
   * @param value the value
   */
  record Compare(Identifier column, Operator operator, Term value) implements Relation {
    @Override
    public SourcePosition position() {
      return column.position();
    }
  }

  /**
   * {@code column[key] op value}: a map entry ({@code op} one of {@code = != < <= > >=}).
   *
   * @param column the map column
   * @param key the key
   * @param operator the operator
   * @param value the value
   */
  record MapElement(Identifier column, Term key, Operator operator, Term value)
      implements Relation {
    @Override
    public SourcePosition position() {
      return column.position();
    }
  }

  /**
   * {@code column IN (...)} or {@code column IN ?}.
   *
   * @param column the column
   * @param values the values
   */
  record In(Identifier column, InValues values) implements Relation {
    @Override
    public SourcePosition position() {
      return column.position();
    }
  }

  /**
   * {@code column IS NOT NULL} (only meaningful in a materialized view's definition).
   *
   * @param column the column
   */
  record IsNotNull(Identifier column) implements Relation {
    @Override
    public SourcePosition position() {
      return column.position();
    }
  }

  /**
   * {@code token(a, b) op value}: a range of the partitioner's tokens.
   *
   * @param columns the partition key columns as written
   * @param operator one of {@code = != < <= > >=}
   * @param value the token value (usually a bigint literal, a marker or {@code token(...)})
   * @param position where {@code token} was written
   */
  record Token(List<Identifier> columns, Operator operator, Term value, SourcePosition position)
      implements Relation {
    public Token {
      columns = List.copyOf(columns);
    }
  }

  /**
   * {@code (a, b) op (x, y)} or {@code (a, b) op ?}: a comparison of several clustering columns as
   * one tuple.
   *
   * @param columns the columns
   * @param operator one of {@code = != < <= > >=}
   * @param value a {@link Term.TupleLiteral} or a {@link Term.BindMarker}
   * @param position where the opening parenthesis was written
   */
  record MultiColumn(
      List<Identifier> columns, Operator operator, Term value, SourcePosition position)
      implements Relation {
    public MultiColumn {
      columns = List.copyOf(columns);
    }
  }

  /**
   * {@code (a, b) IN ((1, 2), (3, 4))}, {@code (a, b) IN (?, ?)} or {@code (a, b) IN ?}.
   *
   * @param columns the columns
   * @param values tuples or markers, or one marker for all
   * @param position where the opening parenthesis was written
   */
  record MultiColumnIn(List<Identifier> columns, InValues values, SourcePosition position)
      implements Relation {
    public MultiColumnIn {
      columns = List.copyOf(columns);
    }
  }

  /**
   * {@code expr(index_name, 'query')}: a query handed to a custom index.
   *
   * @param index the index
   * @param value the query
   * @param position where {@code expr} was written
   */
  record CustomIndexExpression(QualifiedName index, Term value, SourcePosition position)
      implements Relation {}
}
