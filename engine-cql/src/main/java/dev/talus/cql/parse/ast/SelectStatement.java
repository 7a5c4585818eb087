package dev.talus.cql.parse.ast;

import java.util.List;

/**
 * {@code SELECT [JSON] [DISTINCT] selectors FROM table [WHERE ...] [GROUP BY ...] [ORDER BY ...]
 * [PER PARTITION LIMIT n] [LIMIT n] [ALLOW FILTERING]}.
 *
 * @param json true for {@code SELECT JSON}
 * @param distinct true for {@code SELECT DISTINCT}
 * @param selectors the selectors; empty for {@code *}
 * @param table the table
 * @param where the relations of the {@code WHERE} clause (empty when absent)
 * @param groupBy the {@code GROUP BY} selectors (empty when absent)
 * @param orderBy the {@code ORDER BY} elements (empty when absent)
 * @param perPartitionLimit an integer literal or a bind marker, or null
 * @param limit an integer literal or a bind marker, or null
 * @param allowFiltering true for {@code ALLOW FILTERING}
 * @param position where {@code SELECT} was written
 */
public record SelectStatement(
    boolean json,
    boolean distinct,
    List<SelectItem> selectors,
    QualifiedName table,
    List<Relation> where,
    List<Selector> groupBy,
    List<Ordering> orderBy,
    Term perPartitionLimit,
    Term limit,
    boolean allowFiltering,
    SourcePosition position)
    implements RawStatement {
  public SelectStatement {
    selectors = List.copyOf(selectors);
    where = List.copyOf(where);
    groupBy = List.copyOf(groupBy);
    orderBy = List.copyOf(orderBy);
  }

  /**
   * Tells whether the statement selects {@code *}.
   *
   * @return true for {@code SELECT *}
   */
  public boolean isWildcard() {
    return selectors.isEmpty();
  }

  @Override
  public <R> R accept(StatementVisitor<R> visitor) {
    return visitor.visitSelect(this);
  }
}
