package dev.talus.cql.exec.dml;

import dev.talus.Select;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.exec.support.TableInfo;
import dev.talus.cql.exec.term.Operand;
import dev.talus.cql.exec.term.Terms;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.Ordering;
import dev.talus.cql.parse.ast.SelectStatement;
import java.util.List;

/**
 * {@code ORDER BY v ANN OF [...]} of a SELECT: the vector column and its query vector (a literal or
 * a bind marker), handed to {@link Select#orderByAnn}, which checks the rest (an index on the
 * column, a LIMIT of at most 1000). As in Cassandra, no other ordering may come with it, nor an
 * aggregate or GROUP BY, and a page size below the LIMIT reads every row in one page, with
 * Cassandra's warning.
 *
 * @param column the vector column
 * @param vector the query vector, typed as the column
 * @param name where the column was written
 * @param source for errors at execution
 */
record AnnOrder(String column, Operand vector, Identifier name, Source source) {
  /** The ANN ordering of {@code s}, or null if it has none. */
  static AnnOrder prepare(SelectStatement s, TableInfo info, PrepareContext pc) {
    Ordering ann = null;
    for (Ordering o : s.orderBy()) {
      if (o.annOf() != null) {
        if (ann != null) {
          throw pc.source().invalid(o.column(), "Cannot specify more than one ANN ordering");
        }
        ann = o;
      }
    }
    if (ann == null) {
      return null;
    }
    if (s.orderBy().size() > 1) {
      throw pc.source().invalid(ann.column(), "ANN ordering does not support any other ordering");
    }
    if (ann.descending()) {
      throw pc.source().invalid(ann.column(), "Descending ANN ordering is not supported");
    }
    TableInfo.Column c = Where.column(ann.column(), info, pc);
    if (c.type().javaType() != float[].class) {
      throw pc.source()
          .invalid(ann.column(), "ANN ordering is only supported on float vector indexes");
    }
    Operand v = Terms.prepare(ann.annOf(), info.receiver(c), pc);
    return new AnnOrder(c.name(), v, ann.column(), pc.source());
  }

  /** The orderings of {@code s} without the ANN one. */
  static List<Ordering> others(SelectStatement s) {
    return s.orderBy().stream().filter(o -> o.annOf() == null).toList();
  }

  /**
   * Adds the ordering to {@code select}, with the vector bound for {@code ctx}; refused, as
   * Cassandra refuses it ({@code SelectStatement.TOPK_AGGREGATION_ERROR}), when the SELECT
   * aggregates or groups ({@code aggregating}).
   */
  void addTo(Select select, ExecContext ctx, boolean aggregating) {
    if (aggregating) {
      throw source.invalid(name, "Top-K queries can not be run with aggregation");
    }
    Object v = vector.eval(ctx, null);
    if (v == ExecContext.UNSET || v == null) {
      throw source.invalid(name, "Invalid " + (v == null ? "null" : "unset") + " value for ANN OF");
    }
    select.orderByAnn(column, (float[]) v); // the column's Java type, checked at prepare
  }

  /**
   * Cassandra 5.0 does not page a top-k query: with a page size below the LIMIT it reads every row
   * into one page and warns ({@code SelectStatement.TOPK_PAGE_SIZE_WARNING}); the engine returns
   * the rows in one page, this adds the warning.
   */
  static void warnIfPaged(ExecContext ctx, int limit) {
    if (ctx.pageSize() < limit && limit != Integer.MAX_VALUE) {
      ctx.warn(
          String.format(
              "Top-K queries do not support paging and the page size is set to %d, which is less"
                  + " than LIMIT %d. The page size has been set to %<d to match the LIMIT.",
              ctx.pageSize(), limit));
    }
  }
}
