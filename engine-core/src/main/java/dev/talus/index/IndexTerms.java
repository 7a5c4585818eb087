package dev.talus.index;

import dev.talus.codec.TypeCodec;
import dev.talus.data.Cell;
import dev.talus.data.Row;
import java.io.ByteArrayOutputStream;

/**
 * The term of an indexed value: the column type's order-preserving key encoding ({@link
 * TypeCodec#encodeKey}), so that terms compare as unsigned bytes in the order of the values and a
 * range of values is a range of terms. Stateless.
 */
final class IndexTerms {
  private IndexTerms() {}

  /** The term of canonical value {@code value} of {@code codec}'s type. */
  static byte[] of(TypeCodec<?> codec, Object value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    codec.encodeKey(value, out);
    return out.toByteArray();
  }

  /**
   * The term of the cell of column {@code columnId} in {@code row}, or null if the row holds no
   * value for it (no cell, a tombstone, or bytes that are not a value of the type — an empty value
   * is never indexed).
   */
  static byte[] ofCell(Row row, int columnId, TypeCodec<?> codec) {
    Cell c = row.cell(columnId);
    if (c == null || c.isTombstone() || c.hasPath()) {
      return null;
    }
    try {
      return of(codec, codec.deserialize(c.value()));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
