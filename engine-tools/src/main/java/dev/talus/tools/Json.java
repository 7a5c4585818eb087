package dev.talus.tools;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.time.Instant;
import java.util.HexFormat;

/** A tiny indenting JSON writer, enough for {@code dump}; no dependency for one command. */
final class Json {
  private final StringBuilder out = new StringBuilder();
  private int depth;
  private boolean first = true;
  private boolean afterName;

  Json beginObject() {
    value0();
    out.append('{');
    depth++;
    first = true;
    return this;
  }

  Json endObject() {
    return end('}');
  }

  Json beginArray() {
    value0();
    out.append('[');
    depth++;
    first = true;
    return this;
  }

  Json endArray() {
    return end(']');
  }

  private Json end(char c) {
    depth--;
    if (!first) {
      newline();
    }
    out.append(c);
    first = false;
    return this;
  }

  Json name(String name) {
    separator();
    string(name);
    out.append(": ");
    afterName = true;
    return this;
  }

  Json field(String name, Object value) {
    return name(name).value(value);
  }

  /** Writes a value: JSON numbers for finite numbers, strings for everything else. */
  Json value(Object v) {
    value0();
    if (v == null) {
      out.append("null");
    } else if (v instanceof Boolean b) {
      out.append(b);
    } else if (v instanceof Double d && (d.isNaN() || d.isInfinite())) {
      string(d.toString());
    } else if (v instanceof Float f && (f.isNaN() || f.isInfinite())) {
      string(f.toString());
    } else if (v instanceof BigDecimal d) {
      out.append(d.toPlainString());
    } else if (v instanceof Number || v instanceof BigInteger) {
      out.append(v);
    } else if (v instanceof float[] f) {
      // a vector<float, n>
      string(java.util.Arrays.toString(f));
    } else if (v instanceof byte[] b) {
      string("0x" + HexFormat.of().formatHex(b));
    } else if (v instanceof InetAddress a) {
      string(a.getHostAddress());
    } else if (v instanceof Instant i) {
      string(i.toString());
    } else {
      string(v.toString());
    }
    first = false;
    return this;
  }

  private void value0() {
    if (afterName) {
      afterName = false;
    } else {
      separator();
    }
  }

  private void separator() {
    if (depth > 0) {
      if (!first) {
        out.append(',');
      }
      newline();
    }
    first = false;
  }

  private void newline() {
    out.append('\n');
    out.append("  ".repeat(depth));
  }

  private void string(String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  @Override
  public String toString() {
    return out.toString();
  }
}
