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
    printRows(out, columns, rows);
    out.println();
    out.println("(" + rows.size() + (rows.size() == 1 ? " row)" : " rows)"));
  }

  /**
   * Prints rows one column per line, as cqlsh's {@code EXPAND ON}: {@code @ Row N}, a rule, then
   * each column's name (left-aligned) and value; {@code first} numbers the first row (from 0).
   */
  static void printExpanded(
      PrintWriter out, List<CqlColumn> columns, List<CqlRow> rows, int first) {
    int nameWidth = 0;
    for (CqlColumn c : columns) {
      nameWidth = Math.max(nameWidth, c.name().length());
    }
    for (int r = 0; r < rows.size(); r++) {
      String[] values = new String[columns.size()];
      int valueWidth = 0;
      for (int i = 0; i < values.length; i++) {
        values[i] = format(rows.get(r).get(i), false);
        valueWidth = Math.max(valueWidth, values[i].length());
      }
      out.println();
      out.println("@ Row " + (first + r + 1));
      out.println("-".repeat(nameWidth + 2) + "+" + "-".repeat(valueWidth + 2));
      for (int i = 0; i < values.length; i++) {
        String name = columns.get(i).name();
        out.println(" " + name + " ".repeat(nameWidth - name.length()) + " | " + values[i]);
      }
    }
  }

  /** Prints the header, the rule and {@code rows}, without the count line. */
  static void printRows(PrintWriter out, List<CqlColumn> columns, List<CqlRow> rows) {
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
