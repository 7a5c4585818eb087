package dev.talus.read;

import dev.talus.ColumnDef;
import dev.talus.DataType;
import dev.talus.InvalidQueryException;
import dev.talus.ResultRow;
import dev.talus.TableSchema;
import dev.talus.codec.TypeCodec;
import dev.talus.request.AggregateRequest;
import dev.talus.request.ReadRequest;
import dev.talus.request.ReadResult;
import dev.talus.schema.Columns;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Comparator;
import java.util.List;

/**
 * Aggregates over the rows of a read — a partition, a slice or a scan — computed while the read is
 * paged through internally ({@value #PAGE} rows a page, each page one read with its own tombstone
 * count), so memory stays bounded whatever the row count. Result types are Cassandra's: {@code
 * count} a bigint; {@code min} and {@code max} the column's type (null over no values); {@code sum}
 * and {@code avg} the column's numeric type, 0 over no values, integers summed with wrap-around in
 * their own width as Cassandra does, averaged with a wider accumulator and truncated, float and
 * double with compensated summation. Null values are skipped, as in Cassandra. Stateless.
 */
public final class Aggregation {
  /** Rows per internal page. */
  static final int PAGE = 5_000;

  private Aggregation() {}

  /** Runs {@code agg} over the rows {@code req} selects, reading them with {@code read}. */
  public static Object compute(
      TableSchema s,
      ReadRequest req,
      AggregateRequest agg,
      java.util.function.Function<ReadRequest, ReadResult> read) {
    if (req.limit() != Integer.MAX_VALUE
        || req.pageSize() != Integer.MAX_VALUE
        || req.pagingState() != null
        || req.perPartitionLimit() != Integer.MAX_VALUE) {
      throw new InvalidQueryException(
          "an aggregate reads every row its select matches and returns one value; it cannot be"
              + " combined with limit, perPartitionLimit, pageSize or pagingState");
    }
    ColumnDef c = agg.column() == null ? null : Columns.column(s, agg.column());
    AggregateRequest.Accumulator acc = accumulator(s, agg, c);
    // count(*) reads every column, so a partition holding only static data counts as its one row
    List<String> projected = c != null ? List.of(c.name()) : List.of();
    byte[] state = null;
    do {
      ReadResult page =
          read.apply(
              new ReadRequest(
                  req.restrictions(),
                  req.tupleRestrictions(),
                  projected,
                  req.orderBy(),
                  req.reversed(),
                  Integer.MAX_VALUE,
                  PAGE,
                  state,
                  req.allowFiltering(),
                  Integer.MAX_VALUE,
                  req.tokenRestrictions(),
                  List.of()));
      for (ResultRow r : page.rows()) {
        if (c == null) {
          acc.add(Boolean.TRUE); // count(*): every row
        } else {
          Object v = r.get(c.name());
          if (v != null) {
            acc.add(v);
          }
        }
      }
      state = page.pagingState();
    } while (state != null);
    return acc.result();
  }

  private interface Acc extends AggregateRequest.Accumulator {}

  private static AggregateRequest.Accumulator accumulator(
      TableSchema s, AggregateRequest agg, ColumnDef c) {
    return accumulator(
        agg.function(),
        c == null ? null : c.type(),
        c == null ? null : c.name() + " of " + s.name());
  }

  /**
   * A new accumulator of {@code f} over values of {@code type} (ignored for count), refusing types
   * it cannot aggregate with an error naming {@code what} (e.g. {@code "v of t"}).
   */
  public static AggregateRequest.Accumulator accumulator(
      AggregateRequest.Function f, DataType type, String what) {
    return switch (f) {
      case COUNT -> new Count();
      case MIN, MAX -> {
        if (!type.canBeKey()) {
          throw new InvalidQueryException(
              f.name().toLowerCase(java.util.Locale.ROOT)
                  + " needs a column with an order; "
                  + what
                  + " is "
                  + type.cqlName());
        }
        Comparator<Object> order = TypeCodec.of(type).comparator();
        yield new Extreme(f == AggregateRequest.Function.MIN ? order : order.reversed());
      }
      case SUM, AVG -> new Numeric(numericType(f, type, what), f);
    };
  }

  /** The type of {@code f}'s result over values of {@code type}, as Cassandra types it. */
  public static DataType resultType(AggregateRequest.Function f, DataType type, String what) {
    return switch (f) {
      case COUNT -> DataType.BIGINT;
      case MIN, MAX -> type;
      case SUM, AVG -> numericType(f, type, what) == type.kind() ? type : DataType.BIGINT;
    };
  }

