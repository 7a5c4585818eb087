package dev.talus.cql.parse.ast;

/**
 * A column, or a part of one, as the target of a {@code DELETE}, an {@code IF} condition or a
 * {@code SET} assignment: {@code c}, {@code c[key]} (a map key, list index or set element), {@code
 * c.field} (a UDT field).
 */
public sealed interface ColumnRef permits ColumnRef.Whole, ColumnRef.Element, ColumnRef.Field {

  /**
   * Returns the column this reference is about.
   *
   * @return the column
   */
  Identifier column();

  /**
   * Returns where the reference starts (at the column's name).
   *
   * @return the position
   */
  default SourcePosition position() {
    return column().position();
  }

  /**
   * The whole column.
   *
   * @param column the column
   */
  record Whole(Identifier column) implements ColumnRef {}

  /**
   * {@code column[key]}.
   *
   * @param column the collection column
   * @param key the map key, list index or set element
   */
  record Element(Identifier column, Term key) implements ColumnRef {}

  /**
   * {@code column.field}.
   *
   * @param column the UDT column
   * @param field the field
   */
  record Field(Identifier column, Identifier field) implements ColumnRef {}
}
