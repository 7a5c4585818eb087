package dev.talus.table;

import dev.talus.TableSchema;
import dev.talus.data.PartitionUpdate;
import dev.talus.io.CorruptFileException;
import dev.talus.memtable.Memtable;
import dev.talus.runtime.DbContext;
import dev.talus.schema.KeyCodec;
import dev.talus.sstable.Manifest;
import dev.talus.sstable.SSTableOptions;
import dev.talus.sstable.SSTableReader;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One table's state: its schema, key codec and directory, its live set (held by the {@link
 * ViewTracker}) and manifest, the write barrier, and the parts that work on them — the {@link
 * Flusher}, the {@link TableCompactions}, the {@link PartitionGuardrails}, the {@link Quarantine}
 * and the {@link TableMetrics}. The write path ({@code dev.talus.write}) and the read path ({@code
 * dev.talus.read}) work on a table through it. Thread-safe: any number of threads may write and
 * read at once; flushes of one table run one at a time, in order.
 */
public final class TableStore {
  private static final Logger LOG = LoggerFactory.getLogger(TableStore.class);

  private final DbContext ctx;
  private final int id;

  /** The schema and column ids; an ALTER TABLE replaces them together. */
  private volatile KeyCodec keys;

  private final Path directory;
  private final Manifest manifest;
  private final ViewTracker tracker;
  private final TableMetrics metrics = new TableMetrics();
  private final PartitionGuardrails guardrails;
  private final TableCompactions compactions;
  private final Quarantine quarantine;
  private final Flusher flusher;
  private final dev.talus.index.SSTableIndexes indexes;
  private final long replayFrom;

  /** Writers share it; switching the memtable takes it exclusively (the write barrier). */
  private final ReentrantReadWriteLock switchLock = new ReentrantReadWriteLock();

  /** Set once when the table is dropped or truncated: nothing is applied, flushed or compacted. */
  private volatile boolean retired;

  /** Writes logged but not yet applied, their writer having stopped waiting for the fsync. */
  private final PendingWrites pending = new PendingWrites();

  /** True while a background flush of this table is queued, so one is queued at most. */
  private final AtomicBoolean flushQueued = new AtomicBoolean();

  private TableStore(
      DbContext ctx,
      TableHost host,
      int id,
      KeyCodec keys,
      Path directory,
      Manifest manifest,
      List<SSTableReader> sstables,
      Quarantine quarantine) {
    this.ctx = ctx;
    this.quarantine = quarantine;
    this.id = id;
    TableSchema schema = keys.schema();
    this.keys = keys;
    this.directory = directory;
    this.manifest = manifest;
    long covered = Long.MIN_VALUE;
    for (SSTableReader r : sstables) {
      SSTableOptions.CommitLogInterval i = r.stats().commitLogInterval();
      if (i != null) {
        covered = Math.max(covered, i.upper());
      }
    }
    this.replayFrom = covered;
    Memtable first = new Memtable();
    first.setCommitLogLower(covered);
    this.tracker =
        new ViewTracker(
            manifest,
            new TableView(first, List.of(), sstables),
            e -> ctx.stop("the manifest of table " + schema.name() + " (" + directory + ")", e));
    this.guardrails = new PartitionGuardrails(this, ctx.options(), ctx.metrics());
    this.compactions = new TableCompactions(this, ctx, host);
    this.flusher = new Flusher(this, ctx, host);
    metrics.onSeeksExhausted(() -> host.readsWantCompaction(this));
    this.indexes =
        new dev.talus.index.SSTableIndexes(
            ctx.fs(), schema.name(), ctx.options().indexWriteBufferBytes());
  }

  /** The table's storage-attached indexes and their components. */
  public dev.talus.index.SSTableIndexes indexes() {
    return indexes;
  }

  /** Opens a table directory: its manifest, removing crash leftovers, and its live SSTables. */
  public static TableStore open(DbContext ctx, TableHost host, int id, TableSchema schema, Path dir)
      throws IOException {
    return open(ctx, host, id, new KeyCodec(schema), dir);
  }

