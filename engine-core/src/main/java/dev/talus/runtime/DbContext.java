package dev.talus.runtime;

import dev.talus.StorageException;
import dev.talus.TalusClosedException;
import dev.talus.TalusOptions;
import dev.talus.compaction.CompactionInterruptedException;
import dev.talus.compaction.Throttle;
import dev.talus.io.StorageFs;
import dev.talus.metrics.MetricsEvents;
import dev.talus.sstable.ChunkCache;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one open database hands its parts, so that none of them calls back up into the database: the
 * options, the clock and the write timestamps drawn from it, the file layer, the chunk cache shared
 * by every table, the compaction throttle and pause gate, the metrics listener, and whether the
 * database is still open. Created by the database at open; thread-safe.
 */
public final class DbContext {
  private static final Logger LOG = LoggerFactory.getLogger(DbContext.class);
  private final TalusOptions options;
  private final StorageFs fs;
  private final Path dir;
  private final InstantSource clock;
  private final ThreadLocal<Long> requestNow = new ThreadLocal<>();
  private final ChunkCache chunkCache;
  private final Throttle compactionThrottle;
  private final MetricsEvents metrics;
  private final AtomicLong lastTimestamp = new AtomicLong(Long.MIN_VALUE);
  private final Object pauseMonitor = new Object();
  private volatile boolean compactionsPaused;
  private volatile boolean closed;
  private volatile StorageException stopped;

  public DbContext(TalusOptions options, StorageFs fs) {
    this.options = options;
    this.fs = fs;
    this.dir = options.dataDirectory();
    this.clock = options.clock();
    this.metrics = new MetricsEvents(options.metricsListener());
    this.chunkCache = ChunkCache.create(options.chunkCacheBytes());
    this.compactionThrottle = Throttle.ofMibPerSecond(options.compactionThroughputMibPerSec());
  }

  public TalusOptions options() {
    return options;
  }

  public StorageFs fs() {
    return fs;
  }

  /** The data directory. */
  public Path directory() {
    return dir;
  }

  public InstantSource clock() {
    return clock;
  }

  public ChunkCache chunkCache() {
    return chunkCache;
  }

  public Throttle compactionThrottle() {
    return compactionThrottle;
  }

  /** Where metric events go (never throws). */
  public MetricsEvents metrics() {
    return metrics;
  }

  /** Microseconds from the clock, strictly increasing within this database. */
  public long nextTimestamp() {
    Instant now = clock.instant();
    long micros =
        Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1000);
    return lastTimestamp.updateAndGet(last -> Math.max(micros, last + 1));
  }

  public long nowSeconds() {
    return clock.instant().getEpochSecond();
  }

  /**
   * "Now" for the reads and writes of the request on this thread: the time given to {@link
   * #atNowSeconds}, else the clock's. Flushes, compactions and statistics use {@link #nowSeconds}.
   */
  public long requestNowSeconds() {
    Long at = requestNow.get();
    return at != null ? at : nowSeconds();
  }

  /** Runs {@code work} with {@link #requestNowSeconds} at {@code seconds} on this thread. */
  public <T> T atNowSeconds(long seconds, Supplier<T> work) {
    Long outer = requestNow.get();
    requestNow.set(seconds);
    try {
      return work.get();
    } finally {
      if (outer == null) {
        requestNow.remove();
      } else {
        requestNow.set(outer);
      }
    }
  }

  public boolean isClosed() {
    return closed;
  }

  /**
   * @throws TalusClosedException once the database is closed (or crashed)
   */
  public void checkOpen() {
    if (closed) {
      throw new TalusClosedException(
          "the database at " + dir + " is closed; open it again with TalusDb.open");
    }
  }

  /**
   * Fail-stop: an fsync (or another write) of the commit log or of a manifest failed, so what is
   * durable on disk is no longer known. From now on every write, flush, compaction and schema
   * change is refused with a {@link StorageException} naming {@code what} failed and telling the
   * user to reopen; reads go on. Never retried: after a failed fsync the kernel may have dropped
   * the dirty pages and cleared the error, so a later fsync that succeeds proves nothing
   * (PostgreSQL's "fsyncgate"). The first failure is the one reported. Returns the exception to
   * throw.
   */
  public StorageException stop(String what, Throwable cause) {
    synchronized (this) {
      if (stopped == null) {
        stopped =
            new StorageException(
                "the database at "
                    + dir
                    + " stopped accepting writes, flushes, compactions and schema changes because "
                    + what
                    + " failed ("
                    + cause.getMessage()
                    + "). A failed fsync is never retried: the data it should have persisted may"
                    + " be gone. Reads keep working; close this instance and open it again"
                    + " (TalusDb.open), which recovers from what is durable on disk",
                cause);
        LOG.error("{}", stopped.getMessage(), cause);
      }
      return stopped;
    }
  }

  /** After a {@link #stop}: {@code ". "} and why the database stopped; else empty. */
  public String stopNotice() {
    StorageException s = stopped;
    return s == null ? "" : ". " + s.getMessage();
  }

  /** True after {@link #stop}: the instance refuses writes until it is reopened. */
  public boolean isStopped() {
    return stopped != null;
  }

  /**
   * For writes, flushes, compactions and schema changes.
   *
   * @throws TalusClosedException once the database is closed
   * @throws StorageException after a {@link #stop fail-stop}, naming its cause
   */
  public void checkWritable() {
    checkOpen();
    StorageException s = stopped;
    if (s != null) {
      throw new StorageException(s.getMessage(), s.getCause());
    }
  }

  /** The database is closing: every later {@link #checkOpen()} throws, compactions stop. */
  public void markClosed() {
    closed = true;
    synchronized (pauseMonitor) {
      pauseMonitor.notifyAll();
    }
  }

  /**
   * Between partitions of every compaction: blocks while compactions are paused and cancels the
   * compaction when the database closes. Compactions are never interrupted: an interrupt would
   * close file channels that readers share.
   */
  public void compactionCheckpoint() {
    if (closed) {
      throw new CompactionInterruptedException("the database is closing");
    }
    if (!compactionsPaused) {
      return;
    }
    synchronized (pauseMonitor) {
      while (compactionsPaused && !closed) {
        try {
          pauseMonitor.wait(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new CompactionInterruptedException("interrupted");
        }
      }
    }
    if (closed) {
      throw new CompactionInterruptedException("the database is closing");
    }
  }

  /** Pauses background and running compactions at their next partition boundary. */
  public void pauseCompactions() {
    compactionsPaused = true;
  }

  /** Lets paused compactions go on (the caller schedules background ones again). */
  public void resumeCompactions() {
    synchronized (pauseMonitor) {
      compactionsPaused = false;
      pauseMonitor.notifyAll();
    }
  }

  public boolean compactionsPaused() {
    return compactionsPaused;
  }
}
