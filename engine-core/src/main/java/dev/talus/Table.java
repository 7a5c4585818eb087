package dev.talus;

import dev.talus.db.TableHandle;

/**
 * A table of an open {@link TalusDb}: start writes with {@link #insert()}, {@link #update()},
 * {@link #delete()} and reads with {@link #select()}.
 *
 * <p><b>Conditional writes</b> (lightweight transactions: {@link Insert#ifNotExists}, {@link
 * Update#ifExists}, {@link Update#onlyIf}, {@link Delete#onlyIf}, conditional {@link Batch}es) are
 * linearizable per partition within the process: each holds its partition's conditional-write lock
 * from reading the current state until its write is logged and applied, so of several racing
 * conditional writes each sees the ones before it. An applied conditional write is logged like any
 * write. Its timestamp comes from the database clock, above every timestamp in the rows it read, so
 * it supersedes what its conditions examined and conditional writes to a row get strictly
 * increasing timestamps; it may not set its own. Plain writes do not take the lock: mixing them
 * with conditional writes on the same data gives no such guarantee (a plain write may land between
 * a conditional write's check and its write, and one with a later timestamp still wins), as in
 * Cassandra. Counter tables take no conditions.
 *
 * <p>Thread-safe: any number of threads may use one table at once. A table handle does not need
 * closing; it stops working when its database is closed ({@link TalusClosedException}).
 */
public final class Table {
  private final TableHandle store;

  Table(TableHandle store) {
    this.store = store;
  }

  TableHandle store() {
    return store;
  }

  /** The clock of this table's database (every "now" of its data comes from it). */
  public java.time.InstantSource clock() {
    return store.clock();
  }

  /** The table's name within its keyspace. */
  public String name() {
    return store.schema().name();
  }

  /** The keyspace the table belongs to. */
  public String keyspace() {
    return store.schema().keyspace().orElseThrow();
  }

  public TableSchema schema() {
    return store.schema();
  }

  /** Starts an INSERT (creates the row, even with only key columns). */
  public Insert insert() {
    return new Insert(this);
  }

  /** Starts an UPDATE (writes cells of one row; does not create the row marker). */
  public Update update() {
    return new Update(this);
  }

  /** Starts a DELETE of a partition, a row, a range of rows or some columns. */
  public Delete delete() {
    return new Delete(this);
  }

  /**
   * The token of a partition: the first 64 bits of the Murmur3 hash of its key bytes, compared as a
   * signed long. Scans return partitions in token order, and {@link Select#tokenGt} and friends
   * restrict them to a token range. Talus encodes keys differently from Cassandra, so a key's token
   * is not the one a Cassandra cluster gives it.
   *
   * @param partitionKeyValues the partition key column values, in schema order
   * @throws InvalidQueryException if a value is missing, null or of the wrong type
   */
  public long token(Object... partitionKeyValues) {
    return store.token(java.util.Arrays.asList(partitionKeyValues));
  }

  /** Starts a read. */
  public Select select() {
    return new Select(this);
  }

  /**
   * Removes every row of this table (CQL's {@code TRUNCATE}), durably: the schema file switches the
   * table to a new, empty store in one atomic rewrite, so a crash leaves either all the old data or
   * none of it, and the old commit-log records are never replayed. The old files are deleted once
   * the last read using them finishes. Writes racing with the truncate may or may not survive it;
   * reads racing with it see the old data or none. This handle (and every other of the table) goes
   * on working on the empty table. With {@link TalusOptions#autoSnapshot()} on, a snapshot of the
   * table is taken first.
   */
  public void truncate() {
    store.truncate();
  }

