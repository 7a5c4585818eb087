package dev.talus.table;

import dev.talus.runtime.DbContext;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The failed compactions of one table and the backoff they impose on its background compactions. A
 * compaction that fails for a reason other than a full disk (an I/O error, a corrupt input SSTable;
 * a full disk has its own retries, and a fail-stop ends all compaction) starts an <em>episode</em>:
 * logged once at WARN with the cause, reported to the metrics listener at every failure, counted.
 * Until the episode ends no background compaction of the table starts before the database clock
 * reaches {@link #retryAt}: the first retry {@link #FIRST_DELAY} after the failure, each further
 * failure doubling the delay up to {@link #MAX_DELAY}. Any compaction of the table that completes
 * (or a background round that finds nothing to do while none runs) ends the episode, logged at
 * INFO. Without this, the end of a failed round queued the next one at once, which picked the same
 * SSTables and failed again: a busy loop flooding the log. Thread-safe.
 */
public final class CompactionFailures {
  private static final Logger LOG = LoggerFactory.getLogger(CompactionFailures.class);

  /** The delay before the first retry after a failure. */
  public static final Duration FIRST_DELAY = Duration.ofSeconds(1);

  /** The longest delay between two retries. */
  public static final Duration MAX_DELAY = Duration.ofMinutes(5);

  private final String table;
  private final DbContext ctx;
  // Guarded by "this".
  private long total;
  private int consecutive;
  private Instant retryAt;
  private String lastFailure = "";
  private Throwable lastCause;

  CompactionFailures(String table, DbContext ctx) {
    this.table = table;
    this.ctx = ctx;
  }

  /** The delay after the {@code n}-th failure in a row (n ≥ 1). */
  public static Duration delayAfter(int n) {
    Duration d = FIRST_DELAY;
    for (int i = 1; i < n && d.compareTo(MAX_DELAY) < 0; i++) {
      d = d.multipliedBy(2);
    }
    return d.compareTo(MAX_DELAY) < 0 ? d : MAX_DELAY;
  }

  /** A compaction ({@code what}) failed with {@code cause}: backs off. Never throws. */
  void failed(String what, Throwable cause) {
    Instant now = ctx.clock().instant();
    boolean first;
    int n;
    Duration delay;
    String detail =
        what + " failed: " + (cause.getMessage() != null ? cause.getMessage() : cause.toString());
    synchronized (this) {
      total++;
      n = ++consecutive;
      first = n == 1;
      delay = delayAfter(n);
      retryAt = now.plus(delay);
      lastFailure = detail;
      lastCause = cause;
    }
    if (first) {
      LOG.warn(
          "The {} failed; its background compactions are retried after 1 s, the delay doubling"
              + " up to 5 min, until one goes through (later failures are logged at DEBUG)",
          what,
          cause);
    } else {
      LOG.debug("The {} failed again ({} in a row), next try in {}: {}", what, n, delay, cause);
    }
    ctx.metrics().compactionFailed(table, n, delay, detail);
  }

  /** A compaction of the table completed: ends an episode. */
  void succeeded() {
    int n;
    synchronized (this) {
      n = consecutive;
      consecutive = 0;
      retryAt = null;
      lastCause = null;
    }
    if (n > 0) {
      LOG.info("Compactions of table {} go through again after {} failures in a row", table, n);
    }
  }

  /** True if {@code e} (or its cause) is the failure this table recorded last. */
  public synchronized boolean isRecorded(Throwable e) {
    return lastCause != null && (e == lastCause || e.getCause() == lastCause);
  }

  /** How long a background compaction must still wait at {@code now}; zero if it may start. */
  public synchronized Duration waitAt(Instant now) {
    if (retryAt == null || !now.isBefore(retryAt)) {
      return Duration.ZERO;
    }
    return Duration.between(now, retryAt);
  }

  /** Compactions that failed since the database was opened (a full disk not included). */
  public synchronized long total() {
    return total;
  }

  /** Failures since the last compaction that went through; 0 outside an episode. */
  public synchronized int consecutive() {
    return consecutive;
  }

  /** The clock time before which no background compaction starts, during an episode. */
  public synchronized Optional<Instant> retryAt() {
    return Optional.ofNullable(retryAt);
  }

  /** The last failure (what failed and the error), or empty. */
  public synchronized String lastFailure() {
    return lastFailure;
  }
}
