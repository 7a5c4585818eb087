package dev.talus.cql.exec.dml;

import dev.talus.Batch;
import dev.talus.Delete;
import dev.talus.Table;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.exec.support.TableInfo;
import dev.talus.cql.parse.CqlPrinter;
import dev.talus.cql.parse.ast.ColumnRef;
import dev.talus.cql.parse.ast.DeleteStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code DELETE [columns] FROM t [USING TIMESTAMP] WHERE ...}, prepared: what is deleted follows
 * from the restrictions, as in Cassandra — a partition, a row, a range of rows (an equality prefix
 * of the clustering columns and a range on the next one), or some columns of a row. Each
 * combination of {@code IN} values is one {@link Delete} of the engine; several are one batch.
 * Immutable and thread-safe.
 */
final class DeleteExec extends WriteStatement {
  private final Table table;
  private final KeyWhere where;
  private final String[] columns;
  private final SetOperations.Deletion[] elements;
  private final WriteAttributes attributes;
  private final CqlConditions conditions;

  private DeleteExec(
      Table table,
      KeyWhere where,
      String[] columns,
      SetOperations.Deletion[] elements,
      WriteAttributes attributes,
      CqlConditions conditions,
      Source source,
      DeleteStatement s) {
    super(source, s.position());
    this.table = table;
    this.where = where;
    this.columns = columns;
    this.elements = elements;
    this.attributes = attributes;
    this.conditions = conditions;
  }

  @Override
  CqlConditions conditions() {
    return conditions;
  }

  static DeleteExec prepare(DeleteStatement s, PrepareContext pc) {
    Source src = pc.source();
    if (s.attributes().ttl() != null) {
      throw src.invalid(s.attributes().ttl().position(), "TTL attribute is not allowed for DELETE");
    }
    Table table = pc.table(s.table());
    TableInfo info = TableInfo.of(table.schema());
    List<String> cols = new ArrayList<>();
    List<SetOperations.Deletion> elements = new ArrayList<>();
    boolean statics = true;
    for (ColumnRef target : s.targets()) {
      TableInfo.Column c = Where.column(target.column(), info, pc);
      if (c.isKey()) {
        throw src.invalid(
            target.column(),
            "Invalid identifier "
                + CqlPrinter.quoteName(c.name())
                + " for deletion (should not be a PRIMARY KEY part)");
      }
      if (target instanceof ColumnRef.Whole) {
        cols.add(c.name());
      } else {
        elements.add(SetOperations.deletion(target, c, info, pc, src));
      }
      statics &= c.kind() == TableInfo.Kind.STATIC;
    }
    KeyWhere where = KeyWhere.prepare(s.where(), info, false, s.position(), pc);
    boolean some = !cols.isEmpty() || !elements.isEmpty();
    if (some && statics && where.restrictsClustering()) {
      throw src.invalid(
          s.position(),
          6,
          "Invalid restrictions on clustering columns since the DELETE statement modifies only"
              + " static columns");
    }
    if (some && !(statics || where.namesRows())) {
      throw src.invalid(s.position(), 6, "Range deletions are not supported for specific columns");
    }
    WriteAttributes attributes = WriteAttributes.prepare(s.attributes(), pc);
    return new DeleteExec(
        table,
        where,
        cols.toArray(new String[0]),
        elements.toArray(new SetOperations.Deletion[0]),
        attributes,
        CqlConditions.prepare(
            s.ifExists(),
            s.conditions(),
            s.where(),
            table.schema(),
            attributes,
            s.position(),
            true,
            pc),
        src,
        s);
  }

  private List<Delete> build(ExecContext ctx, Long batchTimestamp) {
    List<Map<String, Object>> keys = where.combinations(ctx);
    Long ts = batchTimestamp != null ? batchTimestamp : attributes.timestamp(ctx);
    List<Object[]> slices = new ArrayList<>();
    for (Where.Restriction r : where.slices()) {
      slices.add(new Object[] {r, r.value(ctx)});
    }
    Object[] elementKeys = new Object[elements.length];
    for (int i = 0; i < elements.length; i++) {
      elementKeys[i] = elements[i].key(ctx);
    }
    List<Delete> out = new ArrayList<>(keys.size());
    for (Map<String, Object> key : keys) {
      Delete d = table.delete();
      key.forEach(d::eq);
      for (Object[] slice : slices) {
        Where.Restriction r = (Where.Restriction) slice[0];
        String col = r.column().name();
        switch (r.op()) {
          case GT -> d.gt(col, slice[1]);
          case GE -> d.ge(col, slice[1]);
          case LT -> d.lt(col, slice[1]);
          case LE -> d.le(col, slice[1]);
          default -> throw new IllegalStateException(r.op().toString());
        }
      }
      if (columns.length > 0) {
        d.columns(columns);
      }
      for (int i = 0; i < elements.length; i++) {
        d.element(elements[i].column(), elementKeys[i]);
      }
      if (ts != null) {
        d.timestamp(ts);
      }
      conditions.applyTo(d, ctx);
      out.add(d);
    }
    return out;
  }

  @Override
  boolean writesCounters() {
    return table.schema().isCounterTable();
  }

  @Override
  boolean hasOwnTimestamp() {
    return attributes.hasTimestamp();
  }

  @Override
  boolean hasOwnTtl() {
    return false;
  }

  @Override
  void addTo(Batch batch, ExecContext ctx, Long timestamp) {
    build(ctx, timestamp).forEach(batch::add);
  }

  @Override
  void run(ExecContext ctx) {
    List<Delete> deletes = build(ctx, null);
    if (deletes.size() == 1) {
      deletes.get(0).execute();
    } else {
      Batch b = ctx.db().batch();
      deletes.forEach(b::add);
      b.execute();
    }
  }
}
