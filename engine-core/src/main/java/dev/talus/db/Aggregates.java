package dev.talus.db;

import dev.talus.DataType;
import dev.talus.GroupedRow;
import dev.talus.TableSchema;
import dev.talus.read.Aggregation;
import dev.talus.read.group.Grouping;
import dev.talus.request.AggregateRequest;
import dev.talus.request.ReadRequest;
import java.util.List;

/**
 * The seam to the read path's aggregates and grouping, for the API's {@code Aggregator} and {@code
 * Select.forEachGroupedRow}. Internal. Stateless.
 */
public final class Aggregates {
  private Aggregates() {}

  /** A new accumulator of {@code f} over values of {@code type}; see {@link Aggregation}. */
  public static AggregateRequest.Accumulator accumulator(
      AggregateRequest.Function f, DataType type, String what) {
    return Aggregation.accumulator(f, type, what);
  }

  /** The type of {@code f}'s result over values of {@code type}. */
  public static DataType resultType(AggregateRequest.Function f, DataType type, String what) {
    return Aggregation.resultType(f, type, what);
  }

  /** One page of the groups of {@code req}; see {@link Grouping#run}. */
  public static byte[] group(
      TableHandle table,
      TableSchema schema,
      ReadRequest req,
      List<String> groupBy,
      GroupedRow each) {
    return Grouping.run(schema, req, groupBy, each::accept, table::read);
  }
}
