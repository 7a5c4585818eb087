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
 * served when it restricts at least one indexed column — a regular column, a clustering column or a
 * component of a composite partition key — by equality (or, on a column of a type other than text,
 * by a range), puts no order on its rows and names no token range, and every other restriction is
 * on the partition key — unless the read opts into filtering, when other restrictions are allowed
 * and checked on the rows read. A read that restricts some partition key components but does not
 * name its partitions is served only if an index serves each of those restrictions (their terms are
 * exact, so they are not rechecked; the partitions read are named in full). Any other read is left
 * to the normal planner. Stateless.
 */
public final class IndexQueries {
  private IndexQueries() {}

  /**
   * What an indexed read asks.
   *
   * @param ranges one range per restricted indexed column; a row must match all of them
   * @param keyed true if the read names its partitions (then it reads them with the conditions as
   *     filters; the index adds nothing but the permission)
   * @param request the read to recheck the candidates with: the read asked, its equalities and
   *     CONTAINS (KEY) on columns of analyzed indexes made analyzed comparisons ({@link
   *     Restriction.Op#ANALYZED_EQ}), so that the recheck keeps every row the index finds
   */
  public record Plan(List<IndexRange> ranges, boolean keyed, ReadRequest request) {}

  /** The plan of {@code r}, or null if the indexes do not serve it. */
  public static Plan plan(TableSchema s, List<IndexDef> indexes, ReadRequest r) {
    if (indexes.isEmpty()
        || !r.tokenRestrictions().isEmpty()
        || !r.orderBy().isEmpty()
        || r.reversed()) {
      return null;
    }
    Map<String, List<IndexDef>> byColumn = new LinkedHashMap<>();
    indexes.forEach(d -> byColumn.computeIfAbsent(d.column(), k -> new ArrayList<>()).add(d));
    List<IndexRange> ranges = new ArrayList<>();
    boolean keyed = namesPartitions(s, r);
    boolean unserved = !r.tupleRestrictions().isEmpty();
    List<Restriction> recheck = new ArrayList<>(r.restrictions().size());
    for (Restriction x : r.restrictions()) {
      ColumnDef c = s.column(x.column()).orElse(null);
      if (c == null) {
        return null; // the normal planner names the unknown column
      }
      if (c.kind() == ColumnDef.Kind.PARTITION_KEY) {
        if (keyed) {
          recheck.add(x);
          continue;
        }
        // a component of a partially restricted partition key: served by its index or not at all
        IndexRange range = rangeOf(s, c, byColumn.getOrDefault(c.name(), List.of()), x);
        if (range == null) {
          return null; // the normal planner refuses a partial partition key
        }
        add(ranges, range); // exact terms: each candidate partition's key matches, no recheck
        continue;
      }
      recheck.add(x);
      IndexRange range = rangeOf(s, c, byColumn.getOrDefault(c.name(), List.of()), x);
      if (range == null) {
        unserved = true;
        continue;
      }
      add(ranges, range);
      Restriction analyzed = analyzedRecheck(s, c, range.index(), x);
      if (analyzed != null) {
        recheck.set(recheck.size() - 1, analyzed);
      }
    }
    if (ranges.isEmpty() || (unserved && !r.allowFiltering())) {
      return null;
    }
    ReadRequest checked =
        new ReadRequest(
            recheck,
            r.tupleRestrictions(),
            r.columns(),
            r.orderBy(),
            r.reversed(),
            r.limit(),
            r.pageSize(),
            r.pagingState(),
            r.allowFiltering(),
            r.perPartitionLimit(),
            r.tokenRestrictions(),
            r.selectors());
    return new Plan(List.copyOf(ranges), keyed, checked);
  }

  /**
   * The recheck of {@code x} served by analyzed index {@code d} on column {@code c}: an analyzed
   * comparison of the whole value ({@code =}), of the elements ({@code CONTAINS}) or of the keys
   * ({@code CONTAINS KEY}), so that it keeps every row the index finds; null if {@code d} changes
   * no value.
   */
  private static Restriction analyzedRecheck(
      TableSchema s, ColumnDef c, IndexDef d, Restriction x) {
    IndexAnalyzer a = IndexAnalyzer.of(d);
    if (!a.changes()) {
      return null;
    }
    Restriction.Analyzed.Part part;
    Object value;
    switch (x.op()) {
      case EQ -> {
        part = Restriction.Analyzed.Part.WHOLE;
        value = Columns.coerce(s, c, x.value());
      }
      case CONTAINS, CONTAINS_KEY -> {
        boolean key = x.op() == Restriction.Op.CONTAINS_KEY;
        part = key ? Restriction.Analyzed.Part.KEY : Restriction.Analyzed.Part.ELEMENT;
        value = IndexTerms.elementCodec(c.type(), key).coerce(x.value());
      }
      default -> {
        return null;
      }
    }
    return new Restriction(
        x.column(),
        Restriction.Op.ANALYZED_EQ,
        List.of(new Restriction.Analyzed(a.analyze((String) value), a, part)));
  }

