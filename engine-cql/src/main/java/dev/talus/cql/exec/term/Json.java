package dev.talus.cql.exec.term;

import dev.talus.DataType;
import dev.talus.cql.ColumnType;
import dev.talus.cql.parse.ast.Literals;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON as CQL uses it ({@code SELECT JSON}, {@code INSERT JSON}, {@code toJson}, {@code fromJson}):
 * a small parser, and each type's JSON form in Cassandra's encoding (timestamps as {@code
 * "2026-09-01 10:00:00.000Z"}, blobs as {@code "0x..."}, numbers bare). Static methods,
 * thread-safe.
 */
public final class Json {
  private Json() {}

  /** Parses a JSON text: maps, lists, strings, {@link BigDecimal} numbers, booleans, null. */
  public static Object parse(String text) {
    Parser p = new Parser(text);
    p.space();
    Object v = p.value(0);
    p.space();
    if (p.pos != text.length()) {
      throw p.error("unexpected text after the JSON value");
    }
    return v;
  }

  /** {@code value} of {@code type} as JSON. */
  public static String write(ColumnType type, Object value) {
    StringBuilder sb = new StringBuilder();
    write(sb, type, value);
    return sb.toString();
  }

  static void write(StringBuilder sb, ColumnType type, Object value) {
    if (value == null) {
      sb.append("null");
      return;
    }
    if (type instanceof ColumnType.Native n) {
      writeNative(sb, n.type(), value);
    } else if (type instanceof ColumnType.ListOf l) {
      writeArray(sb, l.element(), (Collection<?>) value);
    } else if (type instanceof ColumnType.SetOf st) {
      writeArray(sb, st.element(), (Collection<?>) value);
    } else {
      ColumnType.MapOf m = (ColumnType.MapOf) type;
      sb.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
        if (!first) {
          sb.append(", ");
        }
        first = false;
        String key = write(m.key(), e.getKey());
        if (!key.startsWith("\"")) {
          key = quote(key);
        }
        sb.append(key).append(": ");
        write(sb, m.value(), e.getValue());
      }
      sb.append('}');
    }
  }

  private static void writeArray(StringBuilder sb, ColumnType element, Collection<?> values) {
    sb.append('[');
    boolean first = true;
    for (Object v : values) {
      if (!first) {
        sb.append(", ");
      }
      first = false;
      write(sb, element, v);
    }
    sb.append(']');
  }

  private static void writeNative(StringBuilder sb, DataType type, Object v) {
    List<DataType> c = type.componentTypes();
    switch (type.kind()) {
      case BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, VARINT, DECIMAL, COUNTER -> sb.append(v);
      case LIST, SET -> writeArray(sb, ColumnType.of(c.get(0)), (Collection<?>) v);
      case VECTOR -> {
        List<Object> all = new java.util.ArrayList<>();
        if (v instanceof float[] f) {
          for (float x : f) {
            all.add(x);
          }
        } else {
          all.addAll((Collection<?>) v);
        }
        writeArray(sb, ColumnType.of(c.get(0)), all);
      }
      case MAP ->
          write(sb, new ColumnType.MapOf(ColumnType.of(c.get(0)), ColumnType.of(c.get(1))), v);
      case TUPLE -> {
        dev.talus.TupleValue t = (dev.talus.TupleValue) v;
        sb.append('[');
        for (int i = 0; i < c.size(); i++) {
          sb.append(i == 0 ? "" : ", ");
          write(sb, ColumnType.of(c.get(i)), i < t.size() ? t.get(i) : null);
        }
        sb.append(']');
      }
      case UDT -> {
        dev.talus.UdtValue u = (dev.talus.UdtValue) v;
        sb.append('{');
        for (int i = 0; i < c.size(); i++) {
          // a case-sensitive field name in escaped quotes, as Cassandra writes it, so it reads back
          String field = type.userType().fieldNames().get(i);
          boolean folded = field.equals(field.toLowerCase(java.util.Locale.ROOT));
          sb.append(i == 0 ? "" : ", ").append(quote(folded ? field : "\"" + field + "\""));
          sb.append(": ");
          write(sb, ColumnType.of(c.get(i)), u.get(i));
        }
        sb.append('}');
      }
      case FLOAT, DOUBLE -> {
        double d = ((Number) v).doubleValue();
        sb.append(Double.isNaN(d) || Double.isInfinite(d) ? quote(Values.text(v)) : Values.text(v));
      }
      case TIMESTAMP -> sb.append(quote(Temporal.jsonTimestamp((Instant) v)));
      case BLOB -> sb.append(quote("0x" + HexFormat.of().formatHex(bytes(v))));
      default -> sb.append(quote(Values.text(v)));
    }
  }

  /** {@code s} as a JSON string. */
  public static String quote(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.append('"').toString();
  }

  /**
   * The value of {@code type} that a parsed JSON value stands for, Cassandra's {@code
   * fromJSONObject}: numbers or numeric strings for numbers, strings for text-like types, {@code
   * "0x..."} for blobs, and for composite types what {@link JsonComposites} reads. {@link
   * IllegalArgumentException} saying why otherwise.
   */
  public static Object toValue(DataType type, Object json) {
    if (json == null) {
      return null;
    }
    if (JsonComposites.handles(type)) {
      return JsonComposites.toValue(type, json);
    }
    try {
      return switch (type.kind()) {
        case TEXT, ASCII -> Values.literal(type, null, string(json, type));
        case BOOLEAN -> {
          if (json instanceof Boolean b) {
            yield b;
          }
          yield Literals.toBoolean(string(json, type));
        }
        case TINYINT, SMALLINT, INT, BIGINT, VARINT -> {
          String digits = json instanceof BigDecimal d ? integral(d) : string(json, type).trim();
          yield Values.literal(type, null, digits);
        }
        case FLOAT, DOUBLE, DECIMAL ->
            Values.literal(
                type,
                null,
                json instanceof BigDecimal d ? d.toString() : string(json, type).trim());
        case TIMESTAMP ->
            json instanceof BigDecimal d
                ? Instant.ofEpochMilli(Literals.toLong(integral(d)))
                : Temporal.timestamp(string(json, type));
        case DATE ->
            json instanceof BigDecimal d
                ? Temporal.dateFromUnsignedDays(integral(d))
                : Temporal.date(string(json, type));
        case TIME ->
            json instanceof BigDecimal d
                ? Temporal.timeFromNanos(integral(d))
                : Temporal.time(string(json, type));
        case BLOB -> Literals.hexToBytes(string(json, type));
        case UUID -> Literals.toUuid(string(json, type));
        case TIMEUUID -> Values.timeuuid(Literals.toUuid(string(json, type)));
        case INET -> Values.inet(string(json, type));
        case DURATION -> Values.duration(Literals.toDuration(string(json, type)));
        default ->
            throw new IllegalArgumentException(
                "not supported yet by Talus in CQL: JSON values of type " + type);
      };
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(json + " is not a whole number", e);
    }
  }

  private static String integral(BigDecimal d) {
    return d.toBigIntegerExact().toString();
  }

  private static String string(Object json, DataType type) {
    if (json instanceof String s) {
      return s;
    }
    throw new IllegalArgumentException(
        "Expected a string representation of a "
            + type.cqlName()
            + " value, but got "
            + kindOf(json)
            + ": "
            + json);
  }

  /** What a parsed JSON value is, with its article: "an object", "a number", ... */
  static String kindOf(Object json) {
    if (json instanceof Map) {
      return "an object";
    }
    if (json instanceof List) {
      return "an array";
    }
    if (json instanceof BigDecimal) {
      return "a number";
    }
    if (json instanceof String) {
      return "a string";
    }
    return json instanceof Boolean ? "a boolean" : "a value";
  }

  /** A recursive-descent JSON parser, nesting bounded so deep input cannot overflow the stack. */
  private static final class Parser {
    private static final int MAX_DEPTH = 100;
    private final String s;
    private int pos;

    Parser(String s) {
      this.s = s;
    }

    IllegalArgumentException error(String what) {
      return new IllegalArgumentException(
          "Could not decode JSON string '" + s + "': " + what + " at character " + pos);
    }

    void space() {
      while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
        pos++;
      }
    }

    Object value(int depth) {
      if (depth > MAX_DEPTH) {
        throw error("nesting deeper than " + MAX_DEPTH);
      }
      if (pos >= s.length()) {
        throw error("unexpected end");
      }
      char c = s.charAt(pos);
      switch (c) {
        case '{' -> {
          pos++;
          Map<String, Object> m = new LinkedHashMap<>();
          space();
          if (peek('}')) {
            return m;
          }
          while (true) {
            space();
            if (pos >= s.length() || s.charAt(pos) != '"') {
              throw error("expected a string key");
            }
            String key = string();
            space();
            expect(':');
            space();
            Object v = value(depth + 1);
            if (m.containsKey(key)) {
              throw error("the key " + quote(key) + " is given twice");
            }
            m.put(key, v);
            space();
            if (peek('}')) {
              return m;
            }
            expect(',');
          }
        }
        case '[' -> {
          pos++;
          List<Object> l = new ArrayList<>();
          space();
          if (peek(']')) {
            return l;
          }
          while (true) {
            space();
            l.add(value(depth + 1));
            space();
            if (peek(']')) {
              return l;
            }
            expect(',');
          }
        }
        case '"' -> {
          return string();
        }
        default -> {
          if (s.startsWith("true", pos)) {
            pos += 4;
            return Boolean.TRUE;
          }
          if (s.startsWith("false", pos)) {
            pos += 5;
            return Boolean.FALSE;
          }
          if (s.startsWith("null", pos)) {
            pos += 4;
            return null;
          }
          return number();
        }
      }
    }

    private boolean peek(char c) {
      if (pos < s.length() && s.charAt(pos) == c) {
        pos++;
        return true;
      }
      return false;
    }

    private void expect(char c) {
      if (!peek(c)) {
        throw error("expected '" + c + "'");
      }
    }

    private String string() {
      pos++; // the opening quote
      StringBuilder sb = new StringBuilder();
      while (true) {
        if (pos >= s.length()) {
          throw error("unterminated string");
        }
        char c = s.charAt(pos++);
        if (c == '"') {
          return sb.toString();
        }
        if (c != '\\') {
          sb.append(c);
          continue;
        }
        if (pos >= s.length()) {
          throw error("unterminated escape");
        }
        char e = s.charAt(pos++);
        switch (e) {
          case '"', '\\', '/' -> sb.append(e);
          case 'b' -> sb.append('\b');
          case 'f' -> sb.append('\f');
          case 'n' -> sb.append('\n');
          case 'r' -> sb.append('\r');
          case 't' -> sb.append('\t');
          case 'u' -> {
            if (pos + 4 > s.length()) {
              throw error("bad \\u escape");
            }
            try {
              sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
            } catch (NumberFormatException ex) {
              throw error("bad \\u escape");
            }
            pos += 4;
          }
          default -> throw error("bad escape \\" + e);
        }
      }
    }

    private BigDecimal number() {
      int start = pos;
      while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
        pos++;
      }
      if (start == pos) {
        throw error("unexpected character '" + s.charAt(pos) + "'");
      }
      try {
        return new BigDecimal(s.substring(start, pos));
      } catch (NumberFormatException e) {
        throw error("bad number " + s.substring(start, pos));
      }
    }
  }

  private static byte[] bytes(Object v) {
    if (v instanceof java.nio.ByteBuffer b) {
      byte[] out = new byte[b.remaining()];
      b.duplicate().get(out);
      return out;
    }
    return (byte[]) v;
  }
}
