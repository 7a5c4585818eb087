package dev.talus.cql.parse.ast;

/**
 * One column of {@code WITH CLUSTERING ORDER BY (c1 DESC, c2 ASC)}.
 *
 * @param column the clustering column
 * @param descending true for {@code DESC}
 */
public record ClusteringOrder(Identifier column, boolean descending) {}
