package dev.talus.schema;

import dev.talus.DataType;
import dev.talus.UserType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Parses the CQL type names {@link DataType#cqlName()} writes, for the schema file: native names
 * ({@code text}), {@code list<T>}, {@code set<T>}, {@code map<K, V>}, {@code frozen<T>}, {@code
 * tuple<T, ...>}, {@code vector<T, n>} and user type names, resolved against the types defined so
 * far. Stateless.
 */
public final class TypeParser {
  private final String text;
  private final Map<String, UserType> types;
  private int pos;

  private TypeParser(String text, Map<String, UserType> types) {
    this.text = text;
    this.types = types;
  }

  /**
   * The type named {@code cql}.
   *
   * @throws IllegalArgumentException if it is malformed or names an unknown user type
   */
  public static DataType parse(String cql, Map<String, UserType> types) {
    TypeParser p = new TypeParser(cql, types);
    DataType t = p.type();
    p.skipSpaces();
    if (p.pos != cql.length()) {
      throw new IllegalArgumentException("trailing text in type '" + cql + "' at " + p.pos);
    }
    return t;
  }

  private DataType type() {
    String name = identifier();
    switch (name.toLowerCase(Locale.ROOT)) {
      case "list" -> {
        expect('<');
        DataType e = type();
        expect('>');
        return DataType.list(e);
      }
      case "set" -> {
        expect('<');
        DataType e = type();
        expect('>');
        return DataType.set(e);
      }
      case "map" -> {
        expect('<');
        DataType k = type();
        expect(',');
        DataType v = type();
        expect('>');
        return DataType.map(k, v);
      }
      case "frozen" -> {
        expect('<');
        DataType inner = type();
        expect('>');
        return DataType.frozen(inner);
      }
      case "tuple" -> {
        expect('<');
        List<DataType> cs = new ArrayList<>();
        cs.add(type());
        while (peek() == ',') {
          expect(',');
          cs.add(type());
        }
        expect('>');
        return DataType.tuple(cs.toArray(new DataType[0]));
      }
      case "vector" -> {
        expect('<');
        DataType e = type();
        expect(',');
        skipSpaces();
        int start = pos;
        while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
          pos++;
        }
        int n = Integer.parseInt(text.substring(start, pos));
        expect('>');
        return DataType.vector(e, n);
      }
      default -> {
        for (DataType t : DataType.values()) {
          if (t.cqlName().equals(name)) {
            return t;
          }
        }
        UserType u = types.get(name);
        if (u == null) {
          throw new IllegalArgumentException("Unknown type " + name + " in '" + text + "'");
        }
        return DataType.udt(u);
      }
    }
  }

  private String identifier() {
    skipSpaces();
    int start = pos;
    while (pos < text.length()
        && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
      pos++;
    }
    if (start == pos) {
      throw new IllegalArgumentException("expected a type name at " + pos + " in '" + text + "'");
    }
    return text.substring(start, pos);
  }

  private char peek() {
    skipSpaces();
    return pos < text.length() ? text.charAt(pos) : 0;
  }

  private void expect(char c) {
    if (peek() != c) {
      throw new IllegalArgumentException("expected '" + c + "' at " + pos + " in '" + text + "'");
    }
    pos++;
  }

  private void skipSpaces() {
    while (pos < text.length() && text.charAt(pos) == ' ') {
      pos++;
    }
  }
}
