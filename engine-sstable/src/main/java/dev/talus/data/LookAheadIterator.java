package dev.talus.data;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The one base of the engine's filtering and merging iterators (after Guava's {@code
 * AbstractIterator}): a subclass says how to find the next element in {@link #computeNext()};
 * {@link #hasNext()} looks ahead once and {@link #next()} hands the element over. Not thread-safe.
 *
 * @param <T> the elements; never null
 */
public abstract class LookAheadIterator<T> implements Iterator<T> {
  private T next;
  private boolean done;

  /**
   * The next element, or null when there is none; called again only after the previous element was
   * taken by {@link #next()}, and never again once it returned null.
   */
  protected abstract T computeNext();

  @Override
  public final boolean hasNext() {
    if (next == null && !done) {
      next = computeNext();
      done = next == null;
    }
    return next != null;
  }

  @Override
  public final T next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    T r = next;
    next = null;
    return r;
  }
}
