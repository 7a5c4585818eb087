package dev.talus.cql.parse.ast;

import java.util.List;

/**
 * A primary key declaration: {@code PRIMARY KEY ((a, b), c, d)}, {@code PRIMARY KEY (a, c)} or
 * {@code a int PRIMARY KEY}.
 *
 * @param partitionKey the partition key columns, at least one
 * @param clustering the clustering columns, in order
 * @param inline true when written after a column definition ({@code id uuid PRIMARY KEY})
 * @param position where {@code PRIMARY} was written
 */
public record PrimaryKey(
    List<Identifier> partitionKey,
    List<Identifier> clustering,
    boolean inline,
    SourcePosition position) {
  public PrimaryKey {
    partitionKey = List.copyOf(partitionKey);
    clustering = List.copyOf(clustering);
  }
}
