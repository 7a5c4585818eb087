package dev.talus.read;

import dev.talus.ClusteringOrder;
import dev.talus.ColumnDef;
import dev.talus.InvalidQueryException;
import dev.talus.TableSchema;
import dev.talus.data.Slice;
import dev.talus.request.Restriction;
import dev.talus.request.TupleRestriction;
import dev.talus.schema.Columns;
import dev.talus.schema.KeyCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The clustering part of a read, after Cassandra's {@code ClusteringColumnRestrictions} and {@code
 * MultiColumnRestriction}: single-column ({@code eq}, {@code in}, ranges) and multi-column
 * relations on clustering columns are merged per column, checked left to right, and turned into the
 * slices to read — sorted, disjoint, in storage order — plus the conditions that only filtering can
 * check (with {@code allowFiltering()}). Refusals name the rule and the fix. Stateless.
 *
 * <p>Left to right: starting at the first clustering column, each restriction by equality or IN
 * covers the next columns (IN multiplies the clusterings to read: their cartesian product); a range
 * may follow and ends the part the slices answer. Anything after a range, or after a column left
 * unrestricted, needs filtering. A multi-column range {@code (a, b) > (1, 2)} compares the tuple of
 * values column by column in each type's natural order whatever the columns' clustering orders;
 * over columns of mixed order it becomes several slices.
 */
final class ClusteringPlanner {
  /** Most clusterings the IN restrictions of one read may combine into. */
  static final int MAX_CLUSTERINGS = 1000;

  /** Every row of a partition (no static row): what a read restricting no clustering reads. */
  static final List<Slice> EVERYTHING = List.of(Slice.ROWS);

  private ClusteringPlanner() {}

  /**
   * The planned clustering restrictions.
   *
   * @param slices the slices to read, sorted, disjoint and non-empty (none: nothing can match)
   * @param filters conditions on clustering columns checked row by row
   * @param restrictedByEq per clustering column: restricted by equality (may be left out of an
   *     ORDER BY)
   */
  record Result(List<Slice> slices, List<QueryPlanner.Filter> filters, boolean[] restrictedByEq) {}

  private enum Kind {
    EQ,
    IN,
    SLICE
  }

  /** The merged restrictions on a run of consecutive clustering columns [first, last]. */
  private static final class Group {
    final int first;
    int last;
    final Kind kind;
    final List<Object[]> tuples = new ArrayList<>(1);
    Object[] lower;
    boolean lowerInclusive;
    Object[] upper;
    boolean upperInclusive;
    boolean multi;

    /** What the user wrote: a Restriction, a TupleRestriction, or the two Groups merged. */
    final Object source;

    Group(int first, int last, Kind kind, Object source) {
      this.first = first;
      this.last = last;
      this.kind = kind;
      this.source = source;
    }

    /** The restriction as text, for messages (built only when one is needed). */
    String text() {
      if (source instanceof Restriction x) {
        return x.column()
            + " "
            + x.op().symbol()
            + " "
            + (x.op() == Restriction.Op.IN ? x.values() : String.valueOf(x.value()));
      }
      if (source instanceof Group[] merged) {
        return merged[0].text() + " and " + merged[1].text();
      }
      return String.valueOf(source);
    }
  }

  static Result plan(
      KeyCodec keys,
      Map<String, List<Restriction>> byColumn,
      List<TupleRestriction> tuples,
      boolean allowFiltering) {
    TableSchema s = keys.schema();
    List<ColumnDef> ck = s.clustering();
    boolean[] eq = new boolean[ck.size()];
    List<Group> groups = new ArrayList<>(ck.size());
    for (int i = 0; i < ck.size(); i++) {
      ColumnDef c = ck.get(i);
      for (Restriction x : byColumn.getOrDefault(c.name(), List.of())) {
        add(s, groups, single(s, c, i, x));
      }
    }
    for (TupleRestriction t : tuples) {
      add(s, groups, tuple(s, t));
    }
    if (groups.isEmpty()) {
      return new Result(EVERYTHING, List.of(), eq);
    }
    groups.sort((a, b) -> Integer.compare(a.first, b.first));
    for (Group g : groups) {
      if (g.kind == Kind.EQ) {
        for (int i = g.first; i <= g.last; i++) {
          eq[i] = true;
        }
      }
    }
    // left to right: the prefix the slices answer, then what needs filtering
    int next = 0;
    Group range = null;
    List<Group> prefix = new ArrayList<>(groups.size());
    List<QueryPlanner.Filter> filters = List.of();
    for (Group g : groups) {
      if (range != null || g.first != next) {
        if (!allowFiltering) {
          throw ClusteringRefusals.needsFiltering(
              s, g.first, g.kind == Kind.SLICE, range == null ? -1 : range.first, next);
        }
        if (filters.isEmpty()) {
          filters = new ArrayList<>(2);
        }
        filter(keys, g, filters);
      } else if (g.kind == Kind.SLICE) {
        range = g;
      } else {
        prefix.add(g);
        next = g.last + 1;
      }
    }
    return new Result(slices(keys, prefix, range), filters, eq);
  }

