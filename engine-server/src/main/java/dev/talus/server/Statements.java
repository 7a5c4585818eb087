package dev.talus.server;

import dev.talus.PagingState;
import dev.talus.TalusDb;
import dev.talus.cql.BoundCql;
import dev.talus.cql.CqlColumn;
import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlResult;
import dev.talus.cql.PreparedCql;
import dev.talus.cql.TalusSession;
import dev.talus.server.wire.QueryOptions;
import dev.talus.server.wire.Values;
import dev.talus.server.wire.Wire;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Runs a statement with the options of a {@code QUERY} or {@code EXECUTE}: types the bound values
 * by the statement's markers, applies page size, paging state, default timestamp and {@code
 * now_in_seconds}. Stateless.
 */
final class Statements {
  private Statements() {}

  /**
   * Runs {@code p} on {@code db} with the options {@code o}: at the client's {@code
   * now_in_seconds}, if it gave one ({@link TalusDb#atNowInSeconds}).
   */
  static CqlResult run(TalusDb db, PreparedCql p, QueryOptions o) {
    BoundCql b = bound(p, o);
    if (o.nowInSeconds() != null) {
      return db.atNowInSeconds(o.nowInSeconds(), b::execute);
    }
    return b.execute();
  }

  private static BoundCql bound(PreparedCql p, QueryOptions o) {
    BoundCql b = bind(p, o);
    b = b.fetchSize(o.pageSize() > 0 ? o.pageSize() : 0);
    if (o.pagingState() != null) {
      b =
          b.pagingState(
              PagingState.fromString(new String(o.pagingState(), StandardCharsets.UTF_8)));
    }
    if (o.timestamp() != Long.MIN_VALUE) {
      b = b.timestamp(o.timestamp());
    }
    return b;
  }

  private static BoundCql bind(PreparedCql p, QueryOptions o) {
    List<CqlColumn> vars = p.variables();
    List<byte[]> raw = o.values();
    if (o.names() == null) {
      if (raw.size() != vars.size()) {
        throw new CqlInvalidRequestException(
            "There were "
                + vars.size()
                + " markers(?) in CQL but "
                + raw.size()
                + " bound variables");
      }
      Object[] values = new Object[raw.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = value(vars.get(i), raw.get(i));
      }
      return p.bind(values);
    }
    BoundCql b = p.bind();
    for (int i = 0; i < raw.size(); i++) {
      String name = o.names().get(i);
      CqlColumn var = named(vars, name);
      b = b.set(name, value(var, raw.get(i)));
    }
    return b;
  }

  private static CqlColumn named(List<CqlColumn> vars, String name) {
    for (CqlColumn c : vars) {
      if (c.name().equals(name)) {
        return c;
      }
    }
    for (CqlColumn c : vars) {
      if (c.name().equalsIgnoreCase(name)) {
        return c;
      }
    }
    throw new CqlInvalidRequestException("Invalid named bind marker: " + name);
  }

  private static Object value(CqlColumn var, byte[] raw) {
    if (raw == null) {
      return null;
    }
    if (raw == Wire.UNSET) {
      return BoundCql.UNSET;
    }
    try {
      return Values.decode(var.type(), raw);
    } catch (Values.BadValueException e) {
      throw new CqlInvalidRequestException(
          "Invalid value for bind marker " + var.name() + ": " + e.getMessage());
    }
  }

  /** The text of a {@code BATCH} of {@code statements}, of {@code type} (0, 1, 2). */
  static String batchText(int type, List<String> statements) {
    StringBuilder sb =
        new StringBuilder(
            switch (type) {
              case 0 -> "BEGIN BATCH\n";
              case 1 -> "BEGIN UNLOGGED BATCH\n";
              case 2 -> "BEGIN COUNTER BATCH\n";
              default ->
                  throw new dev.talus.server.wire.ProtocolException("Unknown batch type " + type);
            });
    for (String s : statements) {
      String t = s.strip();
      while (t.endsWith(";")) {
        t = t.substring(0, t.length() - 1).strip();
      }
      sb.append(t).append("\n;\n");
    }
    return sb.append("APPLY BATCH").toString();
  }

  /** Quotes a keyspace name for {@code USE}. */
  static String quote(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  /** Runs {@code USE keyspace} in {@code session}. */
  static void use(TalusSession session, String keyspace) {
    session.execute("USE " + quote(keyspace));
  }
}
