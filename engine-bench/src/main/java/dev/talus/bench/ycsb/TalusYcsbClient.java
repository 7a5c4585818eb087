package dev.talus.bench.ycsb;

import dev.talus.ColumnDef;
import dev.talus.CommitLogSync;
import dev.talus.CompactionOptions;
import dev.talus.Compression;
import dev.talus.DataType;
import dev.talus.Insert;
import dev.talus.PreparedInsert;
import dev.talus.PreparedSelect;
import dev.talus.ResultRow;
import dev.talus.Select;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.atomic.AtomicBoolean;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * A YCSB binding for Talus, in the shape of YCSB's Cassandra binding: a record is one row of {@code
 * usertable(ycsb_key text PRIMARY KEY, field0 blob, ..., field9 blob)} (table name from {@code
 * table}, column count and prefix from {@code fieldcount} and {@code fieldnameprefix}). {@code
 * insert} is an INSERT, {@code update} an UPDATE of the given columns, {@code delete} a partition
 * delete.
 *
 * <p>{@code scan} reads {@code recordcount} records from the start key on in token order, as YCSB's
 * Cassandra binding does ({@code WHERE token(y_id) >= token(?) LIMIT ?}): Talus, like Cassandra,
 * orders partitions by token, not by key, so the records a scan returns are the start key's and
 * those whose tokens follow it, not the next keys in key order (RocksDB's binding seeks in key
 * order). The work per scan is the same: one seek and {@code recordcount} records.
 *
 * <p>Properties: {@code talus.dir} (required), {@code talus.sync} ({@code periodic} default, {@code
 * group}, {@code batch}), {@code talus.compaction} ({@code lcs} default, {@code stcs}). The engine
 * is opened with the memory budget of the side-by-side runner: 2 × 64 MiB memtable space (one
 * memtable filling while one flushes, like RocksDB's two 64 MiB write buffers), a 256 MiB chunk
 * cache, LZ4 chunks and a 1% Bloom filter.
 *
 * <p>Reads and inserts of the table are prepared once per set of fields and bound per call ({@link
 * PreparedSelect}, {@link PreparedInsert}), as YCSB's Cassandra binding caches its prepared
 * statements per field set; updates, deletes and scans use the builders.
 *
 * <p>YCSB makes one instance per client thread; all instances on one directory share one {@link
 * TalusDb} through a static reference-counted holder ({@link SharedByDirectory}), opened by the
 * first {@code init()} and closed by the last {@code cleanup()}. An instance is used by one thread.
 */
public final class TalusYcsbClient extends DB {
  static final String DIR = "talus.dir";
  static final String SYNC = "talus.sync";
  static final String COMPACTION = "talus.compaction";
  static final String KEY = "ycsb_key";
  static final long MEMTABLE_SPACE_BYTES = 2 * (64L << 20);
  static final long CHUNK_CACHE_BYTES = 256L << 20;

  static final SharedByDirectory<TalusDb> DATABASES = new SharedByDirectory<>();
  private static final AtomicBoolean REPORTED = new AtomicBoolean();

  private Path dir;
  private TalusDb db;
  private String tableName;
  private Table table;

  /** This thread's prepared reads by field set (null: all fields) and inserts by field order. */
  private final Map<Set<String>, PreparedSelect> reads = new HashMap<>();

  private final Map<List<String>, PreparedInsert> inserts = new HashMap<>();

  @Override
  public void init() throws DBException {
    String d = getProperties().getProperty(DIR);
    if (d == null || d.isBlank()) {
      throw new DBException("set " + DIR + " to the data directory");
    }
    CommitLogSync sync = sync(getProperties().getProperty(SYNC, "periodic"));
    CompactionOptions compaction = compaction(getProperties().getProperty(COMPACTION, "lcs"));
    dir = Path.of(d);
    try {
      db = DATABASES.acquire(dir, p -> TalusDb.open(options(p, sync)));
      synchronized (db) {
        table = db.createTableIfNotExists(schema(getProperties(), compaction));
      }
    } catch (RuntimeException e) {
      if (db != null) {
        release();
      }
      throw new DBException("cannot open Talus in " + dir + ": " + e.getMessage(), e);
    }
    tableName = table.name();
  }

  static TalusOptions options(Path dir, CommitLogSync sync) {
    TalusOptions.Builder b =
        TalusOptions.builder(dir)
            .memtableSpaceBytes(MEMTABLE_SPACE_BYTES)
            .chunkCacheBytes(CHUNK_CACHE_BYTES)
            .commitLogSync(sync);
    if (ReadTimeline.enabled()) {
      b.metricsListener(ReadTimeline.LISTENER);
    }
    return b.build();
  }

  static TableSchema schema(java.util.Properties p, CompactionOptions compaction) {
    int fieldCount = Integer.parseInt(p.getProperty("fieldcount", "10"));
    String prefix = p.getProperty("fieldnameprefix", "field");
    TableSchema.Builder b =
        TableSchema.builder(p.getProperty("table", "usertable"))
            .partitionKey(KEY, DataType.TEXT)
            .compression(Compression.LZ4)
            .bloomFilterFpChance(0.01)
            .compaction(compaction);
    for (int i = 0; i < fieldCount; i++) {
      b.column(prefix + i, DataType.BLOB);
    }
    return b.build();
  }

  static CommitLogSync sync(String s) throws DBException {
    return switch (s.trim().toLowerCase(java.util.Locale.ROOT)) {
      case "periodic" -> CommitLogSync.PERIODIC;
      case "group" -> CommitLogSync.GROUP;
      case "batch" -> CommitLogSync.BATCH;
      default -> throw new DBException(SYNC + " must be periodic, group or batch, got " + s);
    };
  }

  static CompactionOptions compaction(String s) throws DBException {
    return switch (s.trim().toLowerCase(java.util.Locale.ROOT)) {
      case "lcs" -> CompactionOptions.leveled().build();
      case "stcs" -> CompactionOptions.sizeTiered().build();
      default -> throw new DBException(COMPACTION + " must be lcs or stcs, got " + s);
    };
  }

  @Override
  public void cleanup() throws DBException {
    if (db != null) {
      release();
    }
  }

  private void release() throws DBException {
    try {
      DATABASES.release(dir);
    } catch (Exception e) {
      throw new DBException("cannot close Talus in " + dir + ": " + e.getMessage(), e);
    } finally {
      db = null;
      table = null;
    }
  }

  @Override
  public Status read(String t, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      var row =
          t.equals(tableName)
              ? preparedRead(fields).one(key)
              : select(table(t), fields).eq(KEY, key).one();
      if (row.isEmpty()) {
        return Status.NOT_FOUND;
      }
      copy(row.get(), fields, result);
      return Status.OK;
    } catch (RuntimeException e) {
      return error("read", e);
    }
  }

  /** The prepared read of {@code fields} (null: all), kept under a copy of the set. */
  private PreparedSelect preparedRead(Set<String> fields) {
    PreparedSelect p = reads.get(fields);
    if (p == null) {
      p = select(table, fields).eq(KEY, Select.marker()).prepare();
      reads.put(fields == null ? null : Set.copyOf(fields), p);
    }
    return p;
  }

  /** A read of {@code fields} (null: all) of one key; the caller adds the key restriction. */
  private static Select select(Table tbl, Set<String> fields) {
    Select s = tbl.select();
    if (fields != null) {
      s.columns(fields.toArray(new String[0]));
    }
    return s;
  }

  private void copy(ResultRow row, Set<String> fields, Map<String, ByteIterator> result) {
    if (fields != null) {
      for (String f : fields) {
        byte[] v = row.getBytes(f);
        if (v != null) {
          result.put(f, new ByteArrayByteIterator(v));
        }
      }
      return;
    }
    for (ColumnDef c : table.schema().regularColumns()) {
      byte[] v = row.getBytes(c.name());
      if (v != null) {
        result.put(c.name(), new ByteArrayByteIterator(v));
      }
    }
  }

  /** {@code recordcount} records in token order from the start key's (see the class comment). */
  @Override
  public Status scan(
      String t,
      String startkey,
      int recordcount,
      Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    try {
      Table tbl = table(t);
      Select s = tbl.select().tokenGe(tbl.token(startkey)).limit(recordcount);
      if (fields != null) {
        s.columns(fields.toArray(new String[0]));
      }
      for (ResultRow row : s.execute()) {
        HashMap<String, ByteIterator> values = new HashMap<>();
        copy(row, fields, values);
        result.add(values);
      }
      return Status.OK;
    } catch (RuntimeException e) {
      return error("scan", e);
    }
  }

  @Override
  public Status update(String t, String key, Map<String, ByteIterator> values) {
    try {
      var u = table(t).update().where(KEY, key);
      for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
        u.set(e.getKey(), e.getValue().toArray());
      }
      u.execute();
      return Status.OK;
    } catch (RuntimeException e) {
      return error("update", e);
    }
  }

  @Override
  public Status insert(String t, String key, Map<String, ByteIterator> values) {
    try {
      if (!t.equals(tableName)) {
        var i = table(t).insert().value(KEY, key);
        for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
          i.value(e.getKey(), e.getValue().toArray());
        }
        i.execute();
        return Status.OK;
      }
      List<String> names = new ArrayList<>(values.size());
      Object[] bound = new Object[values.size() + 1];
      bound[0] = key;
      for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
        names.add(e.getKey());
        bound[names.size()] = e.getValue().toArray();
      }
      inserts.computeIfAbsent(names, this::prepareInsert).execute(bound);
      return Status.OK;
    } catch (RuntimeException e) {
      return error("insert", e);
    }
  }

  @Override
  public Status delete(String t, String key) {
    try {
      table(t).delete().eq(KEY, key).execute();
      return Status.OK;
    } catch (RuntimeException e) {
      return error("delete", e);
    }
  }

  /** An insert of the key and {@code fields}, in that order, every value a marker. */
  private PreparedInsert prepareInsert(List<String> fields) {
    Insert i = table.insert().value(KEY, Select.marker());
    for (String f : fields) {
      i.value(f, Select.marker());
    }
    return i.prepare();
  }

  private Table table(String t) {
    return t.equals(tableName) ? table : db.table(t);
  }

  /** Reports the first failure of the process on stderr (YCSB only counts them). */
  private static Status error(String op, RuntimeException e) {
    if (REPORTED.compareAndSet(false, true)) {
      System.err.println("talus binding: first failed " + op + ": " + e);
    }
    return Status.ERROR;
  }
}
