package dev.talus.engine;

import dev.talus.CorruptCommitLogException;
import dev.talus.CorruptSSTableException;
import dev.talus.DirectoryLockedException;
import dev.talus.InvalidQueryException;
import dev.talus.InvalidSchemaException;
import dev.talus.StorageException;
import dev.talus.TableSchema;
import dev.talus.TalusClosedException;
import dev.talus.TalusOptions;
import dev.talus.WriteRejectedException;
import dev.talus.commitlog.CommitLog;
import dev.talus.commitlog.CommitLogConfig;
import dev.talus.commitlog.CommitLogFailedException;
import dev.talus.commitlog.CommitLogPosition;
import dev.talus.commitlog.CommitLogStats;
import dev.talus.data.PartitionUpdate;
import dev.talus.io.CorruptFileException;
import dev.talus.io.FileLockHandle;
import dev.talus.io.LockHeldException;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import dev.talus.sstable.ChunkCache;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One open data directory: its lock, schema, tables, clock and background threads. Many engines may
 * live in one JVM on different directories; nothing is static. Thread-safe.
 */
public final class Engine implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);
  static final String LOCK_FILE = "LOCK";

  private final TalusOptions options;
  private final StorageFs fs;
  private final Path dir;
  private final FileLockHandle lock;
  private final InstantSource clock;
  private final Map<String, TableStore> tables = new ConcurrentHashMap<>();
  private final Map<Integer, TableSchema> schemas = new TreeMap<>();
  private final AtomicLong lastTimestamp = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong memtableBytes = new AtomicLong();
  private final ExecutorService readExecutor;
  private final ExecutorService flushExecutor;
  private final ChunkCache chunkCache;
  private final ExecutorService compactionExecutor;
  private final dev.talus.compaction.Throttle compactionThrottle;
  private final Object pauseMonitor = new Object();
  private volatile boolean compactionsPaused;
  private final ReentrantLock memoryLock = new ReentrantLock();
  private final Condition memoryFreed = memoryLock.newCondition();
  private volatile boolean closed;
  private CommitLog commitLog;
  private final Map<Integer, TableStore> byId = new ConcurrentHashMap<>();
  private long replayedRecords;
  private final MetricsEvents metrics;

  private Engine(TalusOptions options, StorageFs fs, FileLockHandle lock) {
    this.options = options;
    this.fs = fs;
    this.dir = options.dataDirectory();
    this.lock = lock;
    this.clock = options.clock();
    this.metrics = new MetricsEvents(options.metricsListener());
    String name = dir.getFileName() == null ? "db" : dir.getFileName().toString();
    this.readExecutor =
        Executors.newFixedThreadPool(options.readThreads(), threads("talus-" + name + "-read-"));
    this.flushExecutor = Executors.newSingleThreadExecutor(threads("talus-" + name + "-flush-"));
    this.chunkCache = ChunkCache.create(options.chunkCacheBytes());
    this.compactionExecutor =
        Executors.newFixedThreadPool(
            options.compactionThreads(), threads("talus-" + name + "-compaction-"));
    this.compactionThrottle =
        dev.talus.compaction.Throttle.ofMibPerSecond(options.compactionThroughputMibPerSec());
  }

  /** Daemon threads named after their database and job, numbered from 1. */
  private static java.util.concurrent.ThreadFactory threads(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /** Opens (creating if needed) the directory in {@code options}. */
  public static Engine open(TalusOptions options) {
    return open(options, new NioStorageFs());
  }

  /** Opens with a given file layer (tests inject faults through it). */
  public static Engine open(TalusOptions options, StorageFs fs) {
    Path dir = options.dataDirectory();
    FileLockHandle lock;
    try {
      fs.createDirectories(dir);
      lock = fs.lock(dir.resolve(LOCK_FILE));
    } catch (LockHeldException e) {
      throw new DirectoryLockedException(
          "data directory "
              + dir
              + " is already open (in this JVM or another process); close that instance first",
          e);
    } catch (IOException e) {
      throw new StorageException("cannot open data directory " + dir + ": " + e.getMessage(), e);
    }
    Engine engine = new Engine(options, fs, lock);
    try {
      engine.loadTables();
      engine.openCommitLog();
      return engine;
    } catch (CorruptFileException e) {
      // damage found while loading the SSTables or a manifest: public exception, file and offset
      engine.close();
      String message = "cannot load " + dir + ": " + e.getMessage();
      if (e.file() != null && e.file().getFileName().toString().startsWith("nb-")) {
        throw new CorruptSSTableException(message, e.file(), e.offset(), e);
      }
      throw new dev.talus.CorruptDataException(message, e.file(), e.offset(), e);
    } catch (RuntimeException | IOException e) {
      engine.close();
      if (e instanceof RuntimeException re) {
        throw re;
      }
      throw new StorageException("cannot load " + dir + ": " + e.getMessage(), e);
    }
  }

  private void loadTables() throws IOException {
    Map<Integer, TableSchema> loaded = SchemaStore.load(fs, dir);
    for (Map.Entry<Integer, TableSchema> e : loaded.entrySet()) {
      schemas.put(e.getKey(), e.getValue());
      TableSchema s = e.getValue();
      Path tdir = tableDir(e.getKey(), s);
      TableStore t = TableStore.open(this, e.getKey(), s, tdir);
      tables.put(s.name(), t);
      byId.put(e.getKey(), t);
    }
  }

  /** Commit-log positions as one long: segment id in the high half, offset in the low half. */
  static long encode(CommitLogPosition p) {
    return (p.segmentId() << 32) | p.offset();
  }

  static CommitLogPosition decode(long p) {
    return new CommitLogPosition(p >>> 32, p & 0xFFFF_FFFFL);
  }

  /**
   * Replays every commit-log record not yet covered by a table's SSTables, flushes what it
   * replayed, and lets the log drop the segments nobody needs any more.
   */
  private void openCommitLog() {
    CommitLogConfig config =
        CommitLogConfig.builder()
            .segmentSize(options.commitLogSegmentBytes())
            .syncMode(
                switch (options.commitLogSync()) {
                  case PERIODIC -> CommitLogConfig.SyncMode.PERIODIC;
                  case GROUP -> CommitLogConfig.SyncMode.GROUP;
                  case BATCH -> CommitLogConfig.SyncMode.BATCH;
                })
            .periodicInterval(options.commitLogSyncPeriod())
            .groupWindow(options.commitLogGroupWindow())
            .skipCorruptRecords(options.skipCorruptCommitLogRecords())
            .build();
    java.util.Set<Integer> seen = new java.util.HashSet<>();
    java.util.Set<TableStore> replayedInto = new java.util.LinkedHashSet<>();
    Path logDir = dir.resolve("commitlog");
    try {
      fs.createDirectories(logDir);
      commitLog =
          CommitLog.open(
              fs,
              logDir,
              config,
              (position, payload) -> {
                Mutation m;
                try {
                  m = Mutation.deserialize(payload);
                } catch (IOException e) {
                  throw new CorruptCommitLogException(
                      "commit-log record at "
                          + position
                          + " passed its checksum but cannot be decoded: "
                          + e.getMessage(),
                      logDir,
                      position.offset(),
                      e);
                }
                long at = encode(position);
                for (Mutation.Entry entry : m.entries()) {
                  seen.add(entry.tableId());
                  TableStore t = byId.get(entry.tableId());
                  if (t != null && at >= t.replayFrom()) {
                    t.applyReplayed(entry.update());
                    replayedInto.add(t);
                  }
                }
                replayedRecords++;
              });
    } catch (CorruptFileException e) {
      throw new CorruptCommitLogException(
          "the commit log is damaged before its tail: "
              + e.getMessage()
              + ". Open with skipCorruptCommitLogRecords(true) to skip damaged records (their"
              + " writes are lost)",
          e.file(),
          e.offset(),
          e);
    } catch (UncheckedIOException e) {
      throw new StorageException("cannot open the commit log in " + logDir, e);
    } catch (IOException e) {
      throw new StorageException("cannot open the commit log in " + logDir, e);
    }
    if (!replayedInto.isEmpty()) {
      LOG.info(
          "Replayed {} commit-log records into {} table(s) of {}",
          replayedRecords,
          replayedInto.size(),
          dir);
    }
    for (TableStore t : replayedInto) {
      t.flush();
    }
    CommitLogPosition now = commitLog.currentPosition();
    for (int id : seen) {
      TableStore t = byId.get(id);
      if (t == null || !replayedInto.contains(t)) {
        commitLog.markFlushed(id, now);
      }
    }
  }

  /** Records replayed from the commit log when this engine opened. */
  public long replayedRecords() {
    return replayedRecords;
  }

  /** The commit log's position now, encoded (see {@link #encode}). */
  long commitLogPosition() {
    return encode(commitLog.currentPosition());
  }

  void markFlushed(int tableId, long upTo) {
    commitLog.markFlushed(tableId, decode(upTo));
  }

  private Path tableDir(int id, TableSchema s) {
    return dir.resolve("tables").resolve(s.name() + "-" + id);
  }

  /** Where metric events go (never throws). */
  MetricsEvents metrics() {
    return metrics;
  }

  public TalusOptions options() {
    return options;
  }

  public StorageFs fs() {
    return fs;
  }

  public InstantSource clock() {
    return clock;
  }

  /** Creates a table; with {@code ifNotExists}, returns the existing one if its schema is equal. */
  public synchronized TableStore createTable(TableSchema schema, boolean ifNotExists) {
    checkOpen();
    TableStore existing = tables.get(schema.name());
    if (existing != null) {
      if (ifNotExists && existing.schema().equals(schema)) {
        return existing;
      }
      throw new InvalidSchemaException(
          "table "
              + schema.name()
              + " already exists"
              + (existing.schema().equals(schema)
                  ? ""
                  : " with a different schema: " + existing.schema()));
    }
    int id = schemas.isEmpty() ? 1 : ((TreeMap<Integer, TableSchema>) schemas).lastKey() + 1;
    Path tdir = tableDir(id, schema);
    try {
      fs.createDirectories(tdir);
      Map<Integer, TableSchema> next = new TreeMap<>(schemas);
      next.put(id, schema);
      SchemaStore.save(fs, dir, next);
    } catch (IOException e) {
      throw new StorageException("cannot create table " + schema.name() + ": " + e.getMessage(), e);
    }
    schemas.put(id, schema);
    TableStore store;
    try {
      store = TableStore.open(this, id, schema, tdir);
    } catch (IOException e) {
      throw new StorageException("cannot open table " + schema.name() + ": " + e.getMessage(), e);
    }
    tables.put(schema.name(), store);
    byId.put(id, store);
    return store;
  }

  public TableStore table(String name) {
    checkOpen();
    TableStore t = tables.get(name);
    if (t == null) {
      throw new InvalidQueryException(
          "no table named " + name + " in " + dir + "; tables are " + tables.keySet());
    }
    return t;
  }

  public TableStore findTable(String name) {
    checkOpen();
    return tables.get(name);
  }

  public Collection<TableStore> tables() {
    checkOpen();
    List<TableStore> l = new ArrayList<>(tables.values());
    l.sort((a, b) -> a.schema().name().compareTo(b.schema().name()));
    return l;
  }

  /** Microseconds from the clock, strictly increasing within this engine. */
  public long nextTimestamp() {
    Instant now = clock.instant();
    long micros =
        Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1000);
    return lastTimestamp.updateAndGet(last -> Math.max(micros, last + 1));
  }

  public long nowSeconds() {
    return clock.instant().getEpochSecond();
  }

  /** Every validated write is appended to the commit log before it reaches a memtable. */
  void logWrite(Mutation mutation) {
    byte[] payload = mutation.serialize();
    try {
      commitLog.append(payload, mutation.tableIds());
    } catch (IllegalArgumentException e) {
      throw new WriteRejectedException(
          "a write of "
              + payload.length
              + " bytes is larger than the commit log accepts ("
              + commitLog.config().maxMutationSize()
              + " bytes, half a segment); nothing was written. Split it or raise"
              + " commitLogSegmentBytes");
    } catch (CommitLogFailedException e) {
      throw new StorageException(
          "the commit log failed and refuses writes until the database is reopened: "
              + e.getMessage(),
          e);
    } catch (IllegalStateException e) {
      checkOpen();
      throw e;
    }
  }

  public CommitLogStats commitLogStats() {
    return commitLog.stats();
  }

  /** Writes several updates, possibly to several tables, as one commit-log record. */
  void writeBatch(List<TableStore> targets, List<PartitionUpdate> updates) {
    checkOpen();
    long bytes = 0;
    List<Mutation.Entry> entries = new ArrayList<>();
    for (int i = 0; i < targets.size(); i++) {
      entries.add(new Mutation.Entry(targets.get(i).id(), updates.get(i)));
      bytes += updates.get(i).heapSize();
    }
    awaitMemtableSpace(bytes);
    List<TableStore> order =
        new ArrayList<>(
            new java.util.TreeSet<>(targets.stream().map(TableStore::id).toList())
                .stream().map(byId::get).toList());
    for (TableStore t : order) {
      t.lockWrites();
    }
    try {
      logWrite(new Mutation(entries));
      for (int i = 0; i < targets.size(); i++) {
        targets.get(i).applyLogged(updates.get(i));
      }
    } finally {
      for (int i = order.size() - 1; i >= 0; i--) {
        order.get(i).unlockWrites();
      }
    }
    for (TableStore t : order) {
      afterWrite(t);
    }
  }

  void memoryUsed(long bytes) {
    memtableBytes.addAndGet(bytes);
  }

  void memoryFreed(long bytes) {
    memtableBytes.addAndGet(-bytes);
    memoryLock.lock();
    try {
      memoryFreed.signalAll();
    } finally {
      memoryLock.unlock();
    }
  }

  ChunkCache chunkCache() {
    return chunkCache;
  }

  dev.talus.compaction.Throttle compactionThrottle() {
    return compactionThrottle;
  }

  /**
   * Between partitions of every compaction: blocks while compactions are paused and cancels the
   * compaction when the engine closes. Compactions are never interrupted: an interrupt would close
   * file channels that readers share.
   */
  void compactionCheckpoint() {
    if (closed) {
      throw new dev.talus.compaction.CompactionInterruptedException("the database is closing");
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
          throw new dev.talus.compaction.CompactionInterruptedException("interrupted");
        }
      }
    }
    if (closed) {
      throw new dev.talus.compaction.CompactionInterruptedException("the database is closing");
    }
  }

  /** Pauses background and running compactions at their next partition boundary. */
  public void pauseCompactions() {
    compactionsPaused = true;
  }

  public void resumeCompactions() {
    synchronized (pauseMonitor) {
      compactionsPaused = false;
      pauseMonitor.notifyAll();
    }
    for (TableStore t : tables.values()) {
      scheduleCompaction(t);
    }
  }

  public boolean compactionsPaused() {
    return compactionsPaused;
  }

  void flushFinished(TableStore t) {
    scheduleCompaction(t);
  }

  void compactionFinished(TableStore t) {
    scheduleCompaction(t);
  }

  private final java.util.Set<TableStore> compactionQueued = ConcurrentHashMap.newKeySet();

  /** Queues one background compaction round for {@code t} (at most one queued per table). */
  void scheduleCompaction(TableStore t) {
    if (closed || !options.backgroundCompaction() || compactionsPaused) {
      return;
    }
    if (!compactionQueued.add(t)) {
      return;
    }
    try {
      compactionExecutor.execute(
          () -> {
            compactionQueued.remove(t);
            try {
              t.compactions().runNextBackground();
            } catch (RuntimeException e) {
              if (!closed) {
                LOG.error("Background compaction of table {} failed", t.schema().name(), e);
              }
            }
          });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      compactionQueued.remove(t);
    }
  }

  /** Changes a table's compaction strategy; the new one takes over the existing SSTables. */
  public synchronized void setCompaction(TableStore t, dev.talus.CompactionOptions options) {
    checkOpen();
    TableSchema next = t.schema().withCompaction(options);
    Map<Integer, TableSchema> all = new TreeMap<>(schemas);
    all.put(t.id(), next);
    try {
      SchemaStore.save(fs, dir, all);
    } catch (IOException e) {
      throw new StorageException("cannot save the schema of " + t.schema().name(), e);
    }
    schemas.put(t.id(), next);
    t.schemaChanged(next);
    scheduleCompaction(t);
  }

  /**
   * Blocks a writer while memtables (taking writes and being flushed) fill the engine's memtable
   * space, so memory never grows without bound; gives up with {@link WriteRejectedException} after
   * the configured stall timeout.
   */
  void awaitMemtableSpace(long bytes) {
    long limit = options.memtableSpaceBytes();
    if (bytes > limit / 2) {
      throw new WriteRejectedException(
          "a write of ~"
              + bytes
              + " bytes is larger than half the memtable space ("
              + limit
              + " bytes); split it or raise memtableSpaceBytes");
    }
    if (memtableBytes.get() + bytes <= limit) {
      return;
    }
    long left = options.writeStallTimeout().toNanos();
    memoryLock.lock();
    try {
      while (memtableBytes.get() + bytes > limit) {
        checkOpen();
        scheduleFlushOfLargest();
        if (left <= 0) {
          throw new WriteRejectedException(
              "memtable space ("
                  + limit
                  + " bytes) stayed full for "
                  + options.writeStallTimeout()
                  + ": flushes are not keeping up. Nothing was written; retry later");
        }
        // awaitNanos returns what is left of the wait, so no wall-clock reads are needed
        long slice = Math.min(left, 100_000_000L);
        left -= slice - Math.max(0, memoryFreed.awaitNanos(slice));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new WriteRejectedException("interrupted while waiting for memtable space");
    } finally {
      memoryLock.unlock();
    }
  }

  private final AtomicLong writesSinceLogCheck = new AtomicLong();

  /**
   * After each write: past half the memtable space, flush the largest memtable; and now and then,
   * if the commit log outgrew its space, flush the tables that keep its oldest segment alive.
   */
  void afterWrite(TableStore table) {
    if (memtableBytes.get() > options.memtableSpaceBytes() / 2) {
      scheduleFlushOfLargest();
    }
    if ((writesSinceLogCheck.incrementAndGet() & 1023) == 0) {
      checkCommitLogSpace();
    }
  }

  void checkCommitLogSpace() {
    if (commitLog.totalBytes() <= options.commitLogTotalSpaceBytes()) {
      return;
    }
    for (int id : commitLog.tablesHoldingOldestSegment()) {
      TableStore t = byId.get(id);
      if (t != null) {
        scheduleFlush(t);
      } else {
        commitLog.markFlushed(id, commitLog.currentPosition()); // a table that no longer exists
      }
    }
  }

  private void scheduleFlushOfLargest() {
    TableStore largest = null;
    long max = 0;
    for (TableStore t : tables.values()) {
      long b = t.activeMemtableBytes();
      if (b > max) {
        max = b;
        largest = t;
      }
    }
    if (largest != null) {
      scheduleFlush(largest);
    }
  }

  void scheduleFlush(TableStore t) {
    if (closed || !t.flushQueued.compareAndSet(false, true)) {
      return;
    }
    try {
      flushExecutor.execute(
          () -> {
            t.flushQueued.set(false);
            try {
              t.flush();
            } catch (RuntimeException e) {
              LOG.error("Background flush of table {} failed", t.schema().name(), e);
            }
          });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      t.flushQueued.set(false);
    }
  }

  public long memtableBytes() {
    return memtableBytes.get();
  }

  ExecutorService readExecutor() {
    return readExecutor;
  }

  public boolean isClosed() {
    return closed;
  }

  public void checkOpen() {
    if (closed) {
      throw new TalusClosedException(
          "the database at " + dir + " is closed; open it again with TalusDb.open");
    }
  }

  /**
   * Stops as a killed process would: background work is cancelled, nothing is flushed or synced,
   * the commit log is abandoned and the directory unlocked. For crash tests (with a fault injector
   * underneath); the data directory is left exactly as a crash would leave it.
   */
  public synchronized void crash() {
    if (closed) {
      return;
    }
    closed = true;
    synchronized (pauseMonitor) {
      pauseMonitor.notifyAll();
    }
    compactionExecutor.shutdown();
    flushExecutor.shutdown();
    try {
      compactionExecutor.awaitTermination(60, TimeUnit.SECONDS);
      flushExecutor.awaitTermination(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (commitLog != null) {
      commitLog.abandon();
    }
    for (TableStore t : tables.values()) {
      t.close();
    }
    readExecutor.shutdown();
    try {
      lock.close();
    } catch (IOException e) {
      LOG.warn("Releasing the lock of {} after a simulated crash failed", dir, e);
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    // Nothing is flushed: the commit log holds every acknowledged write and the next open
    // replays it. In-flight writes finish before the log closes (it waits for them).
    RuntimeException failure = null;
    closed = true;
    synchronized (pauseMonitor) {
      pauseMonitor.notifyAll();
    }
    compactionExecutor.shutdown();
    flushExecutor.shutdown();
    try {
      // never shutdownNow(): interrupting a compaction would close channels readers share
      compactionExecutor.awaitTermination(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      flushExecutor.awaitTermination(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (commitLog != null) {
      try {
        commitLog.close();
      } catch (RuntimeException e) {
        failure = e;
        LOG.error("Closing the commit log of {} failed", dir, e);
      }
    }
    for (TableStore t : tables.values()) {
      t.close();
    }
    readExecutor.shutdown();
    try {
      readExecutor.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      lock.close();
    } catch (IOException e) {
      throw new StorageException("cannot release the lock of " + dir, e);
    }
    if (failure != null) {
      throw failure;
    }
  }
}