  /**
   * Takes a snapshot of the table (Cassandra's {@code nodetool snapshot -t name ks table}): flushes
   * it, then hard-links every file of every SSTable live at that instant, with the table's schema,
   * into {@code <table directory>/snapshots/<name>/}. The links cost no space until a compaction,
   * truncate or drop deletes the live files; then the snapshot keeps them. Writes after the flush
   * are not in it. Restore one with {@link #importSSTables}; list and clear them through {@link
   * TalusDb#snapshots()} and {@link TalusDb#clearSnapshot}.
   *
   * @param name letters, digits, {@code _}, {@code -} and {@code .}, not starting with {@code .} or
   *     {@code -}
   * @throws InvalidQueryException if the name is not valid or this table has a snapshot of that
   *     name
   * @throws StorageException if the files cannot be linked (the file system has no hard links)
   */
  public SnapshotDetails snapshot(String name) {
    return store.snapshot(name);
  }

  /**
   * Makes the SSTables of a snapshot directory live in this table (Cassandra's {@code nodetool
   * import}), to restore a snapshot: each is checksummed in full and copied — every cell with its
   * write time, TTL and tombstones — into a new SSTable of this table; then all the copies become
   * live at once, so a crash leaves none or all. The source is only read. Imported data merges with
   * what the table holds by write time, like any SSTable: rows deleted or overwritten after the
   * snapshot come back only where no newer tombstone or write shadows them (after a truncate, or a
   * drop and create again, none does). The copies start at compaction level 0. Takes a snapshot of
   * another data directory too.
   *
   * @param snapshotDirectory a directory as {@link #snapshot} makes it: SSTable files and a {@code
   *     schema.db} of a table with the same key column types, in which each column id has the type
   *     it has in this table (the same table, or one created again with the same schema)
   * @return the number of SSTables imported
   * @throws InvalidQueryException if it holds no SSTable or no schema, or the schema does not match
   *     this table's; nothing is imported
   * @throws CorruptSSTableException if an SSTable fails a checksum; nothing is imported
   */
  public int importSSTables(java.nio.file.Path snapshotDirectory) {
    return store.importSSTables(snapshotDirectory);
  }

  /**
   * Starts a schema change (CQL's {@code ALTER TABLE}): add or drop columns, rename key columns,
   * change options; see {@link AlterTable}.
   */
  public AlterTable alter() {
    return new AlterTable(store);
  }

  /**
   * Defines a secondary index (CQL's {@code CREATE INDEX}), stored durably in the schema file and
   * kept across reopens. See {@link IndexDef} for what can be indexed. Index names are unique
   * within the keyspace.
   *
   * <p>This returns once the definition is durable. On a table without SSTables the index is
   * queryable at once; otherwise its components are built for the existing SSTables on a background
   * thread, and until that ends the index is {@link IndexStatus.State#BUILDING}: a read that needs
   * it is refused with {@link IndexNotAvailableException} (see {@link #indexStatus} and {@link
   * #awaitIndexBuilt}). Every later flush and compaction writes the components too. A read that
   * restricts the column by equality (or, for types other than text, by a range) then needs no
   * {@link Select#allowFiltering} and reads only the rows the index names; its result is exactly
   * that of the filtering read.
   *
   * @throws InvalidQueryException if the name is taken in the keyspace, the column is missing or
   *     cannot be indexed, or the column already has an index of that kind
   */
  public void createIndex(IndexDef index) {
    store.createIndex(index, false);
  }

  /**
   * Like {@link #createIndex(IndexDef)}; with {@code ifNotExists} an index of that name in the
   * keyspace, or of that kind on that column, is left alone and false is returned.
   *
   * @return true if the index was created
   */
  public boolean createIndex(IndexDef index, boolean ifNotExists) {
    return store.createIndex(index, ifNotExists);
  }

  /**
   * Removes the secondary index {@code name} of this table (CQL's {@code DROP INDEX}), durably.
   *
   * @throws InvalidQueryException if this table has no index of that name
   */
  public void dropIndex(String name) {
    store.dropIndex(name, false);
  }

  /**
   * Like {@link #dropIndex(String)}; with {@code ifExists} a missing index returns false.
   *
   * @return true if the index was dropped
   */
  public boolean dropIndex(String name, boolean ifExists) {
    return store.dropIndex(name, ifExists);
  }

  /**
   * The state of index {@code name}: queryable, building (SSTables built of those to build) or
   * failed (with the reason), with its size on disk and the reads it served.
   *
   * @throws InvalidQueryException if this table has no index of that name
   */
  public IndexStatus indexStatus(String name) {
    return store.indexStatus(name);
  }