  private static Group single(TableSchema s, ColumnDef c, int position, Restriction x) {
    if (x.op() == Restriction.Op.IN && x.values().size() != 1) {
      Group g = new Group(position, position, Kind.IN, x);
      for (Object v : x.values()) {
        g.tuples.add(new Object[] {Columns.keyValue(s, c, v)});
      }
      return g;
    }
    // an IN of one value is an equality, as in Cassandra
    Object v = Columns.keyValue(s, c, x.value());
    if (x.op() == Restriction.Op.EQ || x.op() == Restriction.Op.IN) {
      Group g = new Group(position, position, Kind.EQ, x);
      g.tuples.add(new Object[] {v});
      return g;
    }
    Group g = new Group(position, position, Kind.SLICE, x);
    bound(g, x.op(), new Object[] {v});
    return g;
  }

  private static void bound(Group g, Restriction.Op op, Object[] values) {
    boolean inclusive = op == Restriction.Op.GE || op == Restriction.Op.LE;
    if (op == Restriction.Op.GT || op == Restriction.Op.GE) {
      g.lower = values;
      g.lowerInclusive = inclusive;
    } else {
      g.upper = values;
      g.upperInclusive = inclusive;
    }
  }

  /** A multi-column relation, checked as Cassandra's {@code MultiColumnRelation} checks it. */
  private static Group tuple(TableSchema s, TupleRestriction t) {
    TupleRestriction text = t; // rendered only in messages
    if (t.columns().isEmpty()) {
      throw new InvalidQueryException("multi-column relation " + text + " names no column");
    }
    List<ColumnDef> ck = s.clustering();
    int first = -1;
    ColumnDef[] defs = new ColumnDef[t.columns().size()];
    for (int i = 0; i < defs.length; i++) {
      ColumnDef c = Columns.column(s, t.columns().get(i));
      if (c.kind() != ColumnDef.Kind.CLUSTERING) {
        throw new InvalidQueryException(
            "multi-column relation "
                + text
                + " on "
                + s.name()
                + " names "
                + c.name()
                + ", which is not a clustering column. Rule: multi-column relations compare"
                + " clusterings, so they apply to clustering columns only (as in Cassandra). Fix:"
                + " restrict "
                + c.name()
                + " with eq(...) or in(...)");
      }
      int at = ck.indexOf(c);
      if (i == 0) {
        first = at;
      } else if (at != first + i) {
        throw new InvalidQueryException(
            "multi-column relation "
                + text
                + " on "
                + s.name()
                + " must name consecutive clustering columns in their declared order "
                + ck.stream().map(ColumnDef::name).toList()
                + " (Cassandra: clustering columns must appear in the PRIMARY KEY order in"
                + " multi-column relations)");
      }
      defs[i] = c;
    }
    if (t.op() == Restriction.Op.IN && t.tuples().size() != 1) {
      Group g = new Group(first, first + defs.length - 1, Kind.IN, t);
      g.multi = true;
      for (List<Object> values : t.tuples()) {
        g.tuples.add(values(s, defs, values, text));
      }
      return g;
    }
    Object[] values = values(s, defs, t.tuples().get(0), text);
    boolean eq = t.op() == Restriction.Op.EQ || t.op() == Restriction.Op.IN;
    Group g = new Group(first, first + defs.length - 1, eq ? Kind.EQ : Kind.SLICE, t);
    g.multi = true;
    if (eq) {
      g.tuples.add(values);
    } else {
      bound(g, t.op(), values);
    }
    return g;
  }

  private static Object[] values(
      TableSchema s, ColumnDef[] defs, List<Object> values, TupleRestriction text) {
    if (values.size() != defs.length) {
      throw new InvalidQueryException(
          "multi-column relation "
              + text
              + " expects "
              + defs.length
              + " values in each tuple, but got "
              + values.size()
              + ": "
              + values);
    }
    Object[] out = new Object[defs.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = Columns.keyValue(s, defs[i], values.get(i));
    }
    return out;
  }

