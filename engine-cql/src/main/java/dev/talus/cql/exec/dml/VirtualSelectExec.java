package dev.talus.cql.exec.dml;

import dev.talus.PagingState;
import dev.talus.ResultRow;
import dev.talus.cql.CqlColumn;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlRow;
import dev.talus.cql.exec.meta.SystemTables;
import dev.talus.cql.exec.meta.VirtualTable;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.Executable;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.parse.ast.Relation;
import dev.talus.cql.parse.ast.SelectStatement;
import dev.talus.cql.parse.ast.SourcePosition;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A {@code SELECT} from one of the system tables Talus answers itself ({@code system_schema.*},
 * {@code system.local}, ...): the rows are computed from the database's state at each execution,
 * filtered by the {@code WHERE} clause ({@code =}, {@code IN} and ranges on any column), selected,
 * limited and paged by position. Immutable and thread-safe.
 */
final class VirtualSelectExec implements Executable {
  private final VirtualTable table;
  private final List<Where.Restriction> where;
  private final Selection selection;
  private final Limits limits;
  private final Source source;
  private final SourcePosition at;

  private VirtualSelectExec(
      VirtualTable table,
      List<Where.Restriction> where,
      Selection selection,
      Limits limits,
      Source source,
      SourcePosition at) {
    this.table = table;
    this.where = where;
    this.selection = selection;
    this.limits = limits;
    this.source = source;
    this.at = at;
  }

  /** The select, or null if {@code s} does not read a system table. */
  static VirtualSelectExec prepare(SelectStatement s, PrepareContext pc) {
    String ks = pc.keyspaceOf(s.table());
    if (!SystemTables.KEYSPACES.contains(ks)) {
      return null;
    }
    VirtualTable table = SystemTables.find(ks, s.table().name().name());
    if (table == null) {
      throw pc.source()
          .invalid(s.table().name(), "table " + s.table().name().name() + " does not exist");
    }
    if (!s.orderBy().isEmpty()) {
      throw pc.source()
          .notYet(
              s.orderBy().get(0).position(),
              1,
              "ORDER BY on a system table",
              "rows come in key order");
    }
    for (Relation r : s.where()) {
      if (TupleWhere.isMultiColumn(r)) {
        throw pc.source().notYet(r.position(), 1, "multi-column relations on a system table", "");
      }
    }
    if (!s.groupBy().isEmpty() || s.distinct()) {
      throw pc.source().notYet(s.position(), 6, "GROUP BY and DISTINCT on a system table", "");
    }
    return new VirtualSelectExec(
        table,
        Where.prepare(s.where(), table.info(), pc),
        Selection.prepare(s, table.info(), null, pc),
        Limits.prepare(s, pc),
        pc.source(),
        s.position());
  }

  @Override
  public List<CqlColumn> resultColumns() {
    return selection.columns();
  }

  @Override
  public CqlResult execute(ExecContext ctx) {
    List<ResultRow> matching = new ArrayList<>();
    List<List<Object>> wanted = new ArrayList<>();
    for (Where.Restriction r : where) {
      wanted.add(r.op() == Where.Op.IN ? r.values(ctx) : List.of(r.value(ctx)));
    }
    for (ResultRow row : table.rows(ctx.session())) {
      if (matches(row, wanted)) {
        matching.add(row);
      }
    }
    int limit = limits.limit(ctx);
    int start = ctx.pagingState() == null ? 0 : offset(ctx.pagingState());
    int end =
        (int) Math.min(matching.size(), Math.min((long) limit, (long) start + ctx.pageSize()));
    List<CqlRow> rows = new ArrayList<>();
    for (int i = start; i < end; i++) {
      rows.add(selection.row(matching.get(i), ctx));
    }
    PagingState next =
        end < Math.min(matching.size(), limit) ? PagingState.fromString(state(end)) : null;
    return CqlResult.rows(selection.columns(), rows, next, ctx.warnings());
  }

  private boolean matches(ResultRow row, List<List<Object>> wanted) {
    for (int i = 0; i < where.size(); i++) {
      Where.Restriction r = where.get(i);
      Object v = row.get(r.column().name());
      Object w = wanted.get(i).get(0);
      boolean ok =
          switch (r.op()) {
            case EQ -> Objects.equals(v, w);
            case IN -> wanted.get(i).contains(v);
            case GT -> compare(v, w) > 0;
            case GE -> compare(v, w) >= 0;
            case LT -> compare(v, w) < 0;
            case LE -> compare(v, w) <= 0;
            case CONTAINS ->
                v instanceof Map<?, ?> m
                    ? m.containsValue(w)
                    : v instanceof java.util.Collection<?> c && c.contains(w);
            case CONTAINS_KEY -> v instanceof Map<?, ?> m && m.containsKey(w);
            case MAP_ENTRY ->
                v instanceof Map<?, ?> m
                    && m.containsKey(w)
                    && Objects.equals(m.get(w), wanted.get(i).get(1));
          };
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compare(Object a, Object b) {
    if (a == null) {
      return -1;
    }
    return ((Comparable) a).compareTo(b);
  }

  private static String state(int offset) {
    ByteBuffer b = ByteBuffer.allocate(8).putInt(0x56544253).putInt(offset); // "VTBS"
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b.array());
  }

  private int offset(PagingState p) {
    byte[] b;
    try {
      b = Base64.getUrlDecoder().decode(p.toString());
    } catch (IllegalArgumentException e) {
      b = new byte[0];
    }
    ByteBuffer buf = ByteBuffer.wrap(b);
    if (b.length != 8 || buf.getInt() != 0x56544253) {
      throw source.invalid(at, 6, "the paging state is not one of a system table's");
    }
    return Math.max(0, buf.getInt());
  }
}
