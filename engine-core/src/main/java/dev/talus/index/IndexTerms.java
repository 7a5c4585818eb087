package dev.talus.index;

import dev.talus.ColumnDef;
import dev.talus.DataType;
import dev.talus.IndexDef;
import dev.talus.codec.ComplexCodec;
import dev.talus.codec.TypeCodec;
import dev.talus.data.Cell;
import dev.talus.data.Row;
import dev.talus.schema.KeyCodec;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.function.Consumer;

/**
 * The terms of indexed values: a value's order-preserving key encoding ({@link
 * TypeCodec#encodeKey}) — so that terms compare as unsigned bytes in the order of the values and a
 * range of values is a range of terms — taken from what the index's target names: the whole value
 * of a scalar or frozen column ({@link IndexDef.Target#SIMPLE}, {@link IndexDef.Target#FULL}), each
 * element of a list or set or each value of a map ({@link IndexDef.Target#VALUES}), each key of a
 * map ({@link IndexDef.Target#KEYS}); for a partition key component or a clustering column, the
 * component's value in the row's key ({@link KeyPart}: every row of a partition holds the term of
 * its partition key component, the static row included); for a static column, the static row's
 * value. A text value under an analyzed index (a whole value, or an element or key of a collection)
 * is analyzed first ({@link IndexAnalyzer}). Stateless.
 */
final class IndexTerms {
  private IndexTerms() {}

  /**
   * How the terms of one index are read from rows of one table schema.
   *
   * @param id the column's cell id
   * @param target what of the value is indexed
   * @param codec the codec of one indexed value (the element's for VALUES and KEYS)
   * @param complex the codec of the column's element cells, or null for a single-cell column
   * @param analyzer the text analysis, {@link IndexAnalyzer#NONE} if none
   * @param key the key component indexed, or null for a regular column
   */
  record Source(
      int id,
      IndexDef.Target target,
      TypeCodec<?> codec,
      ComplexCodec complex,
      IndexAnalyzer analyzer,
      KeyPart key) {
    /** The term of canonical value {@code value} of one indexed value. */
    byte[] term(Object value) {
      Object v = value;
      if (analyzer.changes() && v instanceof String s) {
        v = analyzer.analyze(s);
      }
      return of(codec, v);
    }
  }

  /**
   * A component of the row's key: partition key component {@code index} ({@code partition}) or
   * clustering column {@code index}, decoded with {@code keys}.
   */
  record KeyPart(KeyCodec keys, boolean partition, int index) {}

  /** How {@code def}'s terms are read with {@code keys}, or null if its column is not stored. */
  static Source source(IndexDef def, KeyCodec keys) {
    int id = keys.regularId(def.column());
    if (id < 0) {
      return keySource(def, keys);
    }
    ColumnDef c = keys.column(id);
    DataType t = c.type();
    IndexAnalyzer analyzer = IndexAnalyzer.of(def);
    return switch (def.target()) {
      case SIMPLE, FULL ->
          new Source(id, def.target(), keys.regularCodec(id), null, analyzer, null);
      case KEYS -> new Source(id, def.target(), elementCodec(t, true), complex(t), analyzer, null);
      case VALUES ->
          new Source(id, def.target(), elementCodec(t, false), complex(t), analyzer, null);
      case ENTRIES ->
          new Source(id, def.target(), elementCodec(t, false), complex(t), analyzer, null);
    };
  }

  /** The source of an index on a key component, or null if {@code def} names no key column. */
  private static Source keySource(IndexDef def, KeyCodec keys) {
    List<ColumnDef> pk = keys.schema().partitionKey();
    List<ColumnDef> ck = keys.schema().clustering();
    for (int i = 0; i < pk.size(); i++) {
      if (pk.get(i).name().equals(def.column())) {
        return keyPartSource(def, pk.get(i), new KeyPart(keys, true, i));
      }
    }
    for (int i = 0; i < ck.size(); i++) {
      if (ck.get(i).name().equals(def.column())) {
        return keyPartSource(def, ck.get(i), new KeyPart(keys, false, i));
      }
    }
    return null;
  }

  private static Source keyPartSource(IndexDef def, ColumnDef c, KeyPart key) {
    return new Source(-1, def.target(), TypeCodec.of(c.type()), null, IndexAnalyzer.NONE, key);
  }

