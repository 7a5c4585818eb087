package dev.talus.cql.parse.ast;

/**
 * A valid CQL statement that Talus recognises but will never run: roles, users, identities and
 * permissions; materialized views; user-defined functions and aggregates; triggers. The statement
 * was parsed with Cassandra's grammar (so a typo in it is still a syntax error), but only its kind
 * and text are kept. Executing it fails with {@link #refusal()}.
 *
 * @param kind the family of the statement, which carries the reason
 * @param statement the statement's leading keywords in upper case, e.g. {@code "CREATE ROLE"}
 * @param text the statement as written
 * @param position where the statement starts
 */
public record UnsupportedStatement(
    Kind kind, String statement, String text, SourcePosition position) implements RawStatement {

  /** The families of statements Talus recognises and refuses, each with why and what instead. */
  public enum Kind {
    ROLES(
        "Talus is an embedded library with no users, roles, logins or identities: every caller"
            + " of the database has full access. Control access in the application that embeds"
            + " Talus."),
    PERMISSIONS(
        "Talus is an embedded library with no authorization: there is nothing to grant, revoke"
            + " or list. Control access in the application that embeds Talus."),
    MATERIALIZED_VIEWS(
        "materialized views are experimental in Cassandra and can drift out of sync with their"
            + " base table. Write the second table yourself, in the same logged batch as the"
            + " first (query-first design: one table per query)."),
    FUNCTIONS(
        "Talus runs no user code inside the engine. Use the built-in functions, or compute the"
            + " value in the application."),
    AGGREGATES(
        "Talus runs no user code inside the engine. Use the built-in aggregates (count, min, max,"
            + " sum, avg), or aggregate in the application."),
    TRIGGERS(
        "triggers run Java classes inside a Cassandra server, and Talus loads none. Do the extra"
            + " writes in the application, in the same batch.");

    private final String reason;

    Kind(String reason) {
      this.reason = reason;
    }

    /**
     * Returns why Talus refuses this family of statements, and what to do instead.
     *
     * @return the reason
     */
    public String reason() {
      return reason;
    }
  }

  /**
   * Returns the message the executor gives when asked to run this statement.
   *
   * @return e.g. {@code "CREATE ROLE is not supported by Talus: ..."}
   */
  public String refusal() {
    return statement + " is not supported by Talus: " + kind.reason();
  }

  @Override
  public <R> R accept(StatementVisitor<R> visitor) {
    return visitor.visitUnsupported(this);
  }
}
