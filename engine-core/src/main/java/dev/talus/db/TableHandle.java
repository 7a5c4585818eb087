package dev.talus.db;

import dev.talus.CompactionOptions;
import dev.talus.CorruptDataException;
import dev.talus.InvalidQueryException;
import dev.talus.SSTableSummary;
import dev.talus.StorageException;
import dev.talus.StoredPartition;
import dev.talus.TableHistograms;
import dev.talus.TableSchema;
import dev.talus.TableStats;
import dev.talus.io.CorruptFileException;
import dev.talus.read.Aggregation;
import dev.talus.read.PartitionDump;
import dev.talus.read.ReadPath;
import dev.talus.request.AggregateRequest;
import dev.talus.request.AlterRequest;
import dev.talus.request.ReadRequest;
import dev.talus.request.ReadResult;
import dev.talus.request.WriteRequest;
import dev.talus.table.TableInspector;
import dev.talus.table.TableStore;
import dev.talus.write.InsertPlan;
import java.io.IOException;
import java.time.InstantSource;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * One table as the public API sees it (the other half of the seam, with {@link Database}): every
 * public call of a table lands here, goes to the part of the engine that does it — the write path,
 * the table's read path, its flusher, compactions or inspection — and has damaged stored bytes
 * translated by {@link Corruption}. Thread-safe.
 */
public final class TableHandle {
  private final Database db;
  private final Executor readThreads;

  /** What serves this table now; a truncate replaces it (a new, empty store under a new id). */
  private volatile Parts parts;

  private volatile boolean dropped;

  private final ConditionalPartitions conditional = new ConditionalPartitions();

  private record Parts(
      TableStore store, ReadPath reads, PartitionDump dumps, TableInspector inspector) {}

  TableHandle(Database db, TableStore store, Executor readThreads) {
    this.db = db;
    this.readThreads = readThreads;
    store.indexes().define(db.catalog.indexes(store.id())); // the table's indexes, from the schema
    TableIndexes.resume(db, store);
    this.parts = parts(store);
  }

  private Parts parts(TableStore store) {
    return new Parts(
        store,
        new ReadPath(store, db.context(), readThreads),
        new PartitionDump(store),
        new TableInspector(store));
  }

  /** The store serving this table; refused once the table is dropped. */
  TableStore store() {
    return live().store();
  }

  private Parts live() {
    Parts p = parts;
    if (dropped) {
      throw new InvalidQueryException(
          "table " + p.store().schema().name() + " was dropped; this handle no longer works");
    }
    return p;
  }

  /** Empties the table (TRUNCATE). */
  public void truncate() {
    live();
    synchronized (db) { // schema changes are serialised on the database
      TableRemoval.truncate(db, this);
    }
  }

  /** ALTER TABLE: applies the changes durably and returns the new schema. */
  public TableSchema alter(AlterRequest req) {
    live();
    synchronized (db) { // schema changes are serialised on the database
      return TableAlter.alter(db, this, req);
    }
  }

  /** Snapshots the table under {@code name} (see {@link Snapshots}). */
  public dev.talus.SnapshotDetails snapshot(String name) {
    live();
    synchronized (db) { // serialised with schema changes, which may retire the store
      return Snapshots.take(db, store(), name);
    }
  }

  /** Imports a snapshot's SSTables into the table (see {@link Snapshots}). */
  public int importSSTables(java.nio.file.Path source) {
    live();
    synchronized (db) {
      return Snapshots.importInto(db, store(), source);
    }
  }

  /** CREATE INDEX: stores the definition durably; false if IF NOT EXISTS found it. */
  public boolean createIndex(dev.talus.IndexDef def, boolean ifNotExists) {
    live();
    synchronized (db) { // schema changes are serialised on the database
      return TableIndexes.create(db, store(), def, ifNotExists);
    }
  }

  /** DROP INDEX: removes the definition durably; false if IF EXISTS missed it. */
  public boolean dropIndex(String name, boolean ifExists) {
    live();
    synchronized (db) {
      return TableIndexes.drop(db, store(), name, ifExists);
    }
  }

