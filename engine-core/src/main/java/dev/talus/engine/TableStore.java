package dev.talus.engine;

import dev.talus.CorruptSSTableException;
import dev.talus.InvalidQueryException;
import dev.talus.StorageException;
import dev.talus.TableSchema;
import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionMerger;
import dev.talus.data.PartitionUpdate;
import dev.talus.data.Slice;
import dev.talus.io.CorruptFileException;
import dev.talus.memtable.MemPartition;
import dev.talus.memtable.Memtable;
import dev.talus.sstable.Manifest;
import dev.talus.sstable.SSTableOptions;
import dev.talus.sstable.SSTableReader;
import dev.talus.sstable.SSTableWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One table: its schema, its {@link TableView} (memtables and SSTables), its manifest, and the
 * write, flush and read paths over them. Thread-safe: any number of threads may write and read at
 * once; flushes of one table run one at a time, in order.
 */
public final class TableStore {
  private static final Logger LOG = LoggerFactory.getLogger(TableStore.class);

  private final Engine engine;
  private final int id;
  private volatile TableSchema schema;
  private final KeyCodec keys;
  private final Path directory;
  private final Manifest manifest;
  private final AtomicReference<TableView> view;
  private final ReadExecutor reads;
  private final TableCompactions compactions;
  private final PartitionGuardrails guardrails;
  private final Quarantine quarantine;

  /** Writers share it; switching the memtable takes it exclusively (the write barrier). */
  private final ReentrantReadWriteLock switchLock = new ReentrantReadWriteLock();

  /** Flushes of this table run one at a time so they complete in order. */
  private final ReentrantLock flushLock = new ReentrantLock();

  private final AtomicLong writes = new AtomicLong();
  private final AtomicLong readCount = new AtomicLong();
  private final AtomicLong sstablesRead = new AtomicLong();
  private final AtomicLong flushes = new AtomicLong();
  private final AtomicLong bytesFlushed = new AtomicLong();
  private final AtomicInteger lastReadTombstones = new AtomicInteger();
  private final AtomicLong bloomLookups = new AtomicLong();
  private final AtomicLong bloomFalsePositives = new AtomicLong();
  private final AtomicLong tombstoneWarnings = new AtomicLong();
  private final dev.talus.metrics.Histogram writeLatency = new dev.talus.metrics.Histogram();
  private final dev.talus.metrics.Histogram readLatency = new dev.talus.metrics.Histogram();
  private final dev.talus.metrics.Histogram sourcesPerRead = new dev.talus.metrics.Histogram();
  private final dev.talus.metrics.Histogram tombstonesPerRead = new dev.talus.metrics.Histogram();
  private final TableInspector inspector = new TableInspector(this);
  private final long replayFrom;

  /** True while a background flush of this table is queued, so one is queued at most. */
  final java.util.concurrent.atomic.AtomicBoolean flushQueued =
      new java.util.concurrent.atomic.AtomicBoolean();

  private TableStore(
      Engine engine,
      int id,
      TableSchema schema,
      Path directory,
      Manifest manifest,
      List<SSTableReader> sstables,
      Quarantine quarantine) {
    this.engine = engine;
    this.quarantine = quarantine;
    this.id = id;
    this.schema = schema;
    this.keys = new KeyCodec(schema);
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
    this.view = new AtomicReference<>(new TableView(first, List.of(), sstables));
    this.guardrails = new PartitionGuardrails(this, engine.options(), engine.metrics());
    this.reads = new ReadExecutor(this, engine);
    this.compactions = new TableCompactions(this, engine);
  }

