package dev.talus.read.group;

import dev.talus.ColumnDef;
import dev.talus.InvalidQueryException;
import dev.talus.ResultRow;
import dev.talus.TableSchema;
import dev.talus.request.ReadRequest;
import dev.talus.request.ReadResult;
import dev.talus.request.Restriction;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code GROUP BY} over a read, as Cassandra groups (its {@code GroupMaker}): rows come in the
 * read's order (partitions in token order, rows in clustering order), so the rows of a group —
 * equal values of the partition key and the clustering prefix — are consecutive, and grouping needs
 * only the group in progress. The rows are read in internal pages of {@value #PAGE}; the read's
 * {@code limit}, {@code perPartitionLimit} and {@code pageSize} count groups, not rows.
 *
 * <p>Rows are handed out as they are read. A page of groups stops at a group boundary: when the
 * first row of the group after the page's last is met, the internal page is re-read up to the row
 * before it, which gives the read path's own paging state after the group's last row (a later page
 * resumes exactly there, whatever was flushed or compacted meanwhile). If the rows changed between
 * the two reads so that the re-read does not end on a group already met, the state is taken after
 * the last row of such a group in a fresh read. Stateless.
 */
public final class Grouping {
  /** Rows per internal page. */
  static final int PAGE = 5_000;

  private static final int ATTEMPTS = 100;

  /** Receives the rows of the groups of one page, in order. */
  @FunctionalInterface
  public interface Sink {
    /**
     * One row of a group that is returned.
     *
     * @param row the row
     * @param first true for the group's first row
     */
    void row(ResultRow row, boolean first);
  }

  private Grouping() {}

  /**
   * The primary key columns that make a group, from the {@code groupBy} columns: a prefix of the
   * primary key, whole partition key included, where columns restricted by one {@code =} value may
   * be left out (Cassandra's rules and errors).
   */
  public static List<String> groupColumns(
      TableSchema s, List<String> groupBy, List<Restriction> restrictions) {
    List<ColumnDef> key = new ArrayList<>(s.partitionKey());
    key.addAll(s.clustering());
    Set<String> fixed = new LinkedHashSet<>();
    for (Restriction r : restrictions) {
      if (r.op() == Restriction.Op.EQ || (r.op() == Restriction.Op.IN && r.values().size() == 1)) {
        fixed.add(r.column());
      }
    }
    int next = 0;
    for (String g : groupBy) {
      ColumnDef c = s.column(g).orElse(null);
      if (c == null) {
        throw new InvalidQueryException("Undefined column name " + g + " in table " + s.name());
      }
      if (!c.isPrimaryKey()) {
        throw new InvalidQueryException(
            "Group by is currently only supported on the columns of the PRIMARY KEY, got " + g);
      }
      while (next < key.size()
          && !key.get(next).name().equals(g)
          && fixed.contains(key.get(next).name())) {
        next++;
      }
      if (next == key.size() || !key.get(next).name().equals(g)) {
        throw new InvalidQueryException(
            "Group by currently only support groups of columns following their declared order in"
                + " the PRIMARY KEY");
      }
      next++;
    }
    if (next < s.partitionKey().size()) {
      throw new InvalidQueryException(
          "Group by currently only support groups of columns following their declared order in"
              + " the PRIMARY KEY (a group holds the whole partition key, "
              + s.partitionKey().stream().map(ColumnDef::name).toList()
              + ", unless a partition key column is restricted by =)");
    }
    return key.subList(0, next).stream().map(ColumnDef::name).toList();
  }

  /**
   * Reads the groups of one page of {@code req} (its limits and page size in groups, its paging
   * state one this method returned), handing their rows to {@code sink}; returns the paging state
   * after the page's last group, or null if no group follows.
   */
  public static byte[] run(
      TableSchema s,
      ReadRequest req,
      List<String> groupBy,
      Sink sink,
      Function<ReadRequest, ReadResult> read) {
    List<String> columns = groupColumns(s, groupBy, req.restrictions());
    if (!req.orderBy().isEmpty() || req.reversed()) {
      for (Restriction r : req.restrictions()) {
        if (r.op() == Restriction.Op.IN
            && r.values().size() > 1
            && s.column(r.column())
                .map(c -> c.kind() == ColumnDef.Kind.PARTITION_KEY)
                .orElse(false)) {
          throw new InvalidQueryException(
              "a grouped read of several partitions cannot be ordered: the rows of the partitions"
                  + " would be merged and their groups split; leave out the order, or read one"
                  + " partition at a time");
        }
      }
    }
    int keys = s.partitionKey().size();
    GroupState start = GroupState.decode(req.pagingState(), columns);
    List<String> fetch = fetchColumns(req.columns(), columns);
    byte[] engineState = start.engineState();
    int returned = start.returned();
    int inPartition = start.inPartition();
    String partition = start.partition();
    String current = start.group(); // the group in progress (or the last one of the last page)
    boolean emitting = false;
    int thisPage = 0;
    // the groups met in the current internal page (the one in progress at its start included):
    // at most one per row of the page
    Set<String> passed = new HashSet<>();
    // the first internal page is sized to the groups wanted (a few rows each), the next ones
    // doubled up to PAGE: a small page of groups does not read far past its last group
    long wanted = Math.min((long) req.pageSize(), (long) req.limit() - returned);
    int internalPage = (int) Math.min(PAGE, Math.max(16, wanted * 4 + 1));
    while (true) {
      int size = internalPage;
      ReadResult page = read.apply(internal(req, fetch, size, engineState));
      internalPage = Math.min(PAGE, size * 2);
      List<ResultRow> rows = page.rows();
      passed.clear();
      if (current != null) {
        passed.add(current);
      }
      for (int i = 0; i < rows.size(); i++) {
        ResultRow row = rows.get(i);
        String group = key(row, columns, columns.size());
        if (group.equals(current)) {
          if (emitting) {
            sink.row(row, false);
          }
          continue;
        }
        if (emitting) {
          returned++;
          thisPage++;
          if (returned >= req.limit()) {
            return null;
          }
          if (thisPage >= req.pageSize()) {
            byte[] after =
                stateAfter(req, fetch, engineState, size, i, current, passed, columns, read);
            return new GroupState(after, returned, inPartition, partition, current).encode(columns);
          }
        }
        String pk = key(row, columns, keys);
        if (!pk.equals(partition)) {
          partition = pk;
          inPartition = 0;
        }
        current = group;
        passed.add(group);
        emitting = ++inPartition <= req.perPartitionLimit();
        if (emitting) {
          sink.row(row, true);
        }
      }
      if (page.pagingState() == null) {
        return null; // the last group ends with the read
      }
      engineState = page.pagingState();
    }
  }

  /**
   * The read path's paging state after the last row of {@code group}, the {@code count}th row of
   * the internal page of {@code size} rows that starts at {@code from}. Usually the page re-read up
   * to that row ends on it; if the rows changed in between, the page is read afresh and the state
   * taken after its last row of a group already {@code passed} (none left: from the page's start).
   */
  private static byte[] stateAfter(
      ReadRequest req,
      List<String> fetch,
      byte[] from,
      int size,
      int count,
      String group,
      Set<String> passed,
      List<String> columns,
      Function<ReadRequest, ReadResult> read) {
    if (count == 0) {
      return from; // the group ended with the previous internal page
    }
    int n = count;
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      ReadResult r = read.apply(internal(req, fetch, n, from));
      if (r.rows().size() == n
          && r.pagingState() != null
          && passed.contains(key(r.rows().get(n - 1), columns, columns.size()))) {
        return r.pagingState();
      }
      ReadResult fresh = read.apply(internal(req, fetch, size, from));
      n = 0;
      for (int i = 0; i < fresh.rows().size(); i++) {
        if (passed.contains(key(fresh.rows().get(i), columns, columns.size()))) {
          n = i + 1;
        }
      }
      if (n == 0) {
        return from; // no row of a passed group is left after the page's start
      }
    }
    throw new IllegalStateException(
        "the rows after group " + group + " changed under " + ATTEMPTS + " reads");
  }

  private static ReadRequest internal(
      ReadRequest req, List<String> fetch, int pageSize, byte[] state) {
    return new ReadRequest(
        req.restrictions(),
        req.tupleRestrictions(),
        fetch,
        req.orderBy(),
        req.reversed(),
        Integer.MAX_VALUE,
        pageSize,
        state,
        req.allowFiltering(),
        Integer.MAX_VALUE,
        req.tokenRestrictions(),
        req.selectors());
  }

  /** The requested columns plus the group's, which the grouping reads (all if none requested). */
  private static List<String> fetchColumns(List<String> requested, List<String> group) {
    if (requested.isEmpty()) {
      return requested;
    }
    Set<String> all = new LinkedHashSet<>(requested);
    all.addAll(group);
    return List.copyOf(all);
  }

  /**
   * A group's identity: the values of its first {@code n} columns, each written out with its length
   * (blobs in hex, collections element by element), so two rows are in the same group exactly when
   * their key values are equal.
   */
  static String key(ResultRow row, List<String> columns, int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      write(sb, row.get(columns.get(i)));
    }
    return sb.toString();
  }

  private static void write(StringBuilder sb, Object v) {
    if (v == null) {
      sb.append('-');
      return;
    }
    if (v instanceof Collection<?> c) {
      sb.append('[').append(c.size()).append(':');
      for (Object e : c) {
        write(sb, e);
      }
      return;
    }
    if (v instanceof Map<?, ?> m) {
      sb.append('{').append(m.size()).append(':');
      for (Map.Entry<?, ?> e : m.entrySet()) {
        write(sb, e.getKey());
        write(sb, e.getValue());
      }
      return;
    }
    String text = v instanceof byte[] b ? HexFormat.of().formatHex(b) : v.toString();
    sb.append(text.length()).append(':').append(text);
  }
}
