package dev.talus.db;

import dev.talus.CompactionOptions;
import dev.talus.DirectoryLockedException;
import dev.talus.DiskFailurePolicy;
import dev.talus.InvalidQueryException;
import dev.talus.InvalidSchemaException;
import dev.talus.KeyspaceSchema;
import dev.talus.QuarantinedTable;
import dev.talus.StorageException;
import dev.talus.TableSchema;
import dev.talus.TalusMetricsListener;
import dev.talus.TalusOptions;
import dev.talus.UserType;
import dev.talus.VerifyReport;
import dev.talus.commitlog.CommitLog;
import dev.talus.io.CorruptFileException;
import dev.talus.io.FileLockHandle;
import dev.talus.io.LockHeldException;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import dev.talus.request.WriteRequest;
import dev.talus.runtime.DbContext;
import dev.talus.schema.Catalog;
import dev.talus.schema.KeyCodec;
import dev.talus.schema.SchemaDiff;
import dev.talus.table.TableHost;
import dev.talus.table.TableStore;
import dev.talus.write.MemtableBudget;
import dev.talus.write.WritePipeline;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One open data directory: its lock, catalogue, keyspaces, tables, commit log, write path and
 * background threads — the seam through which the public API ({@code TalusDb}) reaches the engine,
 * together with {@link TableHandle} for each table. Many databases may live in one JVM on different
 * directories; nothing is static. Thread-safe.
 *
 * <p>Tables are registered under their qualified name {@code keyspace.table}. Table ids are unique
 * across keyspaces, so a table's directory, {@code tables/<table>-<id>}, needs no keyspace in its
 * path: the layout is the one from before keyspaces existed, and {@code schema.db} says which
 * keyspace each table belongs to.
 */
