package dev.talus.cql.parse.ast;

/** The comparison operators of {@code WHERE} relations and {@code IF} conditions. */
public enum Operator {
  EQ("="),
  NEQ("!="),
  LT("<"),
  LTE("<="),
  GT(">"),
  GTE(">="),
  IN("IN"),
  CONTAINS("CONTAINS"),
  CONTAINS_KEY("CONTAINS KEY"),
  LIKE("LIKE"),
  /** {@code IS NOT NULL} (materialized views only). */
  IS_NOT_NULL("IS NOT NULL");

  private final String cql;

  Operator(String cql) {
    this.cql = cql;
  }

  /**
   * Returns the operator as written.
   *
   * @return e.g. {@code "<="} or {@code "CONTAINS KEY"}
   */
  public String cql() {
    return cql;
  }

  /**
   * Tells whether this is one of {@code = != < <= > >=}.
   *
   * @return true for a plain comparison
   */
  public boolean isComparison() {
    return ordinal() <= GTE.ordinal();
  }
}
