package dev.talus.cql.exec.ddl;

import dev.talus.cql.exec.support.Source;
import dev.talus.cql.parse.ast.LiteralKind;
import dev.talus.cql.parse.ast.Property;
import dev.talus.cql.parse.ast.PropertyValue;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the values of {@code WITH name = value} options as Cassandra's {@code PropertyDefinitions}
 * does: a constant's text, a map of texts, a boolean written {@code true}, {@code yes} or {@code
 * 1}, numbers with Cassandra's messages when they are not. Static, thread-safe.
 */
final class PropertyValues {
  private PropertyValues() {}

  static String string(Property p, Source src) {
    if (p.value() instanceof PropertyValue.Constant c) {
      return c.literal().text();
    }
    if (p.value() instanceof PropertyValue.Word w) {
      return w.word();
    }
    throw src.syntax(
        p.position(),
        p.name().name(),
        "Invalid value for property '" + p.name().name() + "'. It should be a string");
  }

  static Map<String, String> map(Property p, Source src) {
    if (!(p.value() instanceof PropertyValue.MapValue m)) {
      throw src.syntax(
          p.position(),
          p.name().name(),
          "Invalid value for property '" + p.name().name() + "'. It should be a map.");
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (PropertyValue.Entry e : m.entries()) {
      out.put(e.key().text(), e.value().text());
    }
    return out;
  }

  static boolean bool(Property p, Source src) {
    if (p.value() instanceof PropertyValue.Constant c
        && c.literal().kind() == LiteralKind.BOOLEAN) {
      return Boolean.parseBoolean(c.literal().text());
    }
    return bool(string(p, src));
  }

  static boolean bool(String text) {
    String t = text.toLowerCase(Locale.ROOT);
    return t.equals("true") || t.equals("yes") || t.equals("1");
  }

  static int integer(Property p, Source src) {
    String v = string(p, src);
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw src.syntax(
          p.position(),
          p.name().name(),
          "Invalid integer value " + v + " for '" + p.name().name() + "'");
    }
  }

  static double decimal(Property p, Source src) {
    String v = string(p, src);
    try {
      return Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      throw src.syntax(
          p.position(),
          p.name().name(),
          "Invalid double value " + v + " for '" + p.name().name() + "'");
    }
  }
}