  /** Like {@link #open(DbContext, TableHost, int, TableSchema, Path)}, with dropped columns. */
  public static TableStore open(DbContext ctx, TableHost host, int id, KeyCodec keys, Path dir)
      throws IOException {
    TableSchema schema = keys.schema();
    ctx.fs().createDirectories(dir);
    Manifest manifest = Manifest.open(ctx.fs(), dir);
    Quarantine quarantine = new Quarantine(ctx, dir, schema.name());
    List<SSTableReader> readers = new ArrayList<>();
    try {
      for (Path leftover : manifest.deleteUnlistedFiles()) {
        LOG.info("Removed leftover file {} of table {}", leftover.getFileName(), schema.name());
      }
      for (long gen : manifest.liveGenerations().descendingSet()) {
        try {
          readers.add(openReader(ctx, dir, gen));
        } catch (CorruptFileException e) {
          if (!quarantine.atOpen(manifest, gen, e)) {
            throw e;
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      readers.forEach(SSTableReader::release);
      manifest.close();
      throw e;
    }
    return new TableStore(ctx, host, id, keys, dir, manifest, readers, quarantine);
  }

  /** Opens one live SSTable; a missing component is damage like a failed checksum. */
  private static SSTableReader openReader(DbContext ctx, Path dir, long gen) throws IOException {
    try {
      return SSTableReader.open(ctx.fs(), dir, gen, ctx.chunkCache());
    } catch (NoSuchFileException e) {
      Path missing = e.getFile() == null ? dir : Path.of(e.getFile());
      throw new CorruptFileException(
          missing, 0, "a component of live SSTable " + gen + " is missing", e);
    }
  }

  public int id() {
    return id;
  }

  public TableSchema schema() {
    return keys.schema();
  }

  public Path directory() {
    return directory;
  }

  public KeyCodec keys() {
    return keys;
  }

  /** The live set: read it with {@link ViewTracker#current()}. */
  public ViewTracker tracker() {
    return tracker;
  }

  Manifest manifest() {
    return manifest;
  }

  public TableMetrics metrics() {
    return metrics;
  }

  public PartitionGuardrails guardrails() {
    return guardrails;
  }

  public TableCompactions compactions() {
    return compactions;
  }

  public Quarantine quarantine() {
    return quarantine;
  }

  /** Set while a background flush of this table is queued (the database queues one at most). */
  public AtomicBoolean flushQueued() {
    return flushQueued;
  }

  /** Switches the compaction strategy; the schema file was already rewritten by the database. */
  public void schemaChanged(TableSchema newSchema) {
    this.keys = new KeyCodec(newSchema, keys.dropped());
    compactions.strategyChanged(newSchema.compaction());
  }

  /**
   * An ALTER TABLE: the schema and column ids in {@code next} serve from now on (the schema file
   * was already rewritten by the database). Reads and writes that started before go on with the old
   * ones; a write to a column dropped meanwhile lands under its dropped id, where nothing sees it.
   */
  public void altered(KeyCodec next) {
    boolean strategy = !next.schema().compaction().equals(keys.schema().compaction());
    this.keys = next;
    if (strategy) {
      compactions.strategyChanged(next.schema().compaction());
    }
  }

  // ---------------- the write barrier

  /** Holds off memtable switches while a write logs and applies (several: in table-id order). */
  public void lockWrites() {
    switchLock.readLock().lock();
  }

  /** {@link #lockWrites}, waiting at most {@code nanos}; false if the time ran out first. */
  public boolean tryLockWrites(long nanos) {
    try {
      return switchLock.readLock().tryLock(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The writes logged but not yet applied because their writer stopped waiting for the fsync. */
  public PendingWrites pendingWrites() {
    return pending;
  }

  public void unlockWrites() {
    switchLock.readLock().unlock();
  }

  void lockMemtableSwitch() {
    switchLock.writeLock().lock();
  }

  void unlockMemtableSwitch() {
    switchLock.writeLock().unlock();
  }

  /**
   * Applies an update already in the commit log; the caller holds {@link #lockWrites}. Returns the
   * memtable bytes it added.
   */
  public long applyLogged(PartitionUpdate u) {
    if (retired) {
      return 0; // dropped or truncated meanwhile: its commit-log record is never replayed
    }
    long bytes = tracker.current().active().apply(u);
    metrics.written();
    return bytes;
  }

  /** Applies an update replayed from the commit log (not logged again); returns its bytes. */
  public long applyReplayed(PartitionUpdate u) {
    return tracker.current().active().apply(u);
  }

  /** Commit-log records at or after this (encoded) position are not in this table's SSTables. */
  public long replayFrom() {
    return replayFrom;
  }

  // ---------------- flush

  /** Bytes in this table's memtable that takes writes. */
  public long activeMemtableBytes() {
    return tracker.current().active().liveBytes();
  }

  /**
   * Flushes the memtable taking writes now (and any earlier one still pending) into an SSTable.
   * Returns when the SSTable is live.
   */
  public void flush() {
    flusher.flush();
  }

  /** When (database clock) the flush writing an SSTable now began, or empty if none is. */
  java.util.Optional<java.time.Instant> flushRunningSince() {
    return flusher.runningSince();
  }

  /** How this table's SSTables are written (flush and compaction outputs at {@code level}). */
  SSTableOptions sstableOptions(int level) {
    SSTableOptions.Compression c =
        switch (schema().compression()) {
          case LZ4 -> SSTableOptions.Compression.LZ4;
          case ZSTD -> SSTableOptions.Compression.ZSTD;
          case NONE -> SSTableOptions.Compression.NONE;
        };
    return SSTableOptions.builder()
        .compression(c)
        .chunkSize(schema().chunkLengthKb() * 1024)
        .bloomFpChance(schema().bloomFilterFpChance())
        .rowFilter(!schema().clustering().isEmpty())
        .level(level)
        .createdAt(ctx.nowSeconds())
        .partitionObserver(guardrails)
        .build();
  }

  // ---------------- verify

  /**
   * Reads every SSTable component and chunk of this table and checks every checksum; returns the
   * number of SSTables checked. Under the QUARANTINE policy a damaged SSTable leaves the live set
   * and is not counted.
   *
   * @throws CorruptFileException naming the first damaged file and offset, with every other damaged
   *     SSTable's as a suppressed exception (all are checked)
   * @throws IOException if a file cannot be read
   */
  public int verify() throws IOException {
    ctx.checkOpen();
    List<SSTableReader> refs = new ArrayList<>();
    for (SSTableReader r : tracker.current().sstables()) {
      if (r.tryRef()) {
        refs.add(r);
      }
    }
    try {
      int checked = 0;
      CorruptFileException first = null;
      for (SSTableReader r : refs) {
        try {
          r.verify();
          checked++;
        } catch (CorruptFileException e) {
          if (!quarantine.handle(this, e)) {
            // go on: every damaged SSTable is reported, the later ones as suppressed exceptions
            if (first == null) {
              first = e;
            } else {
              first.addSuppressed(e);
            }
          }
        }
      }
      if (first != null) {
        throw first;
      }
      return checked;
    } finally {
      refs.forEach(SSTableReader::release);
    }
  }

  public boolean retired() {
    return retired;
  }

  /**
   * Takes this table out of service for good (a drop, or the old half of a truncate): no write is
   * applied and no flush or compaction starts any more; running compactions stop at their next
   * partition boundary and a running flush is waited for; then one manifest edit empties the live
   * set, the SSTables are deleted once the last reader lets go, the memtables are discarded, and
   * the manifest and the directory are deleted (the directory only if no reader still holds a file
   * in it; the next open removes it otherwise). Returns the memtable bytes discarded.
   */
  public long retire() throws IOException {
    retired = true;
    indexes.close();
    compactions.awaitStopped();
    TableView[] old = {null};
    IOException[] failure = {null};
    flusher.excluding(
        () -> {
          lockMemtableSwitch();
          try {
            old[0] = tracker.retire();
          } catch (IOException e) {
            failure[0] = e;
          } finally {
            unlockMemtableSwitch();
          }
        });
    if (failure[0] != null) {
      throw failure[0];
    }
    close();
    java.util.Set<Long> inUse = new java.util.HashSet<>();
    for (SSTableReader r : old[0].sstables()) {
      if (r.refCount() > 0) {
        inUse.add(r.generation());
      }
    }
    TableDirectories.delete(ctx.fs(), directory, inUse);
    return old[0].memtableBytes();
  }

  /** Releases the SSTables and the manifest. Memtables must have been flushed or logged. */
  public void close() {
    indexes.close();
    tracker.releaseAll();
    try {
      manifest.close();
    } catch (IOException e) {
      LOG.warn("Closing the manifest of {} failed", schema().name(), e);
    }
  }
}