public final class Database implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(Database.class);
  static final String LOCK_FILE = "LOCK";

  final DbContext ctx;
  final Path dir;
  private final FileLockHandle lock;
  final Map<String, TableHandle> tables = new ConcurrentHashMap<>();
  final Map<Integer, TableStore> byId = new ConcurrentHashMap<>();
  final Keyspaces keyspaces = new Keyspaces();
  final SetAsideTables setAside = new SetAsideTables();
  private final BackgroundJobs jobs;
  final MemtableBudget budget;
  final TableHost host;
  Catalog catalog;
  CommitLog commitLog;
  private WritePipeline writes;
  private long replayedRecords;

  private Database(TalusOptions options, StorageFs fs, FileLockHandle lock) {
    this.ctx = new DbContext(options, fs);
    this.dir = options.dataDirectory();
    this.lock = lock;
    this.jobs = new BackgroundJobs(ctx, this);
    this.budget = new MemtableBudget(ctx, jobs);
    this.host = new DatabaseHost(() -> commitLog, budget, jobs);
  }

  /** Opens (creating if needed) the directory in {@code options}. */
  public static Database open(TalusOptions options) {
    return open(options, new NioStorageFs());
  }

  /**
   * Checks every stored byte of the closed directory {@code dir} and reports every damage, changing
   * nothing (see {@link DirectoryVerifier}).
   */
  public static VerifyReport verify(Path dir, Consumer<VerifyReport.Checked> progress) {
    return new DirectoryVerifier(new NioStorageFs(), dir, progress).run();
  }

  /** Opens with a given file layer (test support installs one through {@link StorageHook}). */
  static Database open(TalusOptions options, StorageFs fs) {
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
    Database db = new Database(options, fs, lock);
    try {
      db.loadTables();
      db.openCommitLog();
      return db;
    } catch (CorruptFileException e) {
      // damage found while loading the schema, a manifest, an SSTable or the commit log
      db.close();
      throw Corruption.translate(e, "cannot load " + dir);
    } catch (RuntimeException | IOException e) {
      db.close();
      if (e instanceof RuntimeException re) {
        throw re;
      }
      throw new StorageException("cannot load " + dir + ": " + e.getMessage(), e);
    }
  }

  private void loadTables() throws IOException {
    catalog = Catalog.load(ctx.fs(), dir, ctx.options().defaultKeyspace());
    TableRemoval.removeOrphans(ctx.fs(), dir.resolve("tables"), catalog);
    keyspaces.reload(catalog, byId.values());
    for (Map.Entry<Integer, TableSchema> e : catalog.tables().entrySet()) {
      TableSchema s = e.getValue();
      Path tdir = tableDir(e.getKey(), s);
      TableStore t;
      try {
        t =
            TableStore.open(
                ctx, host, e.getKey(), new KeyCodec(s, catalog.dropped(e.getKey())), tdir);
      } catch (CorruptFileException damage) {
        if (ctx.options().diskFailurePolicy() == DiskFailurePolicy.QUARANTINE
            && Corruption.isManifest(damage.file())) {
          setAside.add(e.getKey(), qualified(s), displayName(s), tdir, damage);
          continue;
        }
        throw Corruption.atOpen(damage, s.name(), tdir);
      }
      register(t);
    }
  }

  /** A table's name as a user writes it: bare in the default keyspace, else qualified. */
  private String displayName(TableSchema s) {
    return s.keyspace().orElseThrow().equals(ctx.options().defaultKeyspace())
        ? s.name()
        : qualified(s);
  }

  /** The tables set aside at open because their manifest is damaged (QUARANTINE only). */
  public List<QuarantinedTable> quarantinedTables() {
    return setAside.list();
  }

  /** Flushes and compactions that failed on a full disk, and their retries by themselves. */
  public dev.talus.DiskFullStats diskFullStats() {
    return jobs.diskFull().stats();
  }

  /** True if table {@code id} was set aside at open: its commit-log records must be kept. */
  boolean isSetAside(int id) {
    return setAside.contains(id);
  }

  private void register(TableStore t) {
    tables.put(qualified(t.schema()), new TableHandle(this, t, jobs.readThreads()));
    byId.put(t.id(), t);
    keyspaces.tableAdded(t);
  }

  private static String qualified(TableSchema s) {
    return s.keyspace().orElseThrow() + "." + s.name();
  }

  private String defaultQualified(String name) {
    return ctx.options().defaultKeyspace() + "." + name;
  }

  /**
   * Replays every commit-log record not yet covered by a table's SSTables, flushes what it
   * replayed, and lets the log drop the segments nobody needs any more.
   */
  private void openCommitLog() {
    CommitLogReplay replay = new CommitLogReplay(ctx, byId, setAside.ids(), budget);
    commitLog = replay.open();
    replayedRecords = replay.records();
    catalog.reserveIdsBelow(replay.highestTableId() + 1);
    writes = new WritePipeline(ctx, commitLog, budget, jobs, keyspaces::logged);
    replay.finish(commitLog);
  }

  Path tableDir(int id, TableSchema s) {
    return dir.resolve("tables").resolve(s.name() + "-" + id);
  }

  /** Grows with every schema change (tables, keyspaces, types) since open; see TalusDb. */
  public long schemaVersion() {
    return catalog.version();
  }

  /** Records replayed from the commit log when this database opened. */
  public long replayedRecords() {
    return replayedRecords;
  }

  public TalusOptions options() {
    return ctx.options();
  }

  public InstantSource clock() {
    return ctx.clock();
  }

  DbContext context() {
    return ctx;
  }

  WritePipeline writes() {
    return writes;
  }

  CommitLog commitLog() {
    return commitLog;
  }

  BackgroundJobs jobs() {
    return jobs;
  }

  /** Every table's state (for the background jobs). */
  Collection<TableStore> stores() {
    return byId.values();
  }

  TableStore store(int id) {
    return byId.get(id);
  }

  /** Creates a user type; with {@code ifNotExists}, an identical existing one is fine. */
  public synchronized UserType createType(UserType type, boolean ifNotExists) {
    ctx.checkOpen();
    return UserTypes.create(catalog, type, ifNotExists);
  }

  /** Every user type, in creation order. */
  public synchronized List<UserType> types() {
    ctx.checkOpen();
    return List.copyOf(catalog.types().values());
  }

  /**
   * Creates a table; with {@code ifNotExists}, returns the existing one if its schema is equal. A
   * schema without a keyspace goes to the default keyspace, which is created the first time.
   */
  public synchronized TableHandle createTable(TableSchema schema, boolean ifNotExists) {
    ctx.checkWritable();
    schema = keyspaces.placeTable(catalog, schema, ctx.options().defaultKeyspace(), byId.values());
    setAside.checkNotSetAside(qualified(schema));
    for (var c : schema.columns()) {
      UserTypes.checkDefined(catalog, c.type(), "table " + schema.name());
    }
    TableHandle existing = tables.get(qualified(schema));
    if (existing != null) {
      if (ifNotExists && existing.schema().equals(schema)) {
        lint(schema);
        return existing;
      }
      throw new InvalidSchemaException(
          existing.schema().equals(schema)
              ? "table "
                  + schema.name()
                  + " already exists (createTableIfNotExists returns it instead)"
              : SchemaDiff.message(existing.schema(), schema));
    }
    int id = catalog.nextId();
    Path tdir = tableDir(id, schema);
    try {
      ctx.fs().createDirectories(tdir);
      catalog.put(id, schema);
    } catch (IOException e) {
      throw new StorageException("cannot create table " + schema.name() + ": " + e.getMessage(), e);
    }
    TableStore store;
    try {
      store = TableStore.open(ctx, host, id, schema, tdir);
    } catch (IOException e) {
      throw new StorageException("cannot open table " + schema.name() + ": " + e.getMessage(), e);
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "cannot open table " + schema.name());
    }
    register(store);
    lint(schema);
    return tables.get(qualified(schema));
  }

  private void lint(TableSchema schema) {
    for (String warning : schema.lint()) {
      ctx.metrics()
          .warning(
              schema.name(), TalusMetricsListener.WarningKind.DATA_MODEL, "Data model: " + warning);
    }
  }

  /** The table {@code name} ({@code keyspace.table}, or a table of the default keyspace). */
  public TableHandle table(String name) {
    TableHandle t = findTable(name);
    if (t == null) {
      setAside.checkNotSetAside(name.indexOf('.') < 0 ? defaultQualified(name) : name);
      throw new InvalidQueryException(
          "no table named " + name + " in " + dir + "; tables are " + tables.keySet());
    }
    return t;
  }

  /** Like {@link #table(String)}, or null. */
  public TableHandle findTable(String name) {
    int dot = name.indexOf('.');
    return dot < 0
        ? findTable(ctx.options().defaultKeyspace(), name)
        : findTable(name.substring(0, dot), name.substring(dot + 1));
  }

  /** The table {@code name} of keyspace {@code keyspace}, or null. */
  public TableHandle findTable(String keyspace, String name) {
    ctx.checkOpen();
    return tables.get(keyspace + "." + name);
  }

  /** Every table, by keyspace then name. */
  public Collection<TableHandle> tables() {
    ctx.checkOpen();
    List<TableHandle> l = new ArrayList<>(tables.values());
    l.sort((a, b) -> qualified(a.schema()).compareTo(qualified(b.schema())));
    return l;
  }

  /** Every keyspace, by name (an immutable snapshot). */
  public Map<String, KeyspaceSchema> keyspaces() {
    ctx.checkOpen();
    return keyspaces.all();
  }

  /** Creates a keyspace; with {@code ifNotExists}, an existing one of that name is returned. */
  public synchronized KeyspaceSchema createKeyspace(KeyspaceSchema keyspace, boolean ifNotExists) {
    ctx.checkOpen();
    return keyspaces.create(catalog, keyspace, ifNotExists, byId.values());
  }

  /** Replaces an existing keyspace's options (replication, durable writes). */
  public synchronized void alterKeyspace(KeyspaceSchema keyspace) {
    ctx.checkOpen();
    keyspaces.alter(catalog, keyspace, byId.values());
  }

  /**
   * Drops an empty keyspace; false if there is none of that name. A keyspace that holds tables is
   * refused: drop its tables first.
   */
  public synchronized boolean dropKeyspace(String name) {
    ctx.checkOpen();
    return keyspaces.drop(catalog, name, byId.values());
  }

  /** Writes several updates, possibly to several tables, as one commit-log record. */
  public void writeBatch(List<TableHandle> targets, List<WriteRequest> requests) {
    List<TableStore> stores = new ArrayList<>(targets.size());
    for (TableHandle h : targets) {
      stores.add(h.store());
    }
    try {
      writes.write(stores, requests);
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "batch");
    }
  }

  /** Drops table {@code name}; false if there is none and {@code ifExists} (see TableRemoval). */
  public synchronized boolean dropTable(String name, boolean ifExists) {
    return TableRemoval.drop(this, name, ifExists);
  }

  /** Changes a table's compaction strategy; the new one takes over the existing SSTables. */
  synchronized void setCompaction(TableStore t, CompactionOptions options) {
    ctx.checkWritable();
    TableSchema next = t.schema().withCompaction(options);
    try {
      catalog.put(t.id(), next);
    } catch (IOException e) {
      throw new StorageException("cannot save the schema of " + t.schema().name(), e);
    }
    t.schemaChanged(next);
    jobs.scheduleCompaction(t);
  }

  /** Pauses background and running compactions at their next partition boundary. */
  public void pauseCompactions() {
    ctx.pauseCompactions();
  }

  public void resumeCompactions() {
    ctx.resumeCompactions();
    for (TableStore t : byId.values()) {
      jobs.scheduleCompaction(t);
    }
  }

  public boolean compactionsPaused() {
    return ctx.compactionsPaused();
  }

  public dev.talus.CommitLogSyncStats commitLogSyncStats() {
    return commitLog.stats().toSyncStats(ctx.options().commitLogSync());
  }

  /** Bytes in every table's memtables. */
  public long memtableBytes() {
    return budget.used();
  }

  public boolean isClosed() {
    return ctx.isClosed();
  }

  public void checkOpen() {
    ctx.checkOpen();
  }

  /**
   * Stops as a killed process would: background work is cancelled, nothing is flushed or synced,
   * the commit log is abandoned and the directory unlocked. For crash tests (with a fault injector
   * underneath, through {@link StorageHook}); the data directory is left exactly as a crash would
   * leave it.
   */
  synchronized void crash() {
    if (ctx.isClosed()) {
      return;
    }
    ctx.markClosed();
    jobs.stopFlushesAndCompactions(true);
    if (commitLog != null) {
      commitLog.abandon();
    }
    for (TableStore t : byId.values()) {
      t.close();
    }
    jobs.stopReads(false);
    try {
      lock.close();
    } catch (IOException e) {
      LOG.warn("Releasing the lock of {} after a simulated crash failed", dir, e);
    }
  }

  @Override
  public synchronized void close() {
    if (ctx.isClosed()) {
      return;
    }
    // Nothing is flushed: the commit log holds every acknowledged write and the next open
    // replays it. In-flight writes finish before the log closes (it waits for them).
    // Writes to a keyspace without durable writes live in memtables only: flush them, as Cassandra
    // does when it drains at shutdown.
    RuntimeException failure = keyspaces.flushUnlogged(byId.values(), dir);
    ctx.markClosed();
    // never shutdownNow(): interrupting a compaction would close channels readers share
    jobs.stopFlushesAndCompactions(false);
    if (commitLog != null) {
      try {
        commitLog.close();
      } catch (RuntimeException e) {
        failure = e;
        LOG.error("Closing the commit log of {} failed", dir, e);
      }
    }
    for (TableStore t : byId.values()) {
      t.close();
    }
    jobs.stopReads(true);
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
