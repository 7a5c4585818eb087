package dev.talus.cql.parse.ast;

import java.util.List;

/**
 * The value of a {@code WITH name = value} option of a keyspace, table, index or view: a constant,
 * an unreserved keyword used as a word, or a map whose keys and values are constants ({@code
 * {'class': 'SimpleStrategy', 'replication_factor': 1}}).
 */
public sealed interface PropertyValue
    permits PropertyValue.Constant, PropertyValue.Word, PropertyValue.MapValue {

  /**
   * A constant: {@code 0.01}, {@code 'text'}, {@code true}.
   *
   * @param literal the constant
   */
  record Constant(Term.Literal literal) implements PropertyValue {}

  /**
   * An unreserved keyword written as a value, e.g. {@code ALL}; the word is in lower case.
   *
   * @param word the word
   * @param position where it was written
   */
  record Word(String word, SourcePosition position) implements PropertyValue {}

  /**
   * A map of constants. Keys are unique (a key given twice is a syntax error, as in Cassandra).
   *
   * @param entries the entries, in the order written
   * @param position where the map was written
   */
  record MapValue(List<Entry> entries, SourcePosition position) implements PropertyValue {
    public MapValue {
      entries = List.copyOf(entries);
    }

    /**
     * Returns the text of the value under the given key (the content of a string, the text of other
     * constants), or null when absent.
     *
     * @param key the key, matched exactly
     * @return the value's text, or null
     */
    public String get(String key) {
      for (Entry e : entries) {
        if (e.key().text().equals(key)) {
          return e.value().text();
        }
      }
      return null;
    }
  }

  /**
   * One entry of a {@link MapValue}.
   *
   * @param key the key
   * @param value the value
   */
  record Entry(Term.Literal key, Term.Literal value) {}
}
