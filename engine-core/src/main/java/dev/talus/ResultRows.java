package dev.talus;

import java.util.Collection;

/** Checks behind {@link ResultRow}'s collection getters. Stateless. */
final class ResultRows {
  private ResultRows() {}

  /** {@code elements} if every element is a {@code type}, else an {@link InvalidQueryException}. */
  static Collection<?> checkElements(String column, Collection<?> elements, Class<?> type) {
    for (Object e : elements) {
      if (!type.isInstance(e)) {
        throw new InvalidQueryException(
            "column "
                + column
                + " holds "
                + e.getClass().getSimpleName()
                + " elements, not "
                + type.getSimpleName());
      }
    }
    return elements;
  }
}
