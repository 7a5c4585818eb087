package dev.talus.cql.parse.ast;

/**
 * The {@code USING TIMESTAMP t AND TTL s} clause of a write or batch. Each value is an integer
 * literal or a bind marker (a negative or too-large value is refused when preparing). Each is given
 * at most once: unlike Cassandra, which keeps the last, the parser refuses a second one.
 *
 * @param timestamp the write timestamp in microseconds, or null for the current time
 * @param ttl the time to live in seconds, or null for the table's default
 */
public record Attributes(Term timestamp, Term ttl) {
  /** No {@code USING} clause. */
  public static final Attributes NONE = new Attributes(null, null);

  /**
   * Tells whether neither value was given.
   *
   * @return true when there is nothing to print
   */
  public boolean isEmpty() {
    return timestamp == null && ttl == null;
  }
}
