package dev.talus.cql.exec.dml;

import dev.talus.Batch;
import dev.talus.Table;
import dev.talus.Update;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.exec.support.TableInfo;
import dev.talus.cql.exec.term.Operand;
import dev.talus.cql.exec.term.Terms;
import dev.talus.cql.parse.CqlPrinter;
import dev.talus.cql.parse.ast.ColumnRef;
import dev.talus.cql.parse.ast.Operation;
import dev.talus.cql.parse.ast.UpdateStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code UPDATE t [USING ...] SET c = v, ... WHERE <primary key>}, prepared: {@code SET} of whole
 * columns to values, rows named by {@code =} and {@code IN} on every primary key column. Each row
 * is one {@link Update} of the engine (cells only, no row marker, as in Cassandra); several rows
 * are written as one batch. Immutable and thread-safe.
 */
final class UpdateExec extends WriteStatement {
  private final Table table;
  private final KeyWhere where;
  private final String[] columns;
  private final Operand[] values;
  private final WriteAttributes attributes;
  private final CqlConditions conditions;

  private UpdateExec(
      Table table,
      KeyWhere where,
      String[] columns,
      Operand[] values,
      WriteAttributes attributes,
      CqlConditions conditions,
      Source source,
      UpdateStatement s) {
    super(source, s.position());
    this.table = table;
    this.where = where;
    this.columns = columns;
    this.values = values;
    this.attributes = attributes;
    this.conditions = conditions;
  }

  @Override
  CqlConditions conditions() {
    return conditions;
  }

  static UpdateExec prepare(UpdateStatement s, PrepareContext pc) {
    Source src = pc.source();
    Table table = pc.table(s.table());
    TableInfo info = TableInfo.of(table.schema());
    List<String> cols = new ArrayList<>();
    List<Operand> ops = new ArrayList<>();
    for (Operation op : s.operations()) {
      TableInfo.Column c = Where.column(op.column(), info, pc);
      String quoted = CqlPrinter.quoteName(c.name());
      if (c.kind() != TableInfo.Kind.REGULAR) {
        throw src.invalid(op.column(), "PRIMARY KEY part " + quoted + " found in SET part");
      }
      if (op instanceof Operation.Assign a && a.target() instanceof ColumnRef.Whole) {
        cols.add(c.name());
        ops.add(Terms.prepare(a.value(), info.receiver(c), pc));
      } else if (op instanceof Operation.Assign a) {
        throw src.notYet(
            op.position(),
            c.name().length(),
            a.target() instanceof ColumnRef.Element
                ? "assignment of an element (c[k] = v)"
                : "assignment of a field (u.f = v)",
            "Talus has no collections or user-defined types yet");
      } else if (op instanceof Operation.Prepend) {
        throw src.invalid(
            op.column(),
            "Invalid operation ("
                + quoted
                + " = ... + "
                + quoted
                + ") for non list column "
                + quoted);
      } else {
        String sign = op instanceof Operation.Add ? "+" : "-";
        throw src.invalid(
            op.column(),
            "Invalid operation ("
                + quoted
                + " = "
                + quoted
                + " "
                + sign
                + " ...) for non counter column "
                + quoted
                + " (Talus has no counter or collection columns yet)");
      }
    }
    KeyWhere where = KeyWhere.prepare(s.where(), info, true, s.position(), pc);
    WriteAttributes attributes = WriteAttributes.prepare(s.attributes(), pc);
    return new UpdateExec(
        table,
        where,
        cols.toArray(new String[0]),
        ops.toArray(new Operand[0]),
        attributes,
        CqlConditions.prepare(
            s.ifExists(),
            s.conditions(),
            s.where(),
            table.schema(),
            attributes,
            s.position(),
            false,
            pc),
        src,
        s);
  }

  private List<Update> build(ExecContext ctx, Long batchTimestamp) {
    Object[] v = new Object[values.length];
    boolean any = false;
    for (int i = 0; i < values.length; i++) {
      v[i] = values[i].eval(ctx, null);
      any |= v[i] != ExecContext.UNSET;
    }
    List<Map<String, Object>> rows = where.combinations(ctx);
    if (!any) {
      return List.of(); // every value unset: nothing to write
    }
    Duration ttl = attributes.ttl(ctx);
    Long ts = batchTimestamp != null ? batchTimestamp : attributes.timestamp(ctx);
    List<Update> out = new ArrayList<>(rows.size());
    for (Map<String, Object> key : rows) {
      Update u = table.update();
      key.forEach(u::where);
      for (int i = 0; i < columns.length; i++) {
        if (v[i] != ExecContext.UNSET) {
          u.set(columns[i], v[i]);
        }
      }
      if (ttl != null) {
        u.ttl(ttl);
      }
      if (ts != null) {
        u.timestamp(ts);
      }
      conditions.applyTo(u, ctx);
      out.add(u);
    }
    return out;
  }

  @Override
  boolean hasOwnTimestamp() {
    return attributes.hasTimestamp();
  }

  @Override
  boolean hasOwnTtl() {
    return attributes.hasTtl();
  }

  @Override
  void addTo(Batch batch, ExecContext ctx, Long timestamp) {
    build(ctx, timestamp).forEach(batch::add);
  }

  @Override
  void run(ExecContext ctx) {
    List<Update> updates = build(ctx, null);
    if (updates.size() == 1) {
      updates.get(0).execute();
    } else if (!updates.isEmpty()) {
      Batch b = ctx.db().batch();
      updates.forEach(b::add);
      b.execute();
    }
  }
}
