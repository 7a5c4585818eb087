package dev.talus.tools;

import dev.talus.DurationValue;
import dev.talus.TupleValue;
import dev.talus.UdtValue;
import dev.talus.cql.CqlColumn;
import dev.talus.cql.CqlRow;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Prints rows as cqlsh does: a header of column names (left-aligned), a rule, one line per row with
 * every value right-aligned in its column, and the row count. Values print as cqlsh shows them:
 * text bare at the top level and quoted inside collections, timestamps in UTC with microseconds,
 * blobs in hex. Stateless.
 */
final class CqlTable {
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSSZ").withZone(ZoneOffset.UTC);

  private CqlTable() {}

  /** Prints {@code rows} (of {@code columns}) and the count line. */
  static void print(PrintWriter out, List<CqlColumn> columns, List<CqlRow> rows) {
    int n = columns.size();
    List<String[]> cells = new ArrayList<>();
    int[] width = new int[n];
    for (int i = 0; i < n; i++) {
      width[i] = columns.get(i).name().length();
    }
    for (CqlRow r : rows) {
      String[] line = new String[n];
      for (int i = 0; i < n; i++) {
        line[i] = format(r.get(i), false);
        width[i] = Math.max(width[i], line[i].length());
      }
      cells.add(line);
    }
    out.println();
    StringBuilder header = new StringBuilder();
    StringBuilder rule = new StringBuilder();
    for (int i = 0; i < n; i++) {
      String name = columns.get(i).name();
      header.append(i == 0 ? " " : " | ").append(name).append(" ".repeat(width[i] - name.length()));
      rule.append(i == 0 ? "-" : "-+-").append("-".repeat(width[i]));
    }
    out.println(header);
    out.println(rule.append('-'));
    for (String[] line : cells) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < n; i++) {
        sb.append(i == 0 ? " " : " | ").append(pad(line[i], width[i]));
      }
      out.println(sb);
    }
    out.println();
    out.println("(" + rows.size() + (rows.size() == 1 ? " row)" : " rows)"));
  }

  private static String pad(String s, int width) {
    return " ".repeat(width - s.length()) + s;
  }

  /** A value as cqlsh shows it; {@code nested}: inside a collection, tuple or user type. */
  static String format(Object v, boolean nested) {
    if (v == null) {
      return "null";
    }
    if (v instanceof String s) {
      return nested ? "'" + s.replace("'", "''") + "'" : s;
    }
    if (v instanceof Instant t) {
      return TIMESTAMP.format(t);
    }
    if (v instanceof byte[] b) {
      return "0x" + HexFormat.of().formatHex(b);
    }
    if (v instanceof ByteBuffer b) {
      ByteBuffer d = b.duplicate();
      byte[] bytes = new byte[d.remaining()];
      d.get(bytes);
      return "0x" + HexFormat.of().formatHex(bytes);
    }
    if (v instanceof BigDecimal d) {
      return d.toPlainString();
    }
    if (v instanceof InetAddress a) {
      return a.getHostAddress();
    }
    if (v instanceof float[] f) {
      List<String> parts = new ArrayList<>();
      for (float x : f) {
        parts.add(Float.toString(x));
      }
      return "[" + String.join(", ", parts) + "]";
    }
    if (v instanceof List<?> l) {
      return "[" + join(l) + "]";
    }
    if (v instanceof Collection<?> s) {
      return "{" + join(s) + "}";
    }
    if (v instanceof Map<?, ?> m) {
      List<String> parts = new ArrayList<>();
      m.forEach((k, x) -> parts.add(format(k, true) + ": " + format(x, true)));
      return "{" + String.join(", ", parts) + "}";
    }
    if (v instanceof TupleValue t) {
      return "(" + join(t.values()) + ")";
    }
    if (v instanceof UdtValue u) {
      List<String> parts = new ArrayList<>();
      u.toMap().forEach((k, x) -> parts.add(k + ": " + format(x, true)));
      return "{" + String.join(", ", parts) + "}";
    }
    if (v instanceof DurationValue d) {
      return d.toString();
    }
    return String.valueOf(v);
  }

  private static String join(Collection<?> values) {
    List<String> parts = new ArrayList<>();
    for (Object x : values) {
      parts.add(format(x, true));
    }
    return String.join(", ", parts);
  }
}
