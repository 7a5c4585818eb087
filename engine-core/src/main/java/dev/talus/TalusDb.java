package dev.talus;

import dev.talus.db.Database;
import dev.talus.db.RequestTime;
import dev.talus.db.Snapshots;
import dev.talus.db.StorageHook;
import dev.talus.db.TableHandle;
import dev.talus.db.TypeChanges;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * An open Talus database: one data directory, locked while open, holding any number of keyspaces
 * and their tables. A table whose schema names no keyspace lives in the default keyspace ({@link
 * TalusOptions#defaultKeyspace()}, {@code "talus"} unless set), and an unqualified table name is
 * looked up there.
 *
 * <pre>{@code
 * try (TalusDb db = TalusDb.open(TalusOptions.builder(Path.of("data")).build())) {
 *   Table t = db.createTableIfNotExists(TableSchema.builder("readings")
 *       .partitionKey("sensor", DataType.TEXT).clusteringColumn("ts", DataType.TIMESTAMP)
 *       .column("value", DataType.DOUBLE).build());
 *   t.insert().value("sensor", "s1").value("ts", Instant.now()).value("value", 21.5).execute();
 *   t.select().eq("sensor", "s1").limit(10).execute().forEach(System.out::println);
 * }
 * }</pre>
 *
 * <p>Thread-safe. {@link #close()} is idempotent; any use after it throws {@link
 * TalusClosedException}. Many instances may be open in one JVM on different directories.
 */
public final class TalusDb implements AutoCloseable {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(TalusDb.class);

  static {
    // Test support opens databases over another file layer through this non-public hook.
    StorageHook.install(
        new StorageHook.Api<TalusDb>() {
          @Override
          public TalusDb wrap(Database database) {
            return new TalusDb(database);
          }

          @Override
          public Database unwrap(TalusDb handle) {
            return handle.database;
          }
        });
  }

  private final Database database;
  private final TimeUuidGenerator timeUuids;
  private final Map<String, Table> handles = new ConcurrentHashMap<>();

  private TalusDb(Database database) {
    this.database = database;
    this.timeUuids = new TimeUuidGenerator(database.clock());
  }

  /**
   * Opens the database in {@code options.dataDirectory()}, creating it if needed, and restores
   * every table. Fails with {@link DirectoryLockedException} if it is already open.
   */
  public static TalusDb open(TalusOptions options) {
    return new TalusDb(Database.open(options));
  }

  /**
   * Checks every stored byte of a data directory that is not open — the schema, each table's
   * manifest, every component and chunk of every live SSTable, every commit-log segment — and
   * reports every damage it finds, without stopping at the first and without changing anything (no
   * commit-log replay, no quarantine, no cleanup). Takes the directory lock while it runs.
   *
   * @param progress called with each check as it completes (e.g. to print progress)
   * @throws DirectoryLockedException if the directory is open
   * @throws StorageException if it is not a Talus data directory or cannot be read
   */
  public static VerifyReport verify(
      java.nio.file.Path dataDirectory,
      java.util.function.Consumer<VerifyReport.Checked> progress) {
    return Database.verify(dataDirectory, progress);
  }

  /** {@link #verify(java.nio.file.Path, java.util.function.Consumer)} without progress. */
  public static VerifyReport verify(java.nio.file.Path dataDirectory) {
    return verify(dataDirectory, c -> {});
  }

  /**
   * Creates a table; fails if one with that name exists in its keyspace. A schema without a
   * keyspace creates the table in the default keyspace (which is created the first time); any other
   * keyspace must exist ({@link #createKeyspace}). The schema's {@link TableSchema#lint()
   * data-model warnings} are logged at WARN (and reported to {@link
   * TalusMetricsListener#onWarning}); they never prevent the creation.
   */
  public Table createTable(TableSchema schema) {
    return handle(database.createTable(schema, false));
  }

  /**
   * Creates a table, or returns the existing one if its schema is identical. Logs the schema's
   * data-model warnings like {@link #createTable}.
   */
  public Table createTableIfNotExists(TableSchema schema) {
    return handle(database.createTable(schema, true));
  }

  /**
   * Drops table {@code name}, written {@code keyspace.table} or, for a table of the default
   * keyspace, {@code table} (CQL's {@code DROP TABLE}): it is gone from the schema at once, durably
   * — a crash right after leaves it dropped — its memtable data is discarded and its files are
   * deleted once the last read using them finishes. Its commit-log records are never replayed, even
   * into a table created later under the same name (which starts empty). {@link Table} handles of
   * it refuse every later call. With {@link TalusOptions#autoSnapshot()} on, a snapshot of it is
   * taken first (Cassandra's {@code auto_snapshot}; off by default in Talus); its table directory
   * then stays until the snapshot is cleared.
   *
   * @throws InvalidQueryException if there is no such table
   */
  public void dropTable(String name) {
    database.dropTable(name, false);
    handles.remove(qualified(name));
  }

  /** Like {@link #dropTable}, but returns false instead of failing if there is no such table. */
  public boolean dropTableIfExists(String name) {
    boolean dropped = database.dropTable(name, true);
    handles.remove(qualified(name));
    return dropped;
  }

  /**
   * Snapshots every table under one name ({@link Table#snapshot}), like {@code nodetool snapshot -t
   * name}; refused before any is taken if a table already has a snapshot of that name.
   *
   * @return one entry per table
   */
  public List<SnapshotDetails> snapshot(String name) {
    return Snapshots.takeAll(database, name);
  }

  /**
   * Copies all the data of table {@code from} into table {@code to} — every cell with its write
   * time and TTL, tombstones included — by copying {@code from}'s SSTables (flushed first) into new
   * SSTables of {@code to}, all live at once, as {@link Table#importSSTables} does. {@code to} must
   * store the same columns: the same key column types and, under each column id, the same column
   * (name, kind, type) — a table created with the same schema, e.g. {@code
   * createTable(from.schema().toBuilder()...)} under another name, or the same table in another
   * keyspace. Its own data stays and merges by write time. Tables with another primary key need a
   * copy by reading and writing rows, which this does not do.
   *
   * @param from the source table ({@code keyspace.table}, or a table of the default keyspace)
   * @param to the target table
   * @return the number of SSTables copied
   * @throws InvalidQueryException if a table does not exist, both are the same, or their columns
   *     differ
   */
  public int copyTable(String from, String to) {
    return Snapshots.copy(database, database.table(from), database.table(to));
  }

  /**
   * Every snapshot in the data directory, by name then table (like {@code nodetool listsnapshots}),
   * those of dropped and truncated tables included: their table directories stay while they hold
   * snapshots.
   */
  public List<SnapshotDetails> snapshots() {
    return Snapshots.list(database);
  }

  /**
   * Deletes snapshot {@code name} of every table (like {@code nodetool clearsnapshot -t name});
   * returns how many table snapshots were deleted (0 if none has that name).
   */
  public int clearSnapshot(String name) {
    return Snapshots.clear(database, java.util.Objects.requireNonNull(name, "name"));
  }

  /** Deletes every snapshot (like {@code nodetool clearsnapshot --all}); returns how many. */
  public int clearSnapshots() {
    return Snapshots.clear(database, null);
  }

  /**
   * Creates a user-defined type, stored with the schema, for tables to use ({@link DataType#udt}).
   * Fails with {@link InvalidSchemaException} if a type of that name exists, or a field names a
   * user type not created yet. Alter one with {@link #addTypeField} and {@link #renameTypeFields},
   * drop it with {@link #dropType}.
   */
  public UserType createType(UserType type) {
    return database.createType(type, false);
  }

  /** Creates a user type, or returns the existing one if it is identical. */
  public UserType createTypeIfNotExists(UserType type) {
    return database.createType(type, true);
  }

  /**
   * Adds a field to a user type (CQL's {@code ALTER TYPE t ADD f int}), durably; every table and
   * type using it sees the new field at once, and values stored before read with it null. Refused
   * ({@link InvalidQueryException}, with Cassandra's message) if the field exists, the new field
   * would nest the type in itself, or the type is used in a primary key column or as a set element
   * or map key (Talus stores those in an order-preserving encoding a new field would change;
   * Cassandra refuses partition key uses only).
   *
   * @return the altered type
   */
  public UserType addTypeField(String type, String field, DataType fieldType) {
    return TypeChanges.addField(database, type, field, fieldType);
  }

  /**
   * Renames fields of a user type (CQL's {@code ALTER TYPE t RENAME a TO b AND c TO d}), durably;
   * stored values keep their data (fields are stored by position).
   *
   * @param renames old field name → new name
   * @return the altered type
   * @throws InvalidQueryException if a field does not exist or two fields would share a name
   */
  public UserType renameTypeFields(String type, Map<String, String> renames) {
    return TypeChanges.renameFields(database, type, renames);
  }

  /**
   * Drops a user type (CQL's {@code DROP TYPE}), durably. Refused with Cassandra's message while
   * another type or a table uses it — a column dropped from a table included, since its stored
   * cells keep the type.
   *
   * @throws InvalidQueryException if there is no such type, or it is in use
   */
  public void dropType(String name) {
    TypeChanges.drop(database, name, false);
  }

  /** Like {@link #dropType}, but returns false instead of failing if there is no such type. */
  public boolean dropTypeIfExists(String name) {
    return TypeChanges.drop(database, name, true);
  }

  /** Every user type, in creation order. */
  public List<UserType> types() {
    return database.types();
  }

  /** The user type named {@code name}, if it exists. */
  public Optional<UserType> type(String name) {
    return database.types().stream().filter(t -> t.name().equals(name)).findFirst();
  }

  /**
   * The table named {@code name}, written {@code keyspace.table} or, for a table of the default
   * keyspace, {@code table}; {@link InvalidQueryException} if there is none.
   */
  public Table table(String name) {
    return handle(database.table(name));
  }

  /** The table {@code name} of keyspace {@code keyspace}; {@link InvalidQueryException} if none. */
  public Table table(String keyspace, String name) {
    return findTable(keyspace, name)
        .orElseThrow(
            () -> new InvalidQueryException("no table named " + name + " in keyspace " + keyspace));
  }

  /** Like {@link #table(String)}, empty if there is no such table. */
  public Optional<Table> findTable(String name) {
    TableHandle t = database.findTable(name);
    return t == null ? Optional.empty() : Optional.of(handle(t));
  }

  /** Like {@link #table(String, String)}, empty if there is no such table. */
  public Optional<Table> findTable(String keyspace, String name) {
    TableHandle t = database.findTable(keyspace, name);
    return t == null ? Optional.empty() : Optional.of(handle(t));
  }

  /**
   * Creates a keyspace; fails with {@link InvalidSchemaException} if one with that name exists. Its
   * {@link KeyspaceSchema#lint() warnings} (a replication factor above one, another datacenter) are
   * logged at WARN.
   */
  public KeyspaceSchema createKeyspace(KeyspaceSchema keyspace) {
    KeyspaceSchema k = database.createKeyspace(keyspace, false);
    logLint(keyspace);
    return k;
  }

  /** Creates a keyspace, or returns the existing one of that name (unchanged). */
  public KeyspaceSchema createKeyspaceIfNotExists(KeyspaceSchema keyspace) {
    KeyspaceSchema k = database.createKeyspace(keyspace, true);
    if (k == keyspace) {
      logLint(keyspace);
    }
    return k;
  }

  /**
   * Replaces the options of an existing keyspace: its replication (recorded) and durable writes
   * (from the next write on).
   */
  public void alterKeyspace(KeyspaceSchema keyspace) {
    database.alterKeyspace(keyspace);
    logLint(keyspace);
  }

  /**
   * Drops an empty keyspace; returns false if there is none of that name. A keyspace that holds
   * tables is refused ({@link InvalidSchemaException}): drop its tables first ({@link #dropTable}).
   */
  public boolean dropKeyspace(String name) {
    return database.dropKeyspace(name);
  }

  /** The keyspace named {@code name}, if it exists. */
  public Optional<KeyspaceSchema> keyspace(String name) {
    return Optional.ofNullable(database.keyspaces().get(name));
  }

  /** Every keyspace, by name. */
  public List<KeyspaceSchema> keyspaces() {
    return List.copyOf(database.keyspaces().values());
  }

  private static void logLint(KeyspaceSchema keyspace) {
    for (String warning : keyspace.lint()) {
      LOG.warn("Keyspace: {}", warning);
    }
  }

  /**
   * Every table, by keyspace, then name (not those {@link #quarantinedTables() set aside} at open).
   */
  public List<Table> tables() {
    return database.tables().stream().map(this::handle).toList();
  }

  /**
   * A number that grows with every schema change of this database since it opened (a table, user
   * type or keyspace created, altered, truncated or dropped): what was prepared against the schema
   * (a CQL statement, a cached plan) is current while the number stays the same. Thread-safe.
   */
  public long schemaVersion() {
    database.checkOpen();
    return database.schemaVersion();
  }

  /**
   * The tables set aside when this database opened because their manifest is damaged — only under
   * {@link DiskFailurePolicy#QUARANTINE}; under the default FAIL such damage fails the open. Each
   * names the damaged file and the reason (also logged at ERROR). Empty when every table opened.
   */
  public List<QuarantinedTable> quarantinedTables() {
    database.checkOpen();
    return database.quarantinedTables();
  }

  /**
   * Flushes and compactions that failed because the disk was full, and their automatic retries:
   * such a failure keeps the memtable (or the compaction's inputs), deletes its partial files, and
   * is retried with a backoff until space is freed. See docs/reliability.md.
   */
  public DiskFullStats diskFullStats() {
    database.checkOpen();
    return database.diskFullStats();
  }

  /**
   * The commit log's syncs, with its stall indicator: how long the running fsync has been running
   * (see {@link CommitLogSyncStats}), and the writes that timed out waiting for one ({@link
   * WriteTimeoutException}). See docs/reliability.md.
   */
  public CommitLogSyncStats commitLogSyncStats() {
    database.checkOpen();
    return database.commitLogSyncStats();
  }

  /**
   * Starts a batch: writes to one or more tables recorded as one commit-log record (all replayed
   * after a crash, or none).
   */
  public Batch batch() {
    database.checkOpen();
    return new Batch(this);
  }

  Database database() {
    return database;
  }

  /** Time-based UUIDs from this database's clock, unique and ordered within it. */
  public TimeUuidGenerator timeUuids() {
    database.checkOpen();
    return timeUuids;
  }

  /** The clock every "now" of this database comes from. */
  public InstantSource clock() {
    return database.clock();
  }

  /**
   * Runs {@code work} on the calling thread with {@code epochSeconds} as "now" for the reads and
   * writes it makes: which expiring cells are still live and the TTL they have left, and the local
   * deletion time of the tombstones and expiring cells it writes (the {@code now_in_seconds} of
   * Cassandra's native protocol v5). Write timestamps still come from the {@link #clock()}; other
   * threads, flushes and compactions keep the clock's time. An inner call wins over an outer one.
   */
  public <T> T atNowInSeconds(long epochSeconds, Supplier<T> work) {
    return RequestTime.at(database, epochSeconds, work);
  }

  public TalusOptions options() {
    return database.options();
  }

  /** Pauses compactions at their next partition boundary; background ones wait too. */
  public void pauseCompactions() {
    database.checkOpen();
    database.pauseCompactions();
  }

  /** Resumes compactions paused by {@link #pauseCompactions()}. */
  public void resumeCompactions() {
    database.checkOpen();
    database.resumeCompactions();
  }

  private Table handle(TableHandle store) {
    // a table dropped and created again under the same name has a new handle
    TableSchema s = store.schema();
    return handles.compute(
        s.keyspace().orElseThrow() + "." + s.name(),
        (n, t) -> t != null && t.store() == store ? t : new Table(store));
  }

  /** {@code name} as the handles are keyed: {@code keyspace.table}. */
  private String qualified(String name) {
    return name.indexOf('.') < 0 ? database.options().defaultKeyspace() + "." + name : name;
  }

  /** Waits for in-flight work, releases the directory lock. Idempotent. */
  @Override
  public void close() {
    database.close();
  }
}