  /** The status of index {@code name} of this table. */
  public dev.talus.IndexStatus indexStatus(String name) {
    TableStore s = store();
    for (dev.talus.IndexDef d : s.indexes().definitions()) {
      if (d.name().equals(name)) {
        return s.indexes().status(d, s.tracker().current().sstables());
      }
    }
    throw noIndex(name);
  }

  /** Waits until index {@code name} is queryable (true) or the timeout passed (false). */
  public boolean awaitIndexBuilt(String name, java.time.Duration timeout)
      throws InterruptedException {
    dev.talus.index.IndexProgress p = store().indexes().progress(name);
    if (p == null) {
      throw noIndex(name);
    }
    return p.await(timeout.toNanos());
  }

  private InvalidQueryException noIndex(String name) {
    return new InvalidQueryException(
        "Index '" + name + "' doesn't exist on table " + store().schema().name());
  }

  /** The table's secondary indexes, in creation order. */
  public List<dev.talus.IndexDef> indexes() {
    live();
    synchronized (db) {
      return TableIndexes.of(db, store());
    }
  }

  /** A truncate: {@code fresh} serves this table from now on. */
  void replaceStore(TableStore fresh) {
    parts = parts(fresh);
  }

  /** A drop: every later call is refused. */
  void markDropped() {
    dropped = true;
  }

  public TableSchema schema() {
    return parts.store().schema();
  }

  private String name() {
    return parts.store().schema().name();
  }

  /** The clock of this table's database. */
  public InstantSource clock() {
    return db.clock();
  }

