package dev.talus.cql.exec.dml;

import dev.talus.Insert;
import dev.talus.Table;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.exec.support.TableInfo;
import dev.talus.cql.exec.term.Operand;
import dev.talus.cql.exec.term.Terms;
import dev.talus.cql.parse.CqlPrinter;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.InsertStatement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code INSERT INTO t (columns) VALUES (values) [USING TTL/TIMESTAMP]}, prepared: the columns
 * resolved, the values typed by them. Each execution is one {@link Insert} of the engine (row
 * marker and cells, as in Cassandra); an unset value leaves its column unwritten. Immutable and
 * thread-safe.
 */
final class InsertExec extends InsertWrite {
  private final Table table;
  private final String[] columns;
  private final boolean[] key;
  private final Operand[] values;
  private final Identifier[] names;
  private final Source source;

  private InsertExec(
      Table table,
      String[] columns,
      boolean[] key,
      Operand[] values,
      Identifier[] names,
      WriteAttributes attributes,
      CqlConditions conditions,
      Source source,
      InsertStatement s) {
    super(source, s.position(), attributes, conditions);
    this.table = table;
    this.columns = columns;
    this.key = key;
    this.values = values;
    this.names = names;
    this.source = source;
  }

  static InsertExec prepare(InsertStatement s, PrepareContext pc) {
    Source src = pc.source();
    Table table = pc.table(s.table());
    TableInfo info = TableInfo.of(table.schema());
    if (table.schema().isCounterTable()) {
      throw src.invalid(
          s.position(),
          6,
          "INSERT statements are not allowed on counter tables, use UPDATE instead");
    }
    if (s.columns().size() != s.values().size()) {
      throw src.invalid(s.position(), 6, "Unmatched column names/values");
    }
    int n = s.columns().size();
    String[] columns = new String[n];
    boolean[] key = new boolean[n];
    Operand[] values = new Operand[n];
    Identifier[] names = new Identifier[n];
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < n; i++) {
      Identifier id = s.columns().get(i);
      TableInfo.Column c = Where.column(id, info, pc);
      if (!seen.add(c.name())) {
        throw src.invalid(
            id, "Multiple definitions found for column " + CqlPrinter.quoteName(c.name()));
      }
      columns[i] = c.name();
      key[i] = c.isKey();
      names[i] = id;
      values[i] = Terms.prepare(s.values().get(i), info.receiver(c), pc);
    }
    List<String> missingPk = new ArrayList<>();
    List<String> missingCk = new ArrayList<>();
    for (TableInfo.Column c : info.columns()) {
      if (c.isKey() && !seen.contains(c.name())) {
        (c.kind() == TableInfo.Kind.PARTITION_KEY ? missingPk : missingCk).add(c.name());
      }
    }
    if (!missingPk.isEmpty()) {
      throw src.invalid(
          s.position(), 6, "Some partition key parts are missing: " + String.join(", ", missingPk));
    }
    // only static columns (and the partition key): the clustering key may be left out
    boolean staticOnly =
        seen.stream().anyMatch(c -> info.column(c).kind() == TableInfo.Kind.STATIC)
            && seen.stream().noneMatch(c -> info.column(c).kind() == TableInfo.Kind.REGULAR);
    if (!missingCk.isEmpty() && !staticOnly) {
      throw src.invalid(
          s.position(), 6, "Some clustering keys are missing: " + String.join(", ", missingCk));
    }
    WriteAttributes attributes = WriteAttributes.prepare(s.attributes(), pc);
    CqlConditions conditions =
        CqlConditions.insert(s.ifNotExists(), table.schema(), attributes, s.position(), pc);
    return new InsertExec(table, columns, key, values, names, attributes, conditions, src, s);
  }

  @Override
  Insert row(ExecContext ctx) {
    Insert insert = table.insert();
    for (int i = 0; i < columns.length; i++) {
      Object v = values[i].eval(ctx, null);
      if (v == ExecContext.UNSET) {
        if (key[i]) {
          throw source.invalid(names[i], "Invalid unset value for column " + columns[i]);
        }
        continue;
      }
      if (v == null && key[i]) {
        throw source.invalid(names[i], "Invalid null value in condition for column " + columns[i]);
      }
      insert.value(columns[i], v);
    }
    return insert;
  }
}
