package dev.talus.index;

import dev.talus.IndexNotAvailableException;
import dev.talus.IndexStatus;
import dev.talus.TalusClosedException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The build state of one index of one table since the database was opened: queryable, building
 * (with the SSTables done of those to do) or failed (with the reason), and the reads it served. A
 * new object stands for each index created, so a build of an index that was dropped meanwhile can
 * tell that it no longer matters. Not stored: at open an index is queryable unless a component is
 * missing, when it is built again. Thread-safe (the monitor guards the state; waiters wait on a
 * latch).
 */
public final class IndexProgress {
  private final String name;
  private IndexStatus.State state;
  private int built;
  private int total;
  private String failure;
  private boolean dropped;
  private boolean closed;
  private final AtomicLong queries = new AtomicLong();

  /** Opens when the build ends: finished, failed or dropped. */
  private final CountDownLatch ended;

  private IndexProgress(String name, IndexStatus.State state, int total) {
    this.name = name;
    this.state = state;
    this.total = total;
    this.ended = new CountDownLatch(state == IndexStatus.State.BUILDING ? 1 : 0);
  }

  /** An index that reads may use. */
  static IndexProgress queryable(String name) {
    return new IndexProgress(name, IndexStatus.State.QUERYABLE, 0);
  }

  /** An index whose build over {@code total} SSTables is about to start. */
  static IndexProgress building(String name, int total) {
    return new IndexProgress(name, IndexStatus.State.BUILDING, total);
  }

  public synchronized IndexStatus.State state() {
    return state;
  }

  public synchronized int built() {
    return built;
  }

  public synchronized int total() {
    return total;
  }

  /** Why the build failed; null unless failed. */
  public synchronized String failure() {
    return failure;
  }

  public long queries() {
    return queries.get();
  }

  /** One SSTable of the build is done. */
  public synchronized void builtOne() {
    built = Math.min(total, built + 1);
  }

  /** The build went through every SSTable: reads may use the index. */
  public synchronized void finished() {
    built = total;
    state = IndexStatus.State.QUERYABLE;
    ended.countDown();
  }

  /** The build failed for {@code reason}; reads are refused with it. */
  public synchronized void failed(String reason) {
    state = IndexStatus.State.FAILED;
    failure = reason;
    ended.countDown();
  }

  /** The table's store closed (the database closed or the table was truncated or dropped). */
  synchronized void closed() {
    closed = true;
    ended.countDown();
  }

  /** The index was dropped: waiters stop waiting. */
  synchronized void dropped() {
    dropped = true;
    ended.countDown();
  }

  /**
   * Refuses a read unless the index is queryable (Cassandra's wording for an index that is
   * building); counts the read otherwise.
   */
  public void checkQueryable() {
    refuseUnlessQueryable();
    queries.incrementAndGet();
  }

  private void refuseUnlessQueryable() {
    synchronized (this) {
      if (state == IndexStatus.State.BUILDING) {
        throw new IndexNotAvailableException(
            name,
            state,
            "The secondary index '"
                + name
                + "' is not yet available as it is building ("
                + built
                + " of "
                + total
                + " SSTables done); wait with awaitIndexBuilt, or opt into filtering"
                + " (allowFiltering()) to read without the index");
      }
      if (state == IndexStatus.State.FAILED) {
        throw new IndexNotAvailableException(
            name,
            state,
            "The secondary index '"
                + name
                + "' is not available: its build failed ("
                + failure
                + "); reopening the database, or dropping and creating the index, builds it"
                + " again; allowFiltering() reads without the index");
      }
    }
  }

  /**
   * Waits until the index is queryable (true) or {@code nanos} passed (false).
   *
   * @throws IndexNotAvailableException if the build failed or the index was dropped
   * @throws TalusClosedException if the database closed before the build ended
   */
  public boolean await(long nanos) throws InterruptedException {
    if (!ended.await(nanos, TimeUnit.NANOSECONDS)) {
      return false;
    }
    synchronized (this) {
      if (closed && state == IndexStatus.State.BUILDING) {
        throw new TalusClosedException(
            "the database closed while index '"
                + name
                + "' was building; the next open resumes it");
      }
      if (dropped) {
        throw new IndexNotAvailableException(
            name, state, "The secondary index '" + name + "' was dropped while building");
      }
    }
    refuseUnlessQueryable(); // throws with the reason if the build failed
    return true;
  }
}
