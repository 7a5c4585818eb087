package dev.talus.cql.parse.ast;

import java.util.List;

/**
 * {@code CREATE TABLE [IF NOT EXISTS] t (columns, [PRIMARY KEY (...)]) [WITH CLUSTERING ORDER BY
 * (...) AND COMPACT STORAGE AND options]} ({@code COLUMNFAMILY} is accepted for {@code TABLE}).
 *
 * <p>The primary key is kept as written: normally exactly one declaration, inline on a column or as
 * a separate {@code PRIMARY KEY (...)} element; none or several is a schema error that preparing
 * reports.
 *
 * @param table the table
 * @param ifNotExists true for {@code IF NOT EXISTS}
 * @param columns the columns, in order
 * @param primaryKeys the primary key declarations, in the order written
 * @param clusteringOrder the {@code CLUSTERING ORDER BY} columns (empty when absent)
 * @param compactStorage true for {@code COMPACT STORAGE} (refused by Talus, as by Cassandra 4+)
 * @param properties the other options
 * @param position where {@code CREATE} was written
 */
public record CreateTableStatement(
    QualifiedName table,
    boolean ifNotExists,
    List<ColumnDefinition> columns,
    List<PrimaryKey> primaryKeys,
    List<ClusteringOrder> clusteringOrder,
    boolean compactStorage,
    Properties properties,
    SourcePosition position)
    implements RawStatement {
  public CreateTableStatement {
    columns = List.copyOf(columns);
    primaryKeys = List.copyOf(primaryKeys);
    clusteringOrder = List.copyOf(clusteringOrder);
  }

  @Override
  public <R> R accept(StatementVisitor<R> visitor) {
    return visitor.visitCreateTable(this);
  }
}
