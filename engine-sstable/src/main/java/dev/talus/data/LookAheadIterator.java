package dev.talus.data;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The one base of the engine's filtering and merging iterators (after Guava's {@code
 * AbstractIterator}): a subclass says how to find the next element in {@link #computeNext()};
 * {@link #hasNext()} looks ahead once and {@link #next()} hands the element over. One field of
 * state, so a subclass is no larger than a hand-written look-ahead iterator. Not thread-safe.
 *
 * @param <T> the elements; never null
 */
public abstract class LookAheadIterator<T> implements Iterator<T> {
  /** Stands in {@link #next} once {@link #computeNext()} returned null. */
  private static final Object END = new Object();

  /** The element looked ahead at, null if none is yet, or {@link #END}. */
  private Object next;

  /**
   * The next element, or null when there is none; called again only after the previous element was
   * taken by {@link #next()}, and never again once it returned null.
   */
  protected abstract T computeNext();

  @Override
  public final boolean hasNext() {
    Object n = next;
    if (n == null) {
      T computed = computeNext();
      n = computed == null ? END : computed;
      next = n;
    }
    return n != END;
  }

  @Override
  public final T next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    @SuppressWarnings("unchecked")
    T r = (T) next;
    next = null;
    return r;
  }
}
