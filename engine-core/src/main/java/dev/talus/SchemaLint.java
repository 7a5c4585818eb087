package dev.talus;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Data-model checks on a {@link TableSchema}: warnings a user should read, never errors. {@link
 * TalusDb#createTable} logs them at WARN and creates the table anyway. The rules are heuristics on
 * names and types — Talus cannot know the data — so each warning says what it saw and what to do.
 *
 * <ol>
 *   <li><b>Unbounded time series.</b> The first clustering column is a TIMESTAMP, TIMEUUID or DATE
 *       and no partition key column looks like a time bucket. A partition key column counts as a
 *       bucket when its type is DATE or TIMESTAMP, or its name contains {@code bucket}, {@code
 *       minute}, {@code hour}, {@code day}, {@code date}, {@code week}, {@code month}, {@code
 *       year}, {@code window} or {@code period}. Such a partition grows for as long as its key is
 *       written to (a sensor, a chat room); tables whose partitions are bounded another way (an
 *       inbox whose rows are replaced) get a false positive.
 *   <li><b>Low-cardinality partition key.</b> A single partition key column of type BOOLEAN or
 *       TINYINT (at most 2 or 256 partitions), or a single TEXT/ASCII column named exactly like a
 *       typically small set: {@code country}, {@code status}, {@code state}, {@code type}, {@code
 *       kind}, {@code category}, {@code region}, {@code gender}, {@code level}, {@code priority}
 *       (case-insensitive, optionally with a {@code _code}/{@code _id} suffix). Few partitions
 *       means a few huge ones.
 *   <li><b>TWCS without TTL.</b> A time-window compaction strategy with no default TTL: TWCS earns
 *       its keep by dropping whole expired SSTables, which never happens if nothing expires
 *       (per-write TTLs are invisible to the schema, hence a warning, not a verdict).
 *   <li><b>List where a set would do</b> (a hint). A non-frozen {@code list} column: appending is
 *       cheap, but setting or removing by position and removing by value read the list before
 *       writing, and a retried append adds the element twice. A {@code set} has neither cost when
 *       order and duplicates do not matter; clustering columns keep an order that does.
 *   <li><b>Counters in an event table.</b> A counter table clustered by a TIMESTAMP, TIMEUUID or
 *       DATE column: each event becomes an increment, and increments are not idempotent (a retried
 *       one counts twice), nor can a deleted counter be written again. Events are better stored as
 *       rows and counted when read, or counted per entity without a time clustering.
 * </ol>
 *
 * Not checked here: collection sizes (the collection guardrails, {@link CollectionThresholds},
 * watch those) and collections written by whole-value overwrite, which only the writes show (the
 * engine warns at run time, see docs/guardrails.md). Stateless and thread-safe.
 */
public final class SchemaLint {
  private static final Pattern BUCKET_NAME =
      Pattern.compile(".*(bucket|minute|hour|day|date|week|month|year|window|period).*");

  private static final Pattern LOW_CARDINALITY_NAME =
      Pattern.compile(
          "(country|status|state|type|kind|category|region|gender|level|priority)(_code|_id)?");

  private static final Set<DataType> TIME_TYPES =
      Set.of(DataType.TIMESTAMP, DataType.TIMEUUID, DataType.DATE);

  private SchemaLint() {}

  /** The warnings for {@code schema}, in rule order; empty if none applies. */
  public static List<String> check(TableSchema schema) {
    List<String> out = new ArrayList<>();
    unboundedTimeSeries(schema, out);
    lowCardinalityKey(schema, out);
    timeWindowWithoutTtl(schema, out);
    listWhereSetWouldDo(schema, out);
    countersInEventTable(schema, out);
    return List.copyOf(out);
  }

  private static void unboundedTimeSeries(TableSchema s, List<String> out) {
    if (s.clustering().isEmpty()) {
      return;
    }
    ColumnDef first = s.clustering().get(0);
    if (!TIME_TYPES.contains(first.type())) {
      return;
    }
    for (ColumnDef pk : s.partitionKey()) {
      if (pk.type() == DataType.DATE
          || pk.type() == DataType.TIMESTAMP
          || BUCKET_NAME.matcher(pk.name().toLowerCase(Locale.ROOT)).matches()) {
        return;
      }
    }
    out.add(
        "table "
            + s.name()
            + ": unbounded partition: rows are clustered by "
            + first.type().cqlName()
            + " column "
            + first.name()
            + " but the partition key "
            + names(s.partitionKey())
            + " has no time bucket, so each partition grows for as long as it is written to."
            + " Add a time bucket (hour/day/month, see dev.talus.Buckets) to the partition key");
  }

  private static void lowCardinalityKey(TableSchema s, List<String> out) {
    if (s.partitionKey().size() != 1) {
      return;
    }
    ColumnDef pk = s.partitionKey().get(0);
    String why = null;
    if (pk.type() == DataType.BOOLEAN) {
      why = "a boolean has 2 values, so the table has at most 2 partitions";
    } else if (pk.type() == DataType.TINYINT) {
      why = "a tinyint has 256 values, so the table has at most 256 partitions";
    } else if ((pk.type() == DataType.TEXT || pk.type() == DataType.ASCII)
        && LOW_CARDINALITY_NAME.matcher(pk.name().toLowerCase(Locale.ROOT)).matches()) {
      why = "a column named " + pk.name() + " usually holds a small set of values";
    }
    if (why != null) {
      out.add(
          "table "
              + s.name()
              + ": low-cardinality partition key "
              + pk.name()
              + ": "
              + why
              + "; each one collects every row for its value. Add a high-cardinality column or a"
              + " bucket (time or hash, see dev.talus.Buckets) to the partition key");
    }
  }

  private static void timeWindowWithoutTtl(TableSchema s, List<String> out) {
    if (s.compaction().strategy() == CompactionOptions.Strategy.TIME_WINDOW
        && s.defaultTimeToLive().isZero()) {
      out.add(
          "table "
              + s.name()
              + ": time-window compaction without a default TTL: TWCS pays off by dropping whole"
              + " SSTables once everything in them has expired. Set defaultTimeToLive (or give"
              + " every write a TTL), or use size-tiered compaction");
    }
  }

  private static void listWhereSetWouldDo(TableSchema s, List<String> out) {
    List<String> lists = new ArrayList<>();
    for (ColumnDef c : s.nonKeyColumns()) {
      if (c.type().kind() == DataType.Kind.LIST && c.type().isMultiCell()) {
        lists.add(c.name());
      }
    }
    if (!lists.isEmpty()) {
      out.add(
          "table "
              + s.name()
              + ": hint: list column"
              + (lists.size() > 1 ? "s " : " ")
              + String.join(", ", lists)
              + ": setting or removing a list element by position or by value reads the list"
              + " before writing, and a retried append adds the element twice. If order and"
              + " duplicates do not matter, use a set; if order matters, consider clustering"
              + " columns");
    }
  }

  private static void countersInEventTable(TableSchema s, List<String> out) {
    if (!s.isCounterTable()) {
      return;
    }
    for (ColumnDef c : s.clustering()) {
      if (TIME_TYPES.contains(c.type())) {
        out.add(
            "table "
                + s.name()
                + ": counters in an event table: it is clustered by "
                + c.type().cqlName()
                + " column "
                + c.name()
                + ", so each event becomes a counter increment. Increments are not idempotent (a"
                + " retried one counts twice) and a deleted counter cannot be written again."
                + " Store events as rows and count them when reading, or count per entity in a"
                + " counter table without a time clustering");
        return;
      }
    }
  }

  private static List<String> names(List<ColumnDef> cols) {
    return cols.stream().map(ColumnDef::name).toList();
  }
}