  /**
   * Whether the terms of {@code s} belong to whole partitions (false for null): a partition key
   * component's, which every row of a partition holds, and a static column's, which only the static
   * row holds. A hit of such an index names its partition, not a row.
   */
  static boolean isPartitionLevel(Source s, KeyCodec keys) {
    if (s == null) {
      return false;
    }
    return s.key() != null ? s.key().partition() : keys.column(s.id()).isStatic();
  }

  /** The codec of one element: a map's key ({@code key}) or value, a list's or set's element. */
  static TypeCodec<?> elementCodec(DataType t, boolean key) {
    if (t.kind() == DataType.Kind.MAP) {
      return TypeCodec.nested(key ? t.elementType() : t.valueType());
    }
    return TypeCodec.nested(t.elementType());
  }

  private static ComplexCodec complex(DataType t) {
    return t.isMultiCell() ? ComplexCodec.of(t) : null;
  }

  /** The term of canonical value {@code value} of {@code codec}'s type. */
  static byte[] of(TypeCodec<?> codec, Object value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    codec.encodeKey(value, out);
    return out.toByteArray();
  }

  /**
   * Like {@link #terms(Source, byte[], Row, Consumer)} for a source that is not a partition key
   * component (which needs the row's partition key).
   */
  static void terms(Source s, Row row, Consumer<byte[]> out) {
    terms(s, null, row, out);
  }

  /**
   * Gives {@code out} every term {@code row} of partition {@code partitionKey} holds for {@code s}:
   * none if the row holds no value (no cell, a tombstone, or bytes that are not a value of the type
   * — an empty value is never indexed), one for a whole value, one per live element cell for VALUES
   * and KEYS (an element tombstone adds nothing; a value twice in a list gives its term twice); for
   * a key component, the component's value — of the partition key for every row, of the clustering
   * for every row but the static row (which has none), whatever the row's cells hold (the read
   * rechecks the row).
   *
   * @param partitionKey the partition key's bytes; only a partition key component's source reads it
   *     (and then it must not be null)
   */
  static void terms(Source s, byte[] partitionKey, Row row, Consumer<byte[]> out) {
    if (s.key() != null) {
      keyTerm(s, partitionKey, row, out);
      return;
    }
    if (s.complex() == null) {
      Cell c = row.cell(s.id());
      if (c == null || c.isTombstone() || c.hasPath()) {
        return;
      }
      byte[] term = termOf(s, c.value());
      if (term != null) {
        out.accept(term);
      }
      return;
    }
    Cell[] cells = row.cells();
    int i = row.firstCellIndex(s.id());
    if (i < 0) {
      return;
    }
    boolean paths =
        s.target() == IndexDef.Target.KEYS || s.complex().type().kind() == DataType.Kind.SET;
    for (; i < cells.length && cells[i].column() == s.id(); i++) {
      Cell c = cells[i];
      if (c.isTombstone() || !c.hasPath()) {
        continue;
      }
      // a set element's or map key's path is already its term; an entry's is the key's term
      // followed by the value's (each self-delimiting, so the pair is unambiguous)
      byte[] term;
      if (s.target() == IndexDef.Target.ENTRIES) {
        byte[] value = termOf(s, c.value());
        term = value == null ? null : concat(c.path(), value);
      } else if (paths) {
        // an analyzed element is decoded from its path, analyzed and encoded again
        term =
            s.analyzer().changes() ? s.term(s.codec().decodeKey(c.path(), new int[1])) : c.path();
      } else {
        term = termOf(s, c.value());
      }
      if (term != null) {
        out.accept(term);
      }
    }
  }

  private static void keyTerm(Source s, byte[] partitionKey, Row row, Consumer<byte[]> out) {
    KeyPart k = s.key();
    Object value;
    if (k.partition()) {
      if (partitionKey == null) {
        throw new IllegalStateException("a partition key component's terms need the partition key");
      }
      value = k.keys().decodePartitionKey(partitionKey)[k.index()];
    } else {
      if (row.isStatic()) {
        return;
      }
      value = k.keys().decodeClustering(row.clustering())[k.index()];
    }
    out.accept(of(s.codec(), value));
  }

  /** The term of a map entry: its key's term then its value's. */
  static byte[] concat(byte[] key, byte[] value) {
    byte[] out = java.util.Arrays.copyOf(key, key.length + value.length);
    System.arraycopy(value, 0, out, key.length, value.length);
    return out;
  }

  private static byte[] termOf(Source s, byte[] value) {
    try {
      return s.term(s.codec().deserialize(value));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
