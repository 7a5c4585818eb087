package dev.talus;

import dev.talus.db.ValueCodecs;
import java.util.Comparator;

/**
 * The natural order of a type's values: the order in which clustering keys, set elements and map
 * keys are stored and returned (Cassandra's, type by type). Stateless and thread-safe.
 */
public final class ValueOrder {
  private ValueOrder() {}

  /**
   * Compares values of {@code type} as {@link ResultRow} returns them (and as the builders accept
   * them once converted to the type's Java class).
   *
   * @param type the type
   * @return a comparator, thread-safe
   */
  public static Comparator<Object> of(DataType type) {
    return ValueCodecs.order(type);
  }
}
