package dev.talus;

import dev.talus.db.Aggregates;
import dev.talus.request.AggregateRequest;
import java.util.Locale;
import java.util.Objects;

/**
 * One running aggregate — {@code count}, {@code min}, {@code max}, {@code sum} or {@code avg} — fed
 * values one at a time, with the same result types and arithmetic as {@link Select#count()}, {@link
 * Select#sum} and the others (Cassandra's): for callers that aggregate rows they read themselves,
 * such as the CQL layer's aggregates of computed selectors and its {@code GROUP BY}. Null values
 * are skipped. Not thread-safe.
 */
public final class Aggregator {
  /** The aggregate functions (Cassandra's native ones). */
  public enum Function {
    COUNT,
    MIN,
    MAX,
    SUM,
    AVG;

    /** The function's CQL name, e.g. {@code "max"}. */
    public String cqlName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final Function function;
  private final DataType resultType;
  private final AggregateRequest.Accumulator acc;

  private Aggregator(Function function, DataType type, String what) {
    this.function = function;
    AggregateRequest.Function f = AggregateRequest.Function.valueOf(function.name());
    this.resultType = Aggregates.resultType(f, type, what);
    this.acc = Aggregates.accumulator(f, type, what);
  }

  /**
   * A new aggregate of {@code function} over values of {@code type} (any type for {@code count}).
   *
   * @param what names the aggregated values in errors, e.g. {@code "v of t"}
   * @throws InvalidQueryException if {@code type} cannot be aggregated that way ({@code sum} of
   *     text, {@code min} of a collection)
   */
  public static Aggregator of(Function function, DataType type, String what) {
    return new Aggregator(Objects.requireNonNull(function), Objects.requireNonNull(type), what);
  }

  /** The function. */
  public Function function() {
    return function;
  }

  /**
   * The type of {@link #result()}: {@code bigint} for {@code count}, the values' type for {@code
   * min} and {@code max}, and for {@code sum} and {@code avg} the values' type ({@code bigint} for
   * a counter).
   */
  public DataType resultType() {
    return resultType;
  }

  /** Adds one value (of the type given at creation); null is skipped. */
  public void add(Object value) {
    if (value != null) {
      acc.add(value);
    }
  }

  /** The aggregate of the values added so far (for no values: 0, or null for min and max). */
  public Object result() {
    return acc.result();
  }
}
