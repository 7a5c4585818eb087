package dev.talus.request;

/**
 * A selection of part of a column: one element of a set or map ({@code m['k']}), a range of them
 * ({@code s['a'..'c']}, bounds inclusive, null = open), or a field of a user type ({@code u.f}).
 * Internal.
 *
 * @param kind which selection
 * @param column the column name
 * @param key the element (ELEMENT) or field name (FIELD)
 * @param from the lower bound (RANGE), or null
 * @param to the upper bound (RANGE), or null
 */
public record Selector(Kind kind, String column, Object key, Object from, Object to) {
  /** The kinds of selection. */
  public enum Kind {
    ELEMENT,
    RANGE,
    FIELD
  }
}