  /** Opens a table directory: its manifest, removing crash leftovers, and its live SSTables. */
  static TableStore open(Engine engine, int id, TableSchema schema, Path dir) throws IOException {
    engine.fs().createDirectories(dir);
    Manifest manifest = Manifest.open(engine.fs(), dir);
    Quarantine quarantine = new Quarantine(engine, dir, schema.name());
    List<SSTableReader> readers = new ArrayList<>();
    try {
      for (Path leftover : manifest.deleteUnlistedFiles()) {
        LOG.info("Removed leftover file {} of table {}", leftover.getFileName(), schema.name());
      }
      for (long gen : manifest.liveGenerations().descendingSet()) {
        try {
          readers.add(SSTableReader.open(engine.fs(), dir, gen, engine.chunkCache()));
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
    return new TableStore(engine, id, schema, dir, manifest, readers, quarantine);
  }

  public int id() {
    return id;
  }

  public TableSchema schema() {
    return schema;
  }

  public Path directory() {
    return directory;
  }

  public KeyCodec keys() {
    return keys;
  }

  public java.time.InstantSource clock() {
    return engine.clock();
  }

  TableView view() {
    return view.get();
  }

  void updateView(java.util.function.UnaryOperator<TableView> change) {
    view.updateAndGet(change);
  }

  /** SSTables quarantined under {@link dev.talus.DiskFailurePolicy#QUARANTINE}. */
  public long quarantinedSSTables() {
    return quarantine.count();
  }

  Manifest manifest() {
    return manifest;
  }

  PartitionGuardrails guardrails() {
    return guardrails;
  }

  TableCompactions compactions() {
    return compactions;
  }

  /** Switches the compaction strategy; the schema file was already rewritten by the engine. */
  void schemaChanged(TableSchema newSchema) {
    this.schema = newSchema;
    compactions.strategyChanged(newSchema.compaction());
  }

  /**
   * Makes a compaction's result live: one manifest edit (the atomic point), then the view, then the
   * replaced files are marked obsolete (deleted once the last reader lets go).
   */
  void swapCompacted(dev.talus.compaction.CompactionTask.Result result) throws IOException {
    List<SSTableReader> removed = new ArrayList<>();
    for (var i : result.plan().inputs()) {
      removed.add(i.reader());
    }
    for (var i : result.plan().expired()) {
      removed.add(i.reader());
    }
    swap(removed, result.outputs());
  }

  void swap(List<SSTableReader> removed, List<SSTableReader> added) throws IOException {
    List<Long> addedGens = added.stream().map(SSTableReader::generation).toList();
    List<Long> removedGens = removed.stream().map(SSTableReader::generation).toList();
    try {
      manifest.apply(addedGens, removedGens);
    } catch (IOException | RuntimeException e) {
      // Not marked obsolete: a manifest record whose sync failed may still reach the disk and
      // name these files; reopening deletes them if it does not.
      added.forEach(SSTableReader::release);
      throw e;
    }
    view.updateAndGet(v -> v.replace(removed, added));
    for (SSTableReader r : removed) {
      r.markObsolete();
      r.release();
    }
  }

  // ---------------- writes ----------------

  /** Validates and applies one write. */
  public void write(WriteRequest req) {
    engine.checkOpen();
    long start = dev.talus.metrics.Histogram.startTimer();
    long ts = req.timestamp() != null ? checkTimestamp(req.timestamp()) : engine.nextTimestamp();
    PartitionUpdate u = WritePlanner.plan(keys, req, ts, engine.nowSeconds());
    guardrails.checkWrite(u);
    apply(u);
    engine.metrics().write(schema.name(), writeLatency.recordSinceMicros(start));
  }

  static long checkTimestamp(long ts) {
    if (ts == Long.MIN_VALUE || ts == Long.MAX_VALUE) {
      throw new InvalidQueryException(
          "timestamp " + ts + " is reserved; use microseconds since the epoch");
    }
    return ts;
  }

  /** Applies a validated update: wait for memtable space, log it, then apply it. */
  void apply(PartitionUpdate u) {
    long size = u.heapSize();
    engine.awaitMemtableSpace(size);
    switchLock.readLock().lock();
    try {
      engine.logWrite(new Mutation(List.of(new Mutation.Entry(id, u))));
      applyLogged(u);
    } finally {
      switchLock.readLock().unlock();
    }
    engine.afterWrite(this);
  }

  /** Holds off memtable switches while a batch logs and applies (lock in table-id order). */
  void lockWrites() {
    switchLock.readLock().lock();
  }

  void unlockWrites() {
    switchLock.readLock().unlock();
  }

  /** Applies an update already in the commit log; the caller holds {@link #lockWrites}. */
  void applyLogged(PartitionUpdate u) {
    engine.memoryUsed(view.get().active().apply(u));
    writes.incrementAndGet();
  }

  /** Applies an update replayed from the commit log (not logged again). */
  void applyReplayed(PartitionUpdate u) {
    engine.memoryUsed(view.get().active().apply(u));
  }

  /** Commit-log records at or after this (encoded) position are not in this table's SSTables. */
  long replayFrom() {
    return replayFrom;
  }

  // ---------------- flush ----------------

  /** Bytes in this table's memtable that takes writes. */
  long activeMemtableBytes() {
    return view.get().active().liveBytes();
  }

  /**
   * Flushes the memtable taking writes now (and any earlier one still pending) into an SSTable.
   * Writes go on into a fresh memtable meanwhile; reads see both. Returns when the SSTable is live.
   */
  public void flush() {
    engine.checkOpen();
    Memtable sealed;
    switchLock.writeLock().lock();
    try {
      TableView v = view.get();
      if (v.active().isEmpty() && v.flushing().isEmpty()) {
        return;
      }
      sealed = v.active();
      if (!sealed.isEmpty()) {
        // No write of this table is in flight (we hold the barrier), and the log hands out
        // positions in order, so every later write of this table lands after this position.
        long position = engine.commitLogPosition();
        sealed.setCommitLogUpper(position);
        Memtable fresh = new Memtable();
        fresh.setCommitLogLower(position);
        view.set(v.switchMemtable(fresh));
      }
    } finally {
      switchLock.writeLock().unlock();
    }
    flushPending();
  }

  /** Writes every sealed memtable, oldest first. */
  private void flushPending() {
    flushLock.lock();
    try {
      while (true) {
        List<Memtable> pending = view.get().flushing();
        if (pending.isEmpty()) {
          return;
        }
        flushOne(pending.get(0));
      }
    } finally {
      flushLock.unlock();
    }
  }

  private void flushOne(Memtable m) {
    SSTableReader reader = null;
    if (!m.isEmpty()) {
      try {
        long gen = manifest.newGeneration();
        try (SSTableWriter w =
            SSTableWriter.create(
                engine.fs(),
                directory,
                gen,
                Math.max(1, m.partitionCount()),
                sstableOptions(0).toBuilder()
                    .commitLogInterval(Math.max(0, m.commitLogLower()), m.commitLogUpper())
                    .build())) {
          for (MemPartition p : m.partitions()) {
            PartitionMerger.Merged merged =
                PartitionMerger.merge(p.key(), List.of(p), Slice.ALL, false);
            w.append(
                p.key(),
                merged.partitionDeletion(),
                merged.rangeDeletions().intervals(),
                merged.rows());
          }
          w.prepareToCommit();
          w.commit();
        }
        reader = SSTableReader.open(engine.fs(), directory, gen, engine.chunkCache());
        manifest.apply(List.of(gen), List.of());
        engine.metrics().flush(schema.name(), reader.onDiskSize());
      } catch (IOException e) {
        if (reader != null) {
          reader.release();
        }
        throw new StorageException(
            "flush of table " + schema.name() + " failed: " + e.getMessage(), e);
      }
    }
    SSTableReader result = reader;
    view.updateAndGet(v -> v.flushed(m, result));
    engine.memoryFreed(m.liveBytes());
    flushes.incrementAndGet();
    engine.markFlushed(id, m.commitLogUpper());
    if (result != null) {
      bytesFlushed.addAndGet(result.onDiskSize());
      compactions.checkOutOfOrder(result);
      engine.flushFinished(this);
    }
  }

  SSTableOptions sstableOptions(int level) {
    SSTableOptions.Compression c =
        switch (schema.compression()) {
          case LZ4 -> SSTableOptions.Compression.LZ4;
          case ZSTD -> SSTableOptions.Compression.ZSTD;
          case NONE -> SSTableOptions.Compression.NONE;
        };
    return SSTableOptions.builder()
        .compression(c)
        .bloomFpChance(schema.bloomFilterFpChance())
        .level(level)
        .createdAt(engine.nowSeconds())
        .partitionObserver(guardrails)
        .build();
  }

  // ---------------- reads ----------------

  public ReadResult read(ReadRequest req) {
    engine.checkOpen();
    readCount.incrementAndGet();
    long start = dev.talus.metrics.Histogram.startTimer();
    try {
      ReadResult r = reads.read(req);
      long micros = readLatency.recordSinceMicros(start);
      engine.metrics().read(schema.name(), micros, r.sourcesTouched(), r.tombstonesScanned());
      return r;
    } catch (CorruptFileException e) {
      if (quarantine.handle(this, e)) {
        return read(req); // without the quarantined SSTable
      }
      throw new CorruptSSTableException(
          "table " + schema.name() + ": " + e.getMessage(), e.file(), e.offset(), e);
    } catch (UncheckedIOException e) {
      throw new StorageException(
          "read of table " + schema.name() + " failed: " + e.getCause().getMessage(), e);
    }
  }

  /** The sources of one partition, with references on the SSTables among them. */
  ReadSnapshot snapshot(PartitionKey key) {
    return snapshot(key, Slice.ALL);
  }

  /**
   * The sources of one partition for a read of {@code slice}. An SSTable whose rows all lie outside
   * the slice and that holds no partition or range deletion cannot change the result and is not
   * looked at (Cassandra skips SSTables by clustering range the same way).
   */
  ReadSnapshot snapshot(PartitionKey key, Slice slice) {
    while (true) {
      TableView v = view.get();
      List<SSTableReader> refs = new ArrayList<>();
      boolean complete = true;
      for (SSTableReader r : v.sstables()) {
        if (key.compareTo(r.firstKey()) < 0 || key.compareTo(r.lastKey()) > 0) {
          continue;
        }
        if (slice != Slice.ALL && outsideClusteringRange(r, slice)) {
          continue;
        }
        if (!r.tryRef()) {
          complete = false;
          break;
        }
        refs.add(r);
      }
      if (!complete) {
        refs.forEach(SSTableReader::release);
        continue; // a compaction replaced a file meanwhile; take the new view
      }
      List<PartitionData> sources = new ArrayList<>();
      MemPartition p = v.active().get(key);
      if (p != null) {
        sources.add(p);
      }
      for (int i = v.flushing().size() - 1; i >= 0; i--) {
        MemPartition f = v.flushing().get(i).get(key);
        if (f != null) {
          sources.add(f);
        }
      }
      java.util.Map<PartitionData, Long> generations = new java.util.IdentityHashMap<>();
      try {
        for (SSTableReader r : refs) {
          bloomLookups.incrementAndGet();
          if (r.mayContain(key)) {
            PartitionData d = r.partition(key);
            if (d != null) {
              sources.add(d);
              generations.put(d, r.generation());
            } else {
              bloomFalsePositives.incrementAndGet();
            }
          }
        }
      } catch (RuntimeException e) {
        refs.forEach(SSTableReader::release);
        throw e;
      }
      return new ReadSnapshot(sources, refs, generations);
    }
  }

  /**
   * Reads every SSTable component and chunk of this table and checks every checksum; returns the
   * number of SSTables checked.
   *
   * @throws CorruptSSTableException naming the first damaged file and offset
   */
  public int verify() {
    engine.checkOpen();
    List<SSTableReader> refs = new ArrayList<>();
    for (SSTableReader r : view.get().sstables()) {
      if (r.tryRef()) {
        refs.add(r);
      }
    }
    try {
      int checked = 0;
      for (SSTableReader r : refs) {
        try {
          r.verify();
          checked++;
        } catch (CorruptFileException e) {
          if (!quarantine.handle(this, e)) {
            throw e;
          }
        }
      }
      return checked;
    } catch (CorruptFileException e) {
      throw new CorruptSSTableException(
          "table " + schema.name() + ": " + e.getMessage(), e.file(), e.offset(), e);
    } catch (IOException e) {
      throw new StorageException(
          "verify of table " + schema.name() + " failed: " + e.getMessage(), e);
    } finally {
      refs.forEach(SSTableReader::release);
    }
  }

  private static boolean outsideClusteringRange(SSTableReader r, Slice slice) {
    var stats = r.stats();
    if (stats.partitionDeletions() > 0 || stats.rangeTombstones() > 0) {
      return false;
    }
    byte[] min = stats.minClustering();
    byte[] max = stats.maxClustering();
    return min != null && max != null && !slice.intersects(min, max);
  }

  void readDone(int tombstones) {
    lastReadTombstones.set(tombstones);
    tombstonesPerRead.record(tombstones);
  }

  void sourcesRead(int n) {
    sstablesRead.addAndGet(n);
    sourcesPerRead.record(n);
  }

  void tombstoneWarning() {
    tombstoneWarnings.incrementAndGet();
  }

  private static dev.talus.Percentiles percentiles(dev.talus.metrics.Histogram h) {
    return new dev.talus.Percentiles(
        h.count(),
        h.percentile(50),
        h.percentile(75),
        h.percentile(95),
        h.percentile(98),
        h.percentile(99),
        h.max());
  }

  /** The table's statistics now. */
  public dev.talus.TableStats stats() {
    engine.checkOpen();
    TableView v = view.get();
    java.util.Map<Integer, Integer> perLevel = new java.util.TreeMap<>();
    java.util.Map<Integer, Long> bytesPerLevel = new java.util.TreeMap<>();
    long disk = 0;
    long droppable = 0;
    long gcBefore = compactions.gcBefore(engine.nowSeconds());
    for (SSTableReader r : v.sstables()) {
      int level = r.stats().level();
      perLevel.merge(level, 1, Integer::sum);
      bytesPerLevel.merge(level, r.onDiskSize(), Long::sum);
      disk += r.onDiskSize();
      droppable += r.stats().estimatedDroppableTombstones(gcBefore);
    }
    return new dev.talus.TableStats(
        schema.name(),
        v.sstables().size(),
        perLevel,
        bytesPerLevel,
        disk,
        v.memtableBytes(),
        writes.get(),
        readCount.get(),
        percentiles(writeLatency),
        percentiles(readLatency),
        percentiles(sourcesPerRead),
        percentiles(tombstonesPerRead),
        flushes.get(),
        bytesFlushed.get(),
        compactions.pending(),
        compactions.running(),
        compactions.completed.get(),
        compactions.bytesRead.get(),
        compactions.bytesWritten.get(),
        compactions.expiredDropped.get(),
        compactions.tombstonesPurged.get(),
        droppable,
        tombstoneWarnings.get(),
        guardrails.warnings(),
        guardrails.failures(),
        bloomFalsePositives.get(),
        bloomLookups.get(),
        compactions.outOfOrderFlushes.get(),
        compactions.describe());
  }

  public dev.talus.TableHistograms histograms() {
    engine.checkOpen();
    return inspector.histograms();
  }

  public List<dev.talus.SSTableSummary> sstableSummaries() {
    engine.checkOpen();
    return inspector.sstables(engine.nowSeconds());
  }

  /** What each source holds for the partition with these key values, newest first. */
  public List<dev.talus.StoredPartition> dump(List<Object> partitionKeyValues) {
    engine.checkOpen();
    if (partitionKeyValues.size() != schema.partitionKey().size()) {
      throw new InvalidQueryException(
          "dump of "
              + schema.name()
              + " needs "
              + schema.partitionKey().size()
              + " partition key value(s), got "
              + partitionKeyValues.size());
    }
    Object[] values = new Object[partitionKeyValues.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] =
          WritePlanner.keyValue(schema, schema.partitionKey().get(i), partitionKeyValues.get(i));
    }
    return inspector.dump(keys.partitionKey(values));
  }

  /** Compacts exactly these SSTables together (a user-defined compaction). */
  public void compact(java.util.Collection<Long> generations) {
    engine.checkOpen();
    compactions.userDefined(generations);
  }

  /** Runs the strategy's next proposed compaction on this thread; false if it proposes none. */
  public boolean runNextCompaction() {
    engine.checkOpen();
    return compactions.runNextBackground();
  }

  public long writeCount() {
    return writes.get();
  }

  public long readCount() {
    return readCount.get();
  }

  public long flushCount() {
    return flushes.get();
  }

  /** Tombstones the most recent read on this table scanned. */
  public int lastReadTombstones() {
    return lastReadTombstones.get();
  }

  /** The live SSTables, newest first. */
  public List<SSTableReader> sstables() {
    return view.get().sstables();
  }

  /** The memtable taking writes. */
  public Memtable memtable() {
    return view.get().active();
  }

  String describe(PartitionKey key) {
    return reads.describe(key);
  }

  /** A major compaction; returns when it is done. */
  public void compact() {
    engine.checkOpen();
    compactions.major();
  }

  public void setCompaction(dev.talus.CompactionOptions options) {
    engine.setCompaction(this, options);
  }

  /** Waits until no compaction runs for this table and its strategy proposes none. */
  public void awaitCompactions() {
    engine.checkOpen();
    compactions.awaitIdle();
  }

  /** Releases the SSTables and the manifest. Memtables must have been flushed or logged. */
  void close() {
    for (SSTableReader r : view.get().sstables()) {
      r.release();
    }
    try {
      manifest.close();
    } catch (IOException e) {
      LOG.warn("Closing the manifest of {} failed", schema.name(), e);
    }
  }
}