  /** Adds {@code g}, merging it with a group it overlaps as Cassandra merges restrictions. */
  private static void add(TableSchema s, List<Group> groups, Group g) {
    for (int i = 0; i < groups.size(); i++) {
      Group h = groups.get(i);
      if (h.first <= g.last && g.first <= h.last) {
        groups.remove(i);
        add(s, groups, merge(s, h, g));
        return;
      }
    }
    groups.add(g);
  }

  private static Group merge(TableSchema s, Group a, Group b) {
    String column = s.clustering().get(Math.max(a.first, b.first)).name();
    if (a.kind != Kind.SLICE || b.kind != Kind.SLICE) {
      if (a.kind == Kind.SLICE || b.kind == Kind.SLICE) {
        throw new InvalidQueryException(
            "column "
                + column
                + " is restricted both by "
                + (a.kind == Kind.IN || b.kind == Kind.IN ? "in(...)" : "equality")
                + " and by a range ("
                + a.text()
                + ", "
                + b.text()
                + "); a column restricted by equality or IN takes no other restriction");
      }
      throw new InvalidQueryException(
          "column "
              + column
              + " is restricted twice ("
              + a.text()
              + ", "
              + b.text()
              + "); a column restricted by equality or IN takes no other restriction");
    }
    if (a.first != b.first) {
      throw new InvalidQueryException(
          "ranges "
              + a.text()
              + " and "
              + b.text()
              + " on "
              + s.name()
              + " do not start at the same clustering column. Rule: two ranges on clustering"
              + " columns must start with the same column (Cassandra: a column cannot be restricted"
              + " by two inequalities not starting with the same column). Fix: start both at "
              + s.clustering().get(Math.min(a.first, b.first)).name());
    }
    for (boolean lower : new boolean[] {true, false}) {
      if ((lower ? a.lower : a.upper) != null && (lower ? b.lower : b.upper) != null) {
        throw new InvalidQueryException(
            "column "
                + s.clustering().get(a.first).name()
                + " has two "
                + (lower ? "lower" : "upper")
                + " bounds ("
                + a.text()
                + ", "
                + b.text()
                + ")");
      }
    }
    Group m = new Group(a.first, Math.max(a.last, b.last), Kind.SLICE, new Group[] {a, b});
    m.multi = a.multi || b.multi;
    Group lo = a.lower != null ? a : b;
    Group hi = a.upper != null ? a : b;
    m.lower = lo.lower;
    m.lowerInclusive = lo.lowerInclusive;
    m.upper = hi.upper;
    m.upperInclusive = hi.upperInclusive;
    return m;
  }

  /** {@code g} as row filters; what Cassandra cannot filter is refused as it refuses it. */
  private static void filter(KeyCodec keys, Group g, List<QueryPlanner.Filter> out) {
    TableSchema s = keys.schema();
    List<ColumnDef> ck = s.clustering();
    if (g.kind == Kind.SLICE && g.multi) {
      throw new InvalidQueryException(
          "multi-column range "
              + g.text()
              + " on "
              + s.name()
              + " cannot be used for filtering: it does not start at the first clustering column"
              + " the query leaves open. Cassandra refuses it too (\"Multi-column slice"
              + " restrictions cannot be used for filtering\"). Fix: restrict the columns before "
              + ck.get(g.first).name()
              + " by equality, or filter on each column alone");
    }
    if (g.kind == Kind.IN) {
      throw new InvalidQueryException(
          "in(...) on "
              + g.text()
              + " of "
              + s.name()
              + " cannot be used for filtering: it does not follow equality on every clustering"
              + " column before it. Cassandra refuses it too (\"IN restrictions are not supported"
              + " on indexed columns\"). Fix: restrict the columns before "
              + ck.get(g.first).name()
              + " by equality, or run one query per value");
    }
    if (g.kind == Kind.EQ) {
      Object[] t = g.tuples.get(0);
      for (int i = 0; i < t.length; i++) {
        ColumnDef c = ck.get(g.first + i);
        out.add(new QueryPlanner.Filter(c, g.first + i, Restriction.Op.EQ, t[i]));
      }
      return;
    }
    ColumnDef c = ck.get(g.first);
    if (g.lower != null) {
      Restriction.Op op = g.lowerInclusive ? Restriction.Op.GE : Restriction.Op.GT;
      out.add(new QueryPlanner.Filter(c, g.first, op, g.lower[0]));
    }
    if (g.upper != null) {
      Restriction.Op op = g.upperInclusive ? Restriction.Op.LE : Restriction.Op.LT;
      out.add(new QueryPlanner.Filter(c, g.first, op, g.upper[0]));
    }
  }

