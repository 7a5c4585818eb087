package dev.talus;

import dev.talus.db.ValueCodecs;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Bucketing helpers: keep partitions bounded by adding a bucket column to the partition key, and
 * read a range of buckets back as one ordered result (the seeds' "read a week = seven partitions in
 * parallel").
 *
 * <p><b>Time buckets</b> ({@link #timeBucket}, {@link #timeBuckets}) are computed in UTC. Which
 * bucket column types each unit supports, and the value produced for 2026-09-14T05:42:10Z:
 *
 * <table>
 *   <caption>bucket values</caption>
 *   <tr><th>column type</th><th>HOUR</th><th>DAY</th><th>MONTH</th></tr>
 *   <tr><td>TIMESTAMP</td><td>Instant 2026-09-14T05:00Z</td><td>Instant 2026-09-14T00:00Z</td>
 *       <td>Instant 2026-09-01T00:00Z</td></tr>
 *   <tr><td>DATE</td><td>not supported</td><td>LocalDate 2026-09-14</td>
 *       <td>LocalDate 2026-09-01</td></tr>
 *   <tr><td>TEXT, ASCII</td><td>"2026-09-14T05"</td><td>"2026-09-14"</td><td>"2026-09"</td></tr>
 * </table>
 *
 * <p><b>Hash buckets</b> ({@link #hashBucket}) spread one very active entity over {@code n}
 * partitions: {@code floorMod(murmur3_x64_128(bytes)[0], n)} where {@code bytes} is the value's
 * Talus serialization (the same bytes stored on disk; UTF-8 for text). It is stable across JVMs,
 * platforms and restarts, unlike {@code Object.hashCode} for most types, and evenly distributed for
 * any {@code n}, unlike {@code String.hashCode() % n}.
 *
 * <p>Stateless and thread-safe.
 */
public final class Buckets {
  /** A time bucket's width. */
  public enum TimeBucket {
    HOUR,
    DAY,
    MONTH
  }

  /** Most buckets one range may span: the IN limit of a read. */
  public static final int MAX_BUCKETS = 1000;

  private static final DateTimeFormatter HOUR_TEXT =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter DAY_TEXT =
      DateTimeFormatter.ofPattern("uuuu-MM-dd").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter MONTH_TEXT =
      DateTimeFormatter.ofPattern("uuuu-MM").withZone(ZoneOffset.UTC);

  private Buckets() {}

  /**
   * The bucket holding instant {@code t}, as a value of a bucket column of {@code columnType}.
   *
   * @throws InvalidQueryException if the type does not support the unit (see the class table)
   */
  public static Object timeBucket(TimeBucket unit, Instant t, DataType columnType) {
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(t, "t");
    Instant start = truncate(unit, t);
    return switch (columnType.kind()) {
      case TIMESTAMP -> start;
      case DATE -> {
        if (unit == TimeBucket.HOUR) {
          throw new InvalidQueryException(
              "an hour bucket needs a TIMESTAMP or TEXT bucket column; a DATE holds whole days");
        }
        yield LocalDate.ofInstant(start, ZoneOffset.UTC);
      }
      case TEXT, ASCII ->
          switch (unit) {
            case HOUR -> HOUR_TEXT.format(start);
            case DAY -> DAY_TEXT.format(start);
            case MONTH -> MONTH_TEXT.format(start);
          };
      default ->
          throw new InvalidQueryException(
              "time buckets are TIMESTAMP, DATE, TEXT or ASCII columns, not "
                  + columnType.cqlName());
    };
  }

  /**
   * The buckets that intersect {@code [from, to)}, oldest first: a range ending exactly at a bucket
   * boundary does not include the bucket starting there; an empty range gives no bucket.
   *
   * @throws InvalidQueryException if {@code to} is before {@code from}, the range spans more than
   *     {@value #MAX_BUCKETS} buckets, or the type does not support the unit
   */
  public static List<Object> timeBuckets(
      TimeBucket unit, Instant from, Instant to, DataType columnType) {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    if (to.isBefore(from)) {
      throw new InvalidQueryException(
          "time range ends (" + to + ") before it starts (" + from + ")");
    }
    List<Object> out = new ArrayList<>();
    if (!from.isBefore(to)) {
      return out;
    }
    for (Instant b = truncate(unit, from); b.isBefore(to); b = next(unit, b)) {
      if (out.size() == MAX_BUCKETS) {
        throw new InvalidQueryException(
            "time range "
                + from
                + " to "
                + to
                + " spans more than "
                + MAX_BUCKETS
                + " "
                + unit
                + " buckets; read it in parts or use a wider bucket");
      }
      out.add(timeBucket(unit, b, columnType));
    }
    return out;
  }

  private static Instant truncate(TimeBucket unit, Instant t) {
    return switch (unit) {
      case HOUR -> t.truncatedTo(ChronoUnit.HOURS);
      case DAY -> t.truncatedTo(ChronoUnit.DAYS);
      case MONTH ->
          LocalDateTime.ofInstant(t, ZoneOffset.UTC)
              .toLocalDate()
              .withDayOfMonth(1)
              .atStartOfDay()
              .toInstant(ZoneOffset.UTC);
    };
  }

  private static Instant next(TimeBucket unit, Instant start) {
    return switch (unit) {
      case HOUR -> start.plus(1, ChronoUnit.HOURS);
      case DAY -> start.plus(1, ChronoUnit.DAYS);
      case MONTH ->
          LocalDateTime.ofInstant(start, ZoneOffset.UTC).plusMonths(1).toInstant(ZoneOffset.UTC);
    };
  }

  /**
   * The hash bucket in {@code [0, n)} of {@code value} read as {@code type} (see the class comment
   * for the function). Write it to an INT (or any integer) bucket column; read all {@code n}
   * buckets with {@link #readAcross}.
   *
   * @throws InvalidQueryException if {@code n < 1} or the value does not fit the type
   */
  public static int hashBucket(Object value, DataType type, int n) {
    if (n < 1) {
      throw new InvalidQueryException("the number of hash buckets must be positive, got " + n);
    }
    long hash;
    try {
      hash = ValueCodecs.hash(type, Objects.requireNonNull(value, "value"));
    } catch (IllegalArgumentException e) {
      throw new InvalidQueryException("cannot hash-bucket " + value + ": " + e.getMessage(), e);
    }
    return (int) Math.floorMod(hash, (long) n);
  }

  /** All hash bucket values {@code 0 .. n-1}, for {@link #readAcross}. */
  public static List<Integer> allHashBuckets(int n) {
    if (n < 1 || n > MAX_BUCKETS) {
      throw new InvalidQueryException(
          "the number of hash buckets must be between 1 and " + MAX_BUCKETS + ", got " + n);
    }
    List<Integer> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(i);
    }
    return out;
  }

  /**
   * Reads the partitions {@code bucketColumn IN buckets} in parallel, at most {@code limit} rows
   * from each, and merges them into one list in the query's clustering order (the table's order, or
   * its reverse if {@code query} calls {@link Select#reversed()} or orders by the reverse), keeping
   * the first {@code limit} rows. Ties across buckets come in bucket order (the partition key order
   * of an {@code in(...)} read).
   *
   * <p>{@code query} completes the read for one bucket: equality on the other partition key
   * columns, clustering restrictions (e.g. the time range), the direction, {@code columns} (which
   * must keep the clustering columns — the merge compares them). It must not restrict {@code
   * bucketColumn}, set a limit or paging: this method sets those.
   *
   * <pre>{@code
   * List<Object> days = Buckets.timeBuckets(TimeBucket.DAY, from, to, DataType.DATE);
   * List<ResultRow> latest = Buckets.readAcross(readings, "day", days, 100,
   *     q -> q.eq("sensor_id", sensor).ge("ts", from).lt("ts", to));
   * }</pre>
   *
   * @throws InvalidQueryException if the query is invalid (as for {@link Select#execute()}), or
   *     drops a clustering column from the result
   */
  public static List<ResultRow> readAcross(
      Table table, String bucketColumn, List<?> buckets, int limit, Consumer<Select> query) {
    Objects.requireNonNull(query, "query");
    if (limit < 1) {
      throw new InvalidQueryException("limit must be positive, got " + limit);
    }
    if (buckets.isEmpty()) {
      return List.of();
    }
    Select s = table.select();
    query.accept(s);
    s.in(bucketColumn, buckets)
        .perPartitionLimit(limit)
        .limit((int) Math.min(Integer.MAX_VALUE, (long) limit * buckets.size()));
    List<ResultRow> rows = new ArrayList<>(s.execute().rows());
    if (rows.isEmpty()) {
      return List.of();
    }
    TableSchema schema = table.schema();
    for (ColumnDef c : schema.clustering()) {
      if (!rows.get(0).columns().contains(c.name())) {
        throw new InvalidQueryException(
            "readAcross merges rows by their clustering columns; keep "
                + c.name()
                + " in columns(...)");
      }
    }
    // Each bucket's rows are already in clustering order; a stable sort merges them.
    rows.sort(clusteringOrder(schema, s.reversedOrder()));
    return List.copyOf(rows.subList(0, Math.min(limit, rows.size())));
  }

  private static Comparator<ResultRow> clusteringOrder(TableSchema schema, boolean reversed) {
    Comparator<ResultRow> cmp = (a, b) -> 0;
    for (ColumnDef c : schema.clustering()) {
      Comparator<Object> order = ValueCodecs.order(c.type());
      boolean desc = (c.order() == ClusteringOrder.DESC) != reversed;
      Comparator<ResultRow> col = (a, b) -> order.compare(a.get(c.name()), b.get(c.name()));
      cmp = cmp.thenComparing(desc ? col.reversed() : col);
    }
    return cmp;
  }
}
