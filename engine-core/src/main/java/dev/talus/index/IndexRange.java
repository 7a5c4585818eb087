package dev.talus.index;

import dev.talus.IndexDef;
import java.util.Arrays;

/**
 * What a query asks of one index: the terms between two bounds (null: unbounded on that side). An
 * equality is the range from the term to itself. Immutable.
 *
 * @param index the index asked
 * @param lower the lowest term, or null
 * @param lowerInclusive whether {@code lower} itself matches
 * @param upper the highest term, or null
 * @param upperInclusive whether {@code upper} itself matches
 */
public record IndexRange(
    IndexDef index, byte[] lower, boolean lowerInclusive, byte[] upper, boolean upperInclusive) {

  /** Whether {@code term} lies in the range. */
  boolean contains(byte[] term) {
    if (lower != null) {
      int c = Arrays.compareUnsigned(term, lower);
      if (c < 0 || (c == 0 && !lowerInclusive)) {
        return false;
      }
    }
    if (upper != null) {
      int c = Arrays.compareUnsigned(term, upper);
      return c < 0 || (c == 0 && upperInclusive);
    }
    return true;
  }

  /** True if no term can lie in the range. */
  boolean isEmpty() {
    if (lower == null || upper == null) {
      return false;
    }
    int c = Arrays.compareUnsigned(lower, upper);
    return c > 0 || (c == 0 && !(lowerInclusive && upperInclusive));
  }
}