  /** The slices of the prefix groups (equality and IN) followed by the optional range. */
  private static List<Slice> slices(KeyCodec keys, List<Group> prefix, Group range) {
    long product = 1;
    int width = 0;
    for (Group g : prefix) {
      product *= g.tuples.size();
      width += g.last - g.first + 1;
      if (product > MAX_CLUSTERINGS) {
        throw new InvalidQueryException(
            "IN restrictions on the clustering columns of "
                + keys.schema().name()
                + " select more than "
                + MAX_CLUSTERINGS
                + " clusterings (their cartesian product); the limit is "
                + MAX_CLUSTERINGS
                + ". Read fewer values per query, or a range");
      }
    }
    if (product == 0) {
      return List.of();
    }
    if (product == 1) {
      // equalities only (the common case): one prefix, one slice or one range's slices
      List<Object> p = new ArrayList<>(width + 1);
      for (Group g : prefix) {
        for (Object v : g.tuples.get(0)) {
          p.add(v);
        }
      }
      return under(keys, p, range);
    }
    List<List<Object>> prefixes = new ArrayList<>(1);
    prefixes.add(List.of());
    for (Group g : prefix) {
      List<List<Object>> extended = new ArrayList<>(prefixes.size() * g.tuples.size());
      for (List<Object> p : prefixes) {
        for (Object[] t : g.tuples) {
          List<Object> q = new ArrayList<>(p.size() + t.length + 1);
          q.addAll(p);
          q.addAll(Arrays.asList(t));
          extended.add(q);
        }
      }
      prefixes = extended;
    }
    List<Slice> out = new ArrayList<>(prefixes.size());
    for (List<Object> p : prefixes) {
      out.addAll(under(keys, p, range));
    }
    return Slices.normalise(out);
  }

  /** The slices under one prefix: all of it, or what the range selects there. */
  private static List<Slice> under(KeyCodec keys, List<Object> prefix, Group range) {
    if (range == null) {
      return prefix.isEmpty()
          ? EVERYTHING
          : List.of(new Slice(keys.bound(prefix, false), keys.bound(prefix, true)));
    }
    List<Slice> lower = range.lower == null ? null : bound(keys, prefix, range, true);
    List<Slice> upper = range.upper == null ? null : bound(keys, prefix, range, false);
    if (lower == null) {
      return upper;
    }
    if (upper == null) {
      return lower;
    }
    if (lower.size() == 1 && upper.size() == 1) {
      Slice both = lower.get(0).intersect(upper.get(0));
      return both.isEmpty() ? List.of() : List.of(both);
    }
    return Slices.intersect(lower, upper);
  }

  private static boolean descending(KeyCodec keys, int column) {
    return keys.schema().clustering().get(column).order() == ClusteringOrder.DESC;
  }

  /**
   * The clusterings under {@code prefix} whose values from column {@code range.first} on compare,
   * as a tuple, above the lower bound or below the upper one: {@code (t0..tn) > (x0..xn)} is the
   * union over i of {@code t0 = x0 .. t(i-1) = x(i-1), ti > xi}, plus {@code t = x} if inclusive;
   * each term is one slice (a range on one column after equalities), whichever way its column is
   * stored.
   */
  private static List<Slice> bound(KeyCodec keys, List<Object> prefix, Group range, boolean lower) {
    Object[] x = lower ? range.lower : range.upper;
    boolean inclusive = lower ? range.lowerInclusive : range.upperInclusive;
    if (x.length == 1) {
      // one column: one slice, from or to the value (its bound depending on inclusiveness)
      prefix.add(x[0]);
      boolean bytesAbove = lower != descending(keys, range.first);
      byte[] at = keys.bound(prefix, bytesAbove != inclusive);
      prefix.remove(prefix.size() - 1);
      return List.of(
          bytesAbove
              ? new Slice(at, keys.bound(prefix, true))
              : new Slice(keys.bound(prefix, false), at));
    }
    List<Slice> out = new ArrayList<>(x.length + 1);
    List<Object> q = new ArrayList<>(prefix);
    for (int i = 0; i < x.length; i++) {
      List<Object> withValue = new ArrayList<>(q.size() + 1);
      withValue.addAll(q);
      withValue.add(x[i]);
      // rows above x[i] in natural order lie above it in bytes unless the column is stored DESC
      boolean bytesAbove = lower != descending(keys, range.first + i);
      out.add(
          bytesAbove
              ? new Slice(keys.bound(withValue, true), keys.bound(q, true))
              : new Slice(keys.bound(q, false), keys.bound(withValue, false)));
      q = withValue;
    }
    if (inclusive) {
      out.add(new Slice(keys.bound(q, false), keys.bound(q, true)));
    }
    return Slices.normalise(out);
  }
}
