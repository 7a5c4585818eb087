package dev.talus.index;

import dev.talus.ColumnDef;
import dev.talus.DataType;
import dev.talus.IndexDef;
import dev.talus.TableSchema;
import dev.talus.codec.TypeCodec;
import dev.talus.request.ReadRequest;
import dev.talus.request.Restriction;
import dev.talus.schema.Columns;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides whether a read is served by the table's indexes, and what it asks of each. A read is
 * served when it restricts at least one indexed column by equality (or, on a column of a type other
 * than text, by a range), puts no order on its rows and names no token range, and every other
 * restriction is on the partition key — unless the read opts into filtering, when other
 * restrictions are allowed and checked on the rows read. Any other read is left to the normal
 * planner. Stateless.
 */
public final class IndexQueries {
  private IndexQueries() {}

  /**
   * What an indexed read asks.
   *
   * @param ranges one range per restricted indexed column; a row must match all of them
   * @param keyed true if the read names its partitions (then it reads them with the conditions as
   *     filters; the index adds nothing but the permission)
   */
  public record Plan(List<IndexRange> ranges, boolean keyed) {}

  /** The plan of {@code r}, or null if the indexes do not serve it. */
  public static Plan plan(TableSchema s, List<IndexDef> indexes, ReadRequest r) {
    if (indexes.isEmpty()
        || !r.tokenRestrictions().isEmpty()
        || !r.orderBy().isEmpty()
        || r.reversed()) {
      return null;
    }
    Map<String, IndexDef> byColumn = new LinkedHashMap<>();
    indexes.forEach(d -> byColumn.put(d.column(), d));
    Map<String, IndexRange> ranges = new LinkedHashMap<>();
    boolean keyed = false;
    boolean unserved = !r.tupleRestrictions().isEmpty();
    for (Restriction x : r.restrictions()) {
      ColumnDef c = s.column(x.column()).orElse(null);
      if (c == null) {
        return null; // the normal planner names the unknown column
      }
      if (c.kind() == ColumnDef.Kind.PARTITION_KEY) {
        keyed = true;
        continue;
      }
      IndexDef d = byColumn.get(c.name());
      IndexRange range = d == null ? null : rangeOf(s, c, d, x);
      if (range == null) {
        unserved = true;
        continue;
      }
      IndexRange before = ranges.get(c.name());
      ranges.put(c.name(), before == null ? range : intersect(before, range));
    }
    if (ranges.isEmpty() || (unserved && !r.allowFiltering())) {
      return null;
    }
    return new Plan(List.copyOf(ranges.values()), keyed);
  }

  private static IndexRange rangeOf(TableSchema s, ColumnDef c, IndexDef d, Restriction x) {
    boolean text = c.type().kind() == DataType.Kind.TEXT || c.type().kind() == DataType.Kind.ASCII;
    if (x.values().size() != 1 || x.value() == null || VectorIndexRules.applies(c)) {
      return null; // a vector index serves ANN ordering only (VectorRead)
    }
    if (x.op() != Restriction.Op.EQ && (text || !x.op().isSlice())) {
      return null;
    }
    TypeCodec<?> codec = TypeCodec.of(c.type());
    byte[] term = IndexTerms.of(codec, Columns.coerce(s, c, x.value()));
    return switch (x.op()) {
      case EQ -> new IndexRange(d, term, true, term, true);
      case GT -> new IndexRange(d, term, false, null, false);
      case GE -> new IndexRange(d, term, true, null, false);
      case LT -> new IndexRange(d, null, false, term, false);
      case LE -> new IndexRange(d, null, false, term, true);
      default -> null;
    };
  }

  private static IndexRange intersect(IndexRange a, IndexRange b) {
    byte[] lower = a.lower();
    boolean lowerIn = a.lowerInclusive();
    if (b.lower() != null) {
      int c = lower == null ? -1 : Arrays.compareUnsigned(lower, b.lower());
      if (c < 0 || (c == 0 && !b.lowerInclusive())) {
        lower = b.lower();
        lowerIn = b.lowerInclusive();
      }
    }
    byte[] upper = a.upper();
    boolean upperIn = a.upperInclusive();
    if (b.upper() != null) {
      int c = upper == null ? 1 : Arrays.compareUnsigned(upper, b.upper());
      if (c > 0 || (c == 0 && !b.upperInclusive())) {
        upper = b.upper();
        upperIn = b.upperInclusive();
      }
    }
    return new IndexRange(a.index(), lower, lowerIn, upper, upperIn);
  }

  /** {@code r} with {@code extra} restrictions added and the other fields changed as given. */
  public static ReadRequest narrowed(
      ReadRequest r, List<Restriction> extra, int limit, int pageSize, byte[] pagingState) {
    List<Restriction> all = new ArrayList<>(extra);
    all.addAll(r.restrictions());
    return new ReadRequest(
        all,
        r.tupleRestrictions(),
        r.columns(),
        r.orderBy(),
        r.reversed(),
        limit,
        pageSize,
        pagingState,
        true,
        r.perPartitionLimit(),
        r.tokenRestrictions(),
        r.selectors());
  }
}
