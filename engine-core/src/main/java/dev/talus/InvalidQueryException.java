package dev.talus;

/**
 * A read or write that Talus refuses: a query-first rule was broken (missing partition key,
 * clustering column skipped, range not on the last restricted clustering column, ordering that is
 * not the clustering order or its reverse, filtering without opt-in), a column is unknown, or a
 * value has the wrong type. The message names the rule and how to fix the query or the table.
 * Nothing is written when a write is refused.
 */
public class InvalidQueryException extends TalusException {
  private static final long serialVersionUID = 1L;

  public InvalidQueryException(String message) {
    super(message);
  }

  public InvalidQueryException(String message, Throwable cause) {
    super(message, cause);
  }
}
