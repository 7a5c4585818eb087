package dev.talus.cql.exec.dml;

import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.exec.support.TableInfo;
import dev.talus.cql.parse.ast.Relation;
import dev.talus.cql.parse.ast.SourcePosition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code WHERE} clause of an {@code UPDATE} or {@code DELETE}: the primary key columns it names
 * by {@code =} or {@code IN} (each combination one row or partition, as in Cassandra), and for a
 * {@code DELETE} a range on the next clustering column. Checked with Cassandra's messages when
 * prepared. Immutable and thread-safe.
 */
final class KeyWhere {
  private final List<Where.Restriction> keys;
  private final List<Where.Restriction> slices;
  private final boolean fullKey;

  private KeyWhere(List<Where.Restriction> keys, List<Where.Restriction> slices, boolean fullKey) {
    this.keys = keys;
    this.slices = slices;
    this.fullKey = fullKey;
  }

  /**
   * Prepares the clause.
   *
   * @param update true for an UPDATE (the full primary key, no range), false for a DELETE
   */
  static KeyWhere prepare(
      List<Relation> relations,
      TableInfo table,
      boolean update,
      SourcePosition at,
      PrepareContext pc) {
    Source src = pc.source();
    List<Where.Restriction> all = Where.prepare(relations, table, pc);
    Map<String, List<Where.Restriction>> by = new HashMap<>();
    List<String> nonKey = new ArrayList<>();
    for (Where.Restriction r : all) {
      if (!r.column().isKey()) {
        nonKey.add(r.column().name());
      }
      by.computeIfAbsent(r.column().name(), k -> new ArrayList<>()).add(r);
    }
    if (!nonKey.isEmpty()) {
      throw src.invalid(
          all.get(0).name(),
          "Non PRIMARY KEY columns found in where clause: " + String.join(", ", nonKey));
    }
    List<String> missingPk = new ArrayList<>();
    for (TableInfo.Column c : table.columns(TableInfo.Kind.PARTITION_KEY)) {
      if (!by.containsKey(c.name())) {
        missingPk.add(c.name());
      }
    }
    if (!missingPk.isEmpty()) {
      throw src.invalid(
          at, "Some partition key parts are missing: " + String.join(", ", missingPk));
    }
    List<Where.Restriction> keys = new ArrayList<>();
    List<Where.Restriction> slices = new ArrayList<>();
    for (Where.Restriction r : all) {
      if (r.column().kind() == TableInfo.Kind.PARTITION_KEY) {
        keys.add(r);
      }
    }
    List<TableInfo.Column> clustering = table.columns(TableInfo.Kind.CLUSTERING);
    String gap = null;
    String slicedColumn = null;
    int restricted = 0;
    for (TableInfo.Column c : clustering) {
      List<Where.Restriction> rs = by.get(c.name());
      if (rs == null) {
        if (gap == null) {
          gap = c.name();
        }
        continue;
      }
      if (gap != null) {
        throw src.invalid(
            rs.get(0).name(),
            "PRIMARY KEY column \""
                + c.name()
                + "\" cannot be restricted as preceding column \""
                + gap
                + "\" is not restricted");
      }
      if (slicedColumn != null) {
        throw src.invalid(
            rs.get(0).name(),
            "Clustering column \""
                + c.name()
                + "\" cannot be restricted (preceding column \""
                + slicedColumn
                + "\" is restricted by a non-EQ relation)");
      }
      for (Where.Restriction r : rs) {
        if (r.op().isSlice()) {
          if (update) {
            throw src.invalid(
                r.name(),
                "Slice restrictions are not supported on the clustering columns in UPDATE"
                    + " statements");
          }
          slicedColumn = c.name();
          slices.add(r);
        } else {
          keys.add(r);
        }
      }
      restricted++;
    }
    boolean fullKey = slices.isEmpty() && restricted == clustering.size();
    if (update && !fullKey) {
      List<String> missing = new ArrayList<>();
      for (TableInfo.Column c : clustering) {
        if (!by.containsKey(c.name())) {
          missing.add(c.name());
        }
      }
      throw src.invalid(at, "Some clustering keys are missing: " + String.join(", ", missing));
    }
    return new KeyWhere(keys, slices, fullKey);
  }

  /** Whether the clause restricts a clustering column at all. */
  boolean restrictsClustering() {
    return !slices.isEmpty()
        || keys.stream().anyMatch(r -> r.column().kind() == TableInfo.Kind.CLUSTERING);
  }

  /** Whether the clause names whole rows (the full primary key, no range). */
  boolean namesRows() {
    return fullKey;
  }

  /** Every combination of the key values: column → value, in key order. */
  List<Map<String, Object>> combinations(ExecContext ctx) {
    List<Map<String, Object>> out = new ArrayList<>();
    out.add(new LinkedHashMap<>());
    for (Where.Restriction r : keys) {
      List<Object> values = r.op() == Where.Op.IN ? r.values(ctx) : List.of(r.value(ctx));
      List<Map<String, Object>> next = new ArrayList<>(out.size() * values.size());
      for (Map<String, Object> prefix : out) {
        for (Object v : values) {
          Map<String, Object> m = new LinkedHashMap<>(prefix);
          m.put(r.column().name(), v);
          next.add(m);
        }
      }
      out = next;
    }
    return out;
  }

  /** The range restrictions (DELETE only). */
  List<Where.Restriction> slices() {
    return slices;
  }
}