  /**
   * Whether {@code r} names its partitions: every partition key column restricted once, by equality
   * or IN (the read then reads those partitions; the indexes only permit its conditions).
   */
  private static boolean namesPartitions(TableSchema s, ReadRequest r) {
    for (ColumnDef pk : s.partitionKey()) {
      int n = 0;
      for (Restriction x : r.restrictions()) {
        if (x.column().equals(pk.name())) {
          if (x.op() != Restriction.Op.EQ && x.op() != Restriction.Op.IN) {
            return false;
          }
          n++;
        }
      }
      if (n != 1) {
        return false;
      }
    }
    return true;
  }

  /**
   * Adds {@code range} to {@code ranges}: two conditions on the whole value of one column are one
   * range (their intersection); conditions on elements ({@code CONTAINS a AND CONTAINS b}) each
   * stay their own, since a row must hold every element named.
   */
  private static void add(List<IndexRange> ranges, IndexRange range) {
    if (range.index().target() == IndexDef.Target.SIMPLE) {
      for (int i = 0; i < ranges.size(); i++) {
        if (ranges.get(i).index().equals(range.index())) {
          ranges.set(i, intersect(ranges.get(i), range));
          return;
        }
      }
    }
    ranges.add(range);
  }

  /**
   * The range {@code x} asks of one of {@code indexes} (the indexes of column {@code c}), or null
   * if none serves it: {@code =} and ranges on a whole scalar value (equality only on text, ascii
   * and analyzed indexes), {@code =} on a whole frozen collection, {@code CONTAINS} on the values
   * of a collection, {@code CONTAINS KEY} on the keys of a map.
   */
  private static IndexRange rangeOf(
      TableSchema s, ColumnDef c, List<IndexDef> indexes, Restriction x) {
    int arity = x.op() == Restriction.Op.MAP_ENTRY ? 2 : 1;
    if (x.values().size() != arity || hasNull(x.values()) || VectorIndexRules.applies(c)) {
      return null; // a vector index serves ANN ordering only (VectorRead)
    }
    IndexDef.Target wanted =
        switch (x.op()) {
          case CONTAINS -> IndexDef.Target.VALUES;
          case CONTAINS_KEY -> IndexDef.Target.KEYS;
          case MAP_ENTRY -> IndexDef.Target.ENTRIES;
          case EQ, GT, GE, LT, LE ->
              c.type().isCollection() ? IndexDef.Target.FULL : IndexDef.Target.SIMPLE;
          default -> null;
        };
    IndexDef d = null;
    for (IndexDef i : indexes) {
      if (i.target() == wanted) {
        d = i;
      }
    }
    if (d == null) {
      return null;
    }
    boolean ranged =
        wanted == IndexDef.Target.SIMPLE
            && c.type().kind() != DataType.Kind.TEXT
            && c.type().kind() != DataType.Kind.ASCII;
    if (x.op().isSlice() && !ranged) {
      return null;
    }
    byte[] term;
    try {
      term =
          d.target() == IndexDef.Target.ENTRIES
              ? entryTerm(c, x.values().get(0), x.values().get(1))
              : termOf(s, c, d, x.value());
    } catch (IllegalArgumentException | dev.talus.InvalidQueryException e) {
      return null; // the normal planner names the bad value
    }
    return switch (x.op()) {
      case EQ, CONTAINS, CONTAINS_KEY, MAP_ENTRY -> new IndexRange(d, term, true, term, true);
      case GT -> new IndexRange(d, term, false, null, false);
      case GE -> new IndexRange(d, term, true, null, false);
      case LT -> new IndexRange(d, null, false, term, false);
      case LE -> new IndexRange(d, null, false, term, true);
      default -> null;
    };
  }

  private static boolean hasNull(List<Object> values) {
    for (Object v : values) {
      if (v == null) {
        return true;
      }
    }
    return false;
  }

  /** The term of entry {@code key → value} of map column {@code c} ({@link IndexTerms}). */
  private static byte[] entryTerm(ColumnDef c, Object key, Object value) {
    TypeCodec<?> k = IndexTerms.elementCodec(c.type(), true);
    TypeCodec<?> v = IndexTerms.elementCodec(c.type(), false);
    return IndexTerms.concat(IndexTerms.of(k, k.coerce(key)), IndexTerms.of(v, v.coerce(value)));
  }

  /** The term of query value {@code value} for index {@code d} on column {@code c}. */
  private static byte[] termOf(TableSchema s, ColumnDef c, IndexDef d, Object value) {
    return switch (d.target()) {
      case VALUES, KEYS -> {
        TypeCodec<?> codec = IndexTerms.elementCodec(c.type(), d.target() == IndexDef.Target.KEYS);
        Object v = codec.coerce(value);
        IndexAnalyzer a = IndexAnalyzer.of(d);
        yield IndexTerms.of(codec, a.changes() && v instanceof String text ? a.analyze(text) : v);
      }
      default -> {
        Object v = Columns.coerce(s, c, value);
        IndexAnalyzer a = IndexAnalyzer.of(d);
        if (a.changes() && v instanceof String text) {
          v = a.analyze(text);
        }
        yield IndexTerms.of(TypeCodec.of(c.type()), v);
      }
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
