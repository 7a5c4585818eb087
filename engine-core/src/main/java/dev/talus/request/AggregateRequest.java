package dev.talus.request;

/**
 * One aggregate over the rows of a read. Internal.
 *
 * @param function what to compute
 * @param column the column it reads, or null for {@code count(*)}
 */
public record AggregateRequest(Function function, String column) {
  /** The aggregate functions (Cassandra's native ones). */
  public enum Function {
    COUNT,
    MIN,
    MAX,
    SUM,
    AVG
  }

  /** A running aggregate: values added one at a time (never null), then the result. */
  public interface Accumulator {
    /** Adds one non-null value. */
    void add(Object v);

    /** The aggregate of the values added so far. */
    Object result();
  }
}