  private static DataType.Kind numericType(
      AggregateRequest.Function f, DataType type, String what) {
    return switch (type.kind()) {
      case TINYINT, SMALLINT, INT, BIGINT, VARINT, FLOAT, DOUBLE, DECIMAL -> type.kind();
      case COUNTER -> DataType.Kind.BIGINT; // a counter aggregates as a bigint, as in Cassandra
      default ->
          throw new InvalidQueryException(
              f.name().toLowerCase(java.util.Locale.ROOT)
                  + " needs a numeric column; "
                  + what
                  + " is "
                  + type.cqlName());
    };
  }

  private static final class Count implements Acc {
    long n;

    @Override
    public void add(Object v) {
      n++;
    }

    @Override
    public Object result() {
      return n;
    }
  }

  private static final class Extreme implements Acc {
    final Comparator<Object> first;
    Object best;

    Extreme(Comparator<Object> first) {
      this.first = first;
    }

    @Override
    public void add(Object v) {
      if (best == null || first.compare(v, best) < 0) {
        best = v;
      }
    }

    @Override
    public Object result() {
      return best;
    }
  }

  /**
   * sum and avg as Cassandra computes them: integers summed in a long (sums wrap in the column's
   * width; averages switch to a BigInteger on overflow and truncate), decimals averaged as a
   * running mean rounded half-even at each step, floating point summed in a double with Kahan
   * compensation (averages switch to a BigDecimal if the double sum overflows).
   */
  private static final class Numeric implements Acc {
    final DataType.Kind type;
    final boolean avg;
    long count;
    long longSum;
    BigInteger bigSum;
    BigDecimal decimal = BigDecimal.ZERO;
    double sum;
    double compensation;
    double simpleSum;
    BigDecimal overflowed;
    boolean longOverflow;

    Numeric(DataType.Kind type, AggregateRequest.Function f) {
      this.type = type;
      this.avg = f == AggregateRequest.Function.AVG;
      this.bigSum = BigInteger.ZERO;
    }

    @Override
    public void add(Object v) {
      count++;
      switch (type) {
        case VARINT -> bigSum = bigSum.add((BigInteger) v);
        case DECIMAL -> {
          BigDecimal x = (BigDecimal) v;
          decimal =
              avg
                  ? decimal.add(
                      x.subtract(decimal).divide(BigDecimal.valueOf(count), RoundingMode.HALF_EVEN))
                  : decimal.add(x);
        }
        case FLOAT, DOUBLE -> addFloating(((Number) v).doubleValue());
        default -> {
          long x = ((Number) v).longValue();
          if (longOverflow) {
            bigSum = bigSum.add(BigInteger.valueOf(x));
          } else {
            long prev = longSum;
            longSum += x;
            if (avg && ((prev ^ longSum) & (x ^ longSum)) < 0) {
              longOverflow = true;
              bigSum = BigInteger.valueOf(prev).add(BigInteger.valueOf(x));
            }
          }
        }
      }
    }

    private void addFloating(double x) {
      if (overflowed != null) {
        overflowed = overflowed.add(BigDecimal.valueOf(x));
        return;
      }
      simpleSum += x;
      double prev = sum;
      double y = x - compensation;
      double t = sum + y;
      compensation = (t - sum) - y;
      sum = t;
      if (avg && Double.isInfinite(sum) && !Double.isInfinite(x)) {
        overflowed = BigDecimal.valueOf(prev).add(BigDecimal.valueOf(x));
      }
    }

    @Override
    public Object result() {
      long n = Math.max(count, 1);
      return switch (type) {
        case VARINT -> avg ? bigSum.divide(BigInteger.valueOf(n)) : bigSum;
        case DECIMAL -> decimal;
        case FLOAT -> (float) floating(n);
        case DOUBLE -> floating(n);
        default -> {
          long r =
              !avg
                  ? longSum
                  : longOverflow ? bigSum.divide(BigInteger.valueOf(n)).longValue() : longSum / n;
          yield switch (type) {
            case TINYINT -> (byte) r;
            case SMALLINT -> (short) r;
            case INT -> (int) r;
            default -> r;
          };
        }
      };
    }

    private double floating(long n) {
      if (overflowed != null) {
        return overflowed.divide(BigDecimal.valueOf(n), RoundingMode.HALF_EVEN).doubleValue();
      }
      double total = sum + compensation; // as Cassandra adds them
      if (Double.isNaN(total) && Double.isInfinite(simpleSum)) {
        total = simpleSum;
      }
      return avg ? total / n : total;
    }
  }
}
