package dev.talus.cql.exec.meta;

import dev.talus.IndexDef;
import dev.talus.Table;
import dev.talus.cql.exec.support.SessionState;
import dev.talus.cql.parse.CqlPrinter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How Talus's indexes appear in CQL as Cassandra 5.0 shows a storage-attached index: the {@code
 * DESCRIBE} statement ({@code CREATE CUSTOM INDEX name ON ks.t (target) USING
 * 'StorageAttachedIndex' [WITH OPTIONS = {...}];}, after {@code IndexMetadata.toCqlString}) and the
 * rows of {@code system_schema.indexes} (kind {@code CUSTOM}; options: the index's own, {@code
 * class_name} and {@code target}), which the drivers' schema metadata reads. Stateless.
 */
final class IndexRows {
  /** The class name Cassandra stores for a storage-attached index. */
  static final String CLASS_NAME = "org.apache.cassandra.index.sai.StorageAttachedIndex";

  private IndexRows() {}

  /** The target as CQL writes it, e.g. {@code values(tags)}, the column quoted if needed. */
  static String target(IndexDef d) {
    return d.target().cql(CqlPrinter.quoteName(d.column()));
  }

  /** The CQL that creates {@code d} on table {@code t} of keyspace {@code ks}, with a semicolon. */
  static String describe(String ks, Table t, IndexDef d) {
    StringBuilder sb =
        new StringBuilder("CREATE CUSTOM INDEX ")
            .append(CqlPrinter.quoteName(d.name()))
            .append(" ON ")
            .append(CqlPrinter.quoteName(ks))
            .append('.')
            .append(CqlPrinter.quoteName(t.name()))
            .append(" (")
            .append(target(d))
            .append(") USING 'StorageAttachedIndex'");
    if (!d.options().isEmpty()) {
      sb.append(" WITH OPTIONS = {");
      String sep = "";
      for (Map.Entry<String, String> e : d.options().entrySet()) {
        sb.append(sep).append(string(e.getKey())).append(": ").append(string(e.getValue()));
        sep = ", ";
      }
      sb.append('}');
    }
    return sb.append(';').toString();
  }

  /** The rows of {@code system_schema.indexes}, in key order. */
  static List<Object[]> rows(SessionState s) {
    List<Object[]> out = new ArrayList<>();
    for (Table t : s.db().tables()) {
      for (IndexDef d : t.indexes()) {
        Map<String, String> options = new LinkedHashMap<>(d.options());
        options.put("class_name", CLASS_NAME);
        options.put("target", target(d));
        out.add(new Object[] {t.keyspace(), t.name(), d.name(), "CUSTOM", Map.copyOf(options)});
      }
    }
    out.sort(
        Comparator.<Object[], String>comparing(r -> (String) r[0])
            .thenComparing(r -> (String) r[1])
            .thenComparing(r -> (String) r[2]));
    return out;
  }

  private static String string(String s) {
    return "'" + s.replace("'", "''") + "'";
  }
}
