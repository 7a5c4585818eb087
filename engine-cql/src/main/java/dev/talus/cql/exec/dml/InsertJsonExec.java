package dev.talus.cql.exec.dml;

import dev.talus.DataType;
import dev.talus.Insert;
import dev.talus.Table;
import dev.talus.cql.ColumnType;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Receiver;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.exec.support.TableInfo;
import dev.talus.cql.exec.term.Json;
import dev.talus.cql.exec.term.Operand;
import dev.talus.cql.exec.term.Terms;
import dev.talus.cql.parse.ast.InsertJsonStatement;
import dev.talus.cql.parse.ast.SourcePosition;
import java.util.Locale;
import java.util.Map;

/**
 * {@code INSERT INTO t JSON '{...}' [DEFAULT NULL | DEFAULT UNSET]}: the object's keys name columns
 * as CQL names do (case-insensitive unless in escaped double quotes, {@code "\"Name\""}), each
 * value in Cassandra's JSON form of its type; columns left out are written as null by default, or
 * left alone with {@code DEFAULT UNSET}. Immutable and thread-safe.
 */
final class InsertJsonExec extends InsertWrite {
  private final Table table;
  private final TableInfo info;
  private final Operand json;
  private final boolean defaultUnset;
  private final Source source;
  private final SourcePosition at;

  private InsertJsonExec(
      Table table,
      Operand json,
      InsertJsonStatement s,
      WriteAttributes attributes,
      CqlConditions conditions,
      Source source) {
    super(source, s.position(), attributes, conditions);
    this.table = table;
    this.info = TableInfo.of(table.schema());
    this.json = json;
    this.defaultUnset = s.defaultUnset();
    this.source = source;
    this.at = s.json().position();
  }

  static InsertJsonExec prepare(InsertJsonStatement s, PrepareContext pc) {
    Table table = pc.table(s.table());
    Operand json = Terms.prepare(s.json(), Receiver.of("[json]", DataType.TEXT), pc);
    WriteAttributes attributes = WriteAttributes.prepare(s.attributes(), pc);
    CqlConditions conditions =
        CqlConditions.insert(s.ifNotExists(), table.schema(), attributes, s.position(), pc);
    return new InsertJsonExec(table, json, s, attributes, conditions, pc.source());
  }

  @Override
  Insert row(ExecContext ctx) {
    Object text = json.eval(ctx, null);
    if (text == null || text == ExecContext.UNSET) {
      throw source.invalid(at, "Got null for INSERT JSON values");
    }
    Object parsed;
    try {
      parsed = Json.parse((String) text);
    } catch (IllegalArgumentException e) {
      throw source.invalid(at, e.getMessage());
    }
    if (!(parsed instanceof Map<?, ?> object)) {
      throw source.invalid(at, "Could not decode JSON string as a map: " + text);
    }
    java.util.Map<String, Object> byColumn = new java.util.HashMap<>();
    for (Map.Entry<?, ?> e : object.entrySet()) {
      String key = (String) e.getKey();
      String name =
          key.length() >= 2 && key.startsWith("\"") && key.endsWith("\"")
              ? key.substring(1, key.length() - 1).replace("\"\"", "\"")
              : key.toLowerCase(Locale.ROOT);
      if (info.column(name) == null) {
        throw source.invalid(at, "JSON values map contains unrecognized column: " + key);
      }
      byColumn.put(name, e.getValue());
    }
    Insert insert = table.insert();
    for (TableInfo.Column c : info.columns()) {
      boolean given = byColumn.containsKey(c.name());
      Object value = null;
      if (given) {
        try {
          value = Json.toValue(((ColumnType.Native) c.type()).type(), byColumn.get(c.name()));
        } catch (IllegalArgumentException e) {
          throw source.invalid(
              at, "Error decoding JSON value for " + c.name() + ": " + e.getMessage());
        }
      }
      if (c.isKey()) {
        if (value == null) {
          throw source.invalid(at, "Invalid null value in condition for column " + c.name());
        }
        insert.value(c.name(), value);
      } else if (given || !defaultUnset) {
        insert.value(c.name(), value);
      }
    }
    return insert;
  }
}
