package dev.talus.cql.parse.ast;

/**
 * {@code DESCRIBE} (or {@code DESC}) with what it describes: {@code CLUSTER}, {@code [FULL]
 * SCHEMA}, {@code KEYSPACES}, {@code [ONLY] KEYSPACE [ks]}, {@code TABLES}, {@code TABLE t}, {@code
 * INDEX i}, {@code MATERIALIZED VIEW v}, {@code TYPES}, {@code TYPE t}, {@code FUNCTIONS}, {@code
 * FUNCTION f}, {@code AGGREGATES}, {@code AGGREGATE a}, or a bare name (a keyspace, table, index,
 * view, type, function or aggregate, whichever exists); then optionally {@code WITH INTERNALS}.
 *
 * @param target what is described
 * @param name the object's name, or null for the plural forms, {@code CLUSTER}, {@code SCHEMA} and
 *     {@code KEYSPACE} without a name (the session's keyspace)
 * @param only true for {@code DESCRIBE ONLY KEYSPACE} (the keyspace without its tables)
 * @param withInternals true for {@code WITH INTERNALS}
 * @param position where {@code DESCRIBE} was written
 */
public record DescribeStatement(
    Target target, QualifiedName name, boolean only, boolean withInternals, SourcePosition position)
    implements RawStatement {

  /** What a {@code DESCRIBE} describes. */
  public enum Target {
    CLUSTER("CLUSTER"),
    SCHEMA("SCHEMA"),
    FULL_SCHEMA("FULL SCHEMA"),
    KEYSPACES("KEYSPACES"),
    KEYSPACE("KEYSPACE"),
    TABLES("TABLES"),
    TABLE("TABLE"),
    INDEX("INDEX"),
    MATERIALIZED_VIEW("MATERIALIZED VIEW"),
    TYPES("TYPES"),
    TYPE("TYPE"),
    FUNCTIONS("FUNCTIONS"),
    FUNCTION("FUNCTION"),
    AGGREGATES("AGGREGATES"),
    AGGREGATE("AGGREGATE"),
    /** A bare name: {@code DESCRIBE users} or {@code DESCRIBE ks.users}. */
    NAME("");

    private final String cql;

    Target(String cql) {
      this.cql = cql;
    }

    /**
     * Returns the keywords as written after {@code DESCRIBE}; empty for {@link #NAME}.
     *
     * @return e.g. {@code "FULL SCHEMA"}
     */
    public String cql() {
      return cql;
    }
  }

  @Override
  public <R> R accept(StatementVisitor<R> visitor) {
    return visitor.visitDescribe(this);
  }
}