  /**
   * Waits until index {@code name} is queryable — at once if it is — or {@code timeout} passed. The
   * wait ends on the build's own completion signal.
   *
   * @return true if the index is queryable, false if the timeout passed first
   * @throws IndexNotAvailableException if its build failed (with the reason) or it was dropped
   * @throws InvalidQueryException if this table has no index of that name
   * @throws TalusClosedException if the database closes before the build ends (the next open
   *     resumes it)
   * @throws InterruptedException if the calling thread is interrupted while waiting
   */
  public boolean awaitIndexBuilt(String name, java.time.Duration timeout)
      throws InterruptedException {
    return store.awaitIndexBuilt(name, timeout);
  }

  /** The table's secondary indexes, in creation order. */
  public java.util.List<IndexDef> indexes() {
    return store.indexes();
  }

  /**
   * Writes the table's memtable to a new SSTable and waits until it is live. Writes and reads go on
   * meanwhile.
   */
  public void flush() {
    store.flush();
  }

  /**
   * Runs a major compaction (what the strategy merges when asked to merge everything) and waits for
   * it. Tombstones and expired data older than gc_grace go, when no other SSTable or memtable may
   * hold older data they shadow.
   */
  public void compact() {
    store.compact();
  }

  /**
   * Waits until no compaction of this table runs and its strategy proposes none — running the
   * proposed ones on this thread if background compaction is off.
   */
  public void awaitCompactions() {
    store.awaitCompactions();
  }

  /**
   * Switches this table to another compaction strategy; the new strategy takes over the existing
   * SSTables. The change is stored in the schema.
   */
  public void setCompaction(CompactionOptions options) {
    store.setCompaction(options);
  }

  /**
   * Checks every checksum of every SSTable of this table (a full read of its files).
   *
   * @return the number of SSTables checked
   * @throws CorruptSSTableException naming the damaged file and offset; every SSTable is checked,
   *     and each further damaged one is a {@linkplain Throwable#getSuppressed() suppressed}
   *     exception of this one. {@link TalusDb#verify(java.nio.file.Path)} checks a whole closed
   *     directory, manifests and commit log included
   */
  public int verify() {
    return store.verify();
  }

  /**
   * SSTables of this table moved to {@code quarantine/} since the database was opened (always 0
   * under the default {@link DiskFailurePolicy#FAIL}).
   */
  public long quarantinedSSTables() {
    return store.quarantinedSSTables();
  }

  /** The table's statistics now (like {@code nodetool tablestats}). */
  public TableStats stats() {
    return store.stats();
  }

  /** Partition size and cell count percentiles (like {@code nodetool tablehistograms}). */
  public TableHistograms histograms() {
    return store.histograms();
  }

  /** The live SSTables with their statistics, oldest first. */
  public java.util.List<SSTableSummary> sstables() {
    return store.sstableSummaries();
  }

  /**
   * What every memtable and SSTable holds for one partition — tombstones and shadowed data
   * included, newest source first. For inspecting tombstone and TTL behaviour in tests.
   *
   * @param partitionKeyValues the partition key column values, in schema order
   */
  public java.util.List<StoredPartition> dump(Object... partitionKeyValues) {
    return store.dump(java.util.Arrays.asList(partitionKeyValues));
  }

  /**
   * Compacts exactly the SSTables with these generations into one (a user-defined compaction),
   * purging what the purge rules allow — e.g. to reproduce "only the newer SSTable was compacted".
   */
  public void compact(java.util.Collection<Long> generations) {
    store.compact(generations);
  }

  /** Runs the compaction the strategy proposes now, on this thread; false if there is none. */
  public boolean runNextCompaction() {
    return store.runNextCompaction();
  }

  /** Tombstones scanned by the most recent read of this table (any thread). */
  public int lastReadTombstoneCount() {
    return store.lastReadTombstones();
  }

  @Override
  public String toString() {
    return "Table{" + keyspace() + "." + name() + "}";
  }
}
