package dev.talus.cql.exec.dml;

import dev.talus.Batch;
import dev.talus.Table;
import dev.talus.Update;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.exec.support.TableInfo;
import dev.talus.cql.parse.CqlPrinter;
import dev.talus.cql.parse.ast.Operation;
import dev.talus.cql.parse.ast.UpdateStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code UPDATE t [USING ...] SET c = v, ... WHERE <primary key>}, prepared: the assignments of
 * {@code SET} ({@link SetOperations}: values, collection and counter operations, elements, fields),
 * rows named by {@code =} and {@code IN} on every primary key column. Each row is one {@link
 * Update} of the engine (cells only, no row marker, as in Cassandra); several rows are written as
 * one batch. Immutable and thread-safe.
 */
final class UpdateExec extends WriteStatement {
  private final Table table;
  private final KeyWhere where;
  private final SetOperations.ColumnOp[] ops;
  private final boolean counters;
  private final WriteAttributes attributes;
  private final CqlConditions conditions;

  private UpdateExec(
      Table table,
      KeyWhere where,
      SetOperations.ColumnOp[] ops,
      WriteAttributes attributes,
      CqlConditions conditions,
      Source source,
      UpdateStatement s) {
    super(source, s.position());
    this.table = table;
    this.where = where;
    this.ops = ops;
    this.counters = table.schema().isCounterTable();
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
    List<SetOperations.ColumnOp> ops = new ArrayList<>();
    for (Operation op : s.operations()) {
      TableInfo.Column c = Where.column(op.column(), info, pc);
      if (c.isKey()) {
        throw src.invalid(
            op.column(),
            "PRIMARY KEY part " + CqlPrinter.quoteName(c.name()) + " found in SET part");
      }
      ops.add(SetOperations.prepare(op, c, info, pc, src));
    }
    boolean staticOnly = !ops.isEmpty() && ops.stream().allMatch(o -> o.isStatic);
    KeyWhere where = KeyWhere.prepare(s.where(), info, !staticOnly, s.position(), pc);
    if (staticOnly && where.restrictsClustering()) {
      throw src.invalid(
          s.position(),
          6,
          "Invalid restrictions on clustering columns since the UPDATE statement modifies only"
              + " static columns");
    }
    WriteAttributes attributes = WriteAttributes.prepare(s.attributes(), pc);
    return new UpdateExec(
        table,
        where,
        ops.toArray(new SetOperations.ColumnOp[0]),
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
    Object[][] v = new Object[ops.length][];
    boolean any = false;
    for (int i = 0; i < ops.length; i++) {
      v[i] = ops[i].eval(ctx);
      any |= v[i] != null;
    }
    List<Map<String, Object>> rows = where.combinations(ctx);
    if (!any) {
      return List.of(); // every value unset: nothing to write
    }
    Duration ttl = attributes.ttl(ctx);
    Long ts = batchTimestamp != null ? batchTimestamp : attributes.timestamp(ctx);
    if (counters && !attributes.hasTimestamp()) {
      // a counter update takes no timestamp: a client's default one (the protocol's, a batch's)
      // is not used, as in Cassandra; only USING TIMESTAMP is refused (by the engine)
      ts = null;
    }
    List<Update> out = new ArrayList<>(rows.size());
    for (Map<String, Object> key : rows) {
      Update u = table.update();
      key.forEach(u::where);
      for (int i = 0; i < ops.length; i++) {
        if (v[i] != null) {
          ops[i].apply(u, v[i]);
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
  boolean writesCounters() {
    return counters;
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
