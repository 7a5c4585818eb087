package dev.talus.schema;

import dev.talus.ClusteringOrder;
import dev.talus.ColumnDef;
import dev.talus.InvalidQueryException;
import dev.talus.TableSchema;
import dev.talus.request.Restriction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Clustering restrictions checked against the query-first rules: equality on a left-to-right prefix
 * of the clustering columns, then at most a range on the next one. Turns them into slice bounds,
 * flipping range direction for DESC columns. Immutable.
 */
public final class ClusteringPrefix {
  private final TableSchema schema;
  private final List<Object> values;
  private final Restriction lower;
  private final Restriction upper;

  private ClusteringPrefix(
      TableSchema schema, List<Object> values, Restriction lower, Restriction upper) {
    this.schema = schema;
    this.values = values;
    this.lower = lower;
    this.upper = upper;
  }

  /**
   * @param eq canonical values of clustering columns restricted by equality (other columns of the
   *     map are ignored)
   * @param slices range restrictions on clustering columns, values already canonical
   */
  public static ClusteringPrefix of(
      TableSchema s, Map<String, Object> eq, List<Restriction> slices, String verb) {
    List<ColumnDef> ck = s.clustering();
    List<Object> prefix = new ArrayList<>();
    int i = 0;
    while (i < ck.size() && eq.containsKey(ck.get(i).name())) {
      prefix.add(eq.get(ck.get(i).name()));
      i++;
    }
    String sliceColumn = null;
    Restriction lower = null;
    Restriction upper = null;
    for (Restriction r : slices) {
      if (eq.containsKey(r.column())) {
        throw new InvalidQueryException(
            "column " + r.column() + " is restricted both by equality and by a range");
      }
      if (sliceColumn != null && !sliceColumn.equals(r.column())) {
        throw new InvalidQueryException(
            "ranges on both "
                + sliceColumn
                + " and "
                + r.column()
                + " of "
                + s.name()
                + ". Rule: only the last restricted clustering column may have a range. Fix:"
                + " restrict the earlier column by equality, or filter the rest in the"
                + " application");
      }
      sliceColumn = r.column();
      boolean isLower = r.op() == Restriction.Op.GT || r.op() == Restriction.Op.GE;
      if (isLower ? lower != null : upper != null) {
        throw new InvalidQueryException(
            "column " + r.column() + " has two " + (isLower ? "lower" : "upper") + " bounds");
      }
      if (isLower) {
        lower = r;
      } else {
        upper = r;
      }
    }
    int sliceIndex = -1;
    if (sliceColumn != null) {
      if (i >= ck.size() || !ck.get(i).name().equals(sliceColumn)) {
        int at = indexOf(ck, sliceColumn);
        String missing = ck.get(Math.min(i, at)).name();
        throw new InvalidQueryException(
            verb
                + " on "
                + s.name()
                + " restricts clustering column "
                + sliceColumn
                + " by a range but "
                + missing
                + ", which precedes it, is not restricted by equality. Rule: clustering"
                + " columns are restricted left to right, and only the last restricted one may"
                + " have a range. Fix: restrict "
                + missing
                + " by equality, or create a table whose clustering starts with "
                + sliceColumn);
      }
      sliceIndex = i;
    }
    int end = sliceIndex >= 0 ? sliceIndex + 1 : i;
    for (int j = end; j < ck.size(); j++) {
      String name = ck.get(j).name();
      if (eq.containsKey(name)) {
        String skipped = ck.get(i).name();
        boolean afterSlice = sliceIndex >= 0;
        throw new InvalidQueryException(
            verb
                + " on "
                + s.name()
                + " restricts clustering column "
                + name
                + (afterSlice
                    ? " after a range on "
                        + sliceColumn
                        + ". Rule: only the last restricted"
                        + " clustering column may have a range."
                    : " but skips "
                        + skipped
                        + ", which precedes it. Rule: clustering columns are restricted left to"
                        + " right, like a phone book sorted by surname then first name.")
                + " Fix: restrict "
                + (afterSlice ? sliceColumn + " by equality" : skipped)
                + ", or create a table whose clustering order starts with "
                + name
                + " for this query");
      }
    }
    return new ClusteringPrefix(s, List.copyOf(prefix), lower, upper);
  }

  private static int indexOf(List<ColumnDef> ck, String name) {
    for (int i = 0; i < ck.size(); i++) {
      if (ck.get(i).name().equals(name)) {
        return i;
      }
    }
    return ck.size();
  }

  public List<Object> values() {
    return values;
  }

  public boolean hasSlice() {
    return lower != null || upper != null;
  }

  /** {start, end} bounds of the restricted clusterings. */
  public byte[][] bounds(KeyCodec keys) {
    byte[] start = keys.bound(values, false);
    byte[] end = keys.bound(values, true);
    if (!hasSlice()) {
      return new byte[][] {start, end};
    }
    int idx = values.size();
    boolean desc = schema.clustering().get(idx).order() == ClusteringOrder.DESC;
    for (Restriction r : new Restriction[] {lower, upper}) {
      if (r == null) {
        continue;
      }
      List<Object> p = new ArrayList<>(values);
      p.add(r.value());
      // For an ASC column: >= v starts before v, > v starts after v, <= v ends after v, < v
      // ends before v. A DESC column stores values inverted, so a lower value bound becomes the
      // upper byte bound and vice versa.
      boolean isLower = r == lower;
      boolean inclusive = r.op() == Restriction.Op.GE || r.op() == Restriction.Op.LE;
      boolean byteLower = isLower != desc;
      boolean after = byteLower ? !inclusive : inclusive;
      byte[] b = keys.bound(p, after);
      if (byteLower) {
        start = b;
      } else {
        end = b;
      }
    }
    return new byte[][] {start, end};
  }
}