  /** Validates and applies one write. */
  public void write(WriteRequest req) {
    try {
      db.writes().write(store(), req);
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "table " + name());
    }
  }

  /**
   * Runs {@code statement} with {@code values} (one per column, in its order): through its plan
   * when it has one for the table's current schema, else as the general write.
   */
  public void insert(InsertStatement statement, Object[] values) {
    try {
      TableStore store = store();
      InsertPlan plan = statement.planFor(store.keys());
      if (plan != null) {
        db.writes().insert(store, plan, values, statement.timestamp());
      } else {
        db.writes().write(store, statement.request(values));
      }
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "table " + name());
    }
  }

  /**
   * Runs {@code body} holding the conditional-write lock of the partition with these canonical key
   * values (see {@link ConditionalPartitions}), once no write to the partition waits for its
   * commit-log fsync; plain writes do not wait for it. Each wait is bounded by the write timeout.
   */
  public <T> T underPartitionLock(Object[] partitionKey, java.util.function.Supplier<T> body) {
    java.util.concurrent.locks.ReentrantLock lock = conditional.lockOf(store(), partitionKey);
    db.writes().lockConditional(lock, store(), store().keys().partitionKey(partitionKey));
    try {
      return body.get();
    } finally {
      lock.unlock();
    }
  }

  /**
   * The timestamp for a conditional write to these rows of one partition, drawn under its lock: see
   * {@link ConditionalPartitions#timestamp}.
   */
  public long conditionalTimestamp(Object[] partitionKey, List<List<Object>> clusterings) {
    try {
      return ConditionalPartitions.timestamp(db.context(), store(), partitionKey, clusterings);
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "table " + name());
    }
  }

  /** Validates and runs one read. */
  public ReadResult read(ReadRequest req) {
    try {
      Parts p = live();
      ReadResult indexed = IndexedRead.read(p.store(), p.reads(), req);
      return indexed != null ? indexed : p.reads().read(req);
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "table " + name());
    }
  }

  /**
   * Runs {@code req}, a read of one row by its whole primary key whose values by position are
   * {@code given} (see {@link ReadPath#readRow}); on a table with indexes, as {@link #read} runs
   * {@code bound}, the request with the values in place.
   */
  public ReadResult readRow(
      ReadRequest req, Object[] given, java.util.function.Supplier<ReadRequest> bound) {
    try {
      Parts p = live();
      if (!p.store().indexes().definitions().isEmpty()) {
        return read(bound.get()); // an index may take part in the plan
      }
      return p.reads().readRow(req, given, bound);
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "table " + name());
    }
  }

  /** See {@link ReadPath#primaryKeyPositions}. */
  public int[] rowPositions(ReadRequest req) {
    return live().reads().primaryKeyPositions(req);
  }

  /**
   * Validates and runs a read ordered by similarity of vector column {@code column} to {@code
   * query} (see {@link VectorRead}).
   */
  public ReadResult annRead(ReadRequest req, String column, float[] query) {
    try {
      Parts p = live();
      return VectorRead.read(p.store(), p.reads(), req, column, query);
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "table " + name());
    }
  }

  /** Flushes the memtable to an SSTable and waits until it is live. */
  public void flush() {
    try {
      store().flush();
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "flush of table " + name());
    }
  }

  /** A major compaction; returns when it is done. */
  public void compact() {
    db.checkOpen();
    try {
      store().compactions().major();
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "compaction of table " + name());
    }
  }

  /** Compacts exactly these SSTables together (a user-defined compaction). */
  public void compact(Collection<Long> generations) {
    db.checkOpen();
    try {
      store().compactions().userDefined(generations);
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "compaction of table " + name());
    }
  }

  /** Runs the strategy's next proposed compaction on this thread; false if it proposes none. */
  public boolean runNextCompaction() {
    db.checkOpen();
    try {
      return store().compactions().runNextBackground();
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "compaction of table " + name());
    }
  }

  /** Waits until no compaction runs for this table and its strategy proposes none. */
  public void awaitCompactions() {
    db.checkOpen();
    try {
      store().compactions().awaitIdle();
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "compaction of table " + name());
    }
  }

  public void setCompaction(CompactionOptions options) {
    db.setCompaction(store(), options);
  }

  /**
   * Reads every SSTable component and chunk of this table and checks every checksum; returns the
   * number of SSTables checked.
   */
  public int verify() {
    try {
      return store().verify();
    } catch (CorruptFileException e) {
      Throwable[] more = e.getSuppressed();
      String context =
          "table "
              + name()
              + (more.length == 0 ? "" : " (" + (more.length + 1) + " damaged SSTables)");
      CorruptDataException first = Corruption.translate(e, context);
      for (Throwable t : more) {
        if (t instanceof CorruptFileException c) {
          first.addSuppressed(Corruption.translate(c, "table " + name()));
        }
      }
      throw first;
    } catch (IOException e) {
      throw new StorageException("verify of table " + name() + " failed: " + e.getMessage(), e);
    }
  }

  /** SSTables quarantined under {@link dev.talus.DiskFailurePolicy#QUARANTINE}. */
  public long quarantinedSSTables() {
    return store().quarantine().count();
  }

  /** The table's statistics now. */
  public TableStats stats() {
    db.checkOpen();
    try {
      return live().inspector().stats(db.context().nowSeconds());
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "table " + name());
    }
  }

  public TableHistograms histograms() {
    db.checkOpen();
    try {
      return live().inspector().histograms();
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "table " + name());
    }
  }

  public List<SSTableSummary> sstableSummaries() {
    db.checkOpen();
    try {
      return live().inspector().sstables(db.context().nowSeconds());
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "table " + name());
    }
  }

  /** What each source holds for the partition with these key values, newest first. */
  public List<StoredPartition> dump(List<Object> partitionKeyValues) {
    db.checkOpen();
    try {
      return live().dumps().dump(partitionKeyValues);
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "table " + name());
    }
  }

  /** Computes one aggregate over the rows {@code req} selects, paging internally. */
  public Object aggregate(ReadRequest req, AggregateRequest agg) {
    try {
      return Aggregation.compute(store().schema(), req, agg, live().reads()::read);
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "table " + name());
    }
  }

  /** The token of the partition with these key values. */
  public long token(List<Object> partitionKeyValues) {
    return live().reads().token(partitionKeyValues);
  }

  /** Tombstones the most recent read on this table scanned. */
  public int lastReadTombstones() {
    return store().metrics().lastReadTombstones();
  }
}
