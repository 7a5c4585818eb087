package dev.talus.cql.parse.ast;

import java.util.List;

/**
 * The {@code WITH a = 1 AND b = {...}} options of a DDL statement, in the order written. Names are
 * unique: a name given twice is a syntax error, as in Cassandra.
 *
 * @param properties the options
 */
public record Properties(List<Property> properties) {
  /** No options. */
  public static final Properties NONE = new Properties(List.of());

  public Properties {
    properties = List.copyOf(properties);
  }

  /**
   * Returns the value of the named option, or null when it was not given.
   *
   * @param name the option's name
   * @return the value, or null
   */
  public PropertyValue get(String name) {
    for (Property p : properties) {
      if (p.name().name().equals(name)) {
        return p.value();
      }
    }
    return null;
  }

  /**
   * Tells whether there are no options.
   *
   * @return true when empty
   */
  public boolean isEmpty() {
    return properties.isEmpty();
  }
}
