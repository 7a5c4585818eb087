package dev.talus.bench.ycsb;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.atomic.AtomicBoolean;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.RocksObject;
import org.rocksdb.WriteOptions;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * A small YCSB binding for RocksDB (the upstream {@code rocksdb-binding} is not served here), in
 * the shape of upstream's: key = the YCSB key's UTF-8 bytes, value = the record's field map
 * serialized as (name length, name, value length, value)*. {@code update} reads the record, merges
 * the new fields and writes it back, as upstream does; {@code scan} seeks to the start key and
 * iterates, so workload E runs here. The {@code table} argument is ignored: YCSB uses one table.
 *
 * <p>Options as the side-by-side runner's RocksDB ({@code dev.talus.bench.RocksBenchEngine}): LZ4,
 * 64 MiB write buffer × 2, 256 MiB LRU block cache, 10-bit full Bloom filter, leveled compaction
 * (universal with {@code rocksdb.compaction=universal}), max_background_jobs=2, WAL on. Properties:
 * {@code rocksdb.dir} (required), {@code rocksdb.sync} ({@code false} default: WAL not fsynced per
 * write; {@code true}: fsync per write), {@code rocksdb.compaction} ({@code level} or {@code
 * universal}).
 *
 * <p>One RocksDB per directory per JVM, shared by the per-thread instances YCSB creates through the
 * reference-counted {@link SharedByDirectory}. An instance is used by one thread.
 */
public final class RocksYcsbClient extends DB {
  static final String DIR = "rocksdb.dir";
  static final String SYNC = "rocksdb.sync";
  static final String COMPACTION = "rocksdb.compaction";
  static final long WRITE_BUFFER_BYTES = 64L << 20;
  static final long CACHE_BYTES = 256L << 20;

  static {
    RocksDB.loadLibrary();
  }

  private static final SharedByDirectory<Engine> DATABASES = new SharedByDirectory<>();
  private static final AtomicBoolean REPORTED = new AtomicBoolean();

  /** The open database and the native objects it owns. Thread-safe, as {@link RocksDB} is. */
  static final class Engine implements AutoCloseable {
    private final List<RocksObject> owned = new ArrayList<>();
    final RocksDB db;
    final WriteOptions writeOptions;
    final ReadOptions readOptions;

    Engine(Path dir, boolean sync, boolean leveled) {
      LRUCache cache = own(new LRUCache(CACHE_BYTES));
      BloomFilter bloom = own(new BloomFilter(10, false));
      BlockBasedTableConfig table = new BlockBasedTableConfig().setBlockCache(cache);
      table.setFilterPolicy(bloom);
      Options options =
          own(new Options())
              .setCreateIfMissing(true)
              .setWriteBufferSize(WRITE_BUFFER_BYTES)
              .setMaxWriteBufferNumber(2)
              .setCompressionType(CompressionType.LZ4_COMPRESSION)
              .setCompactionStyle(leveled ? CompactionStyle.LEVEL : CompactionStyle.UNIVERSAL)
              .setMaxBackgroundJobs(2)
              .setTableFormatConfig(table);
      this.writeOptions = own(new WriteOptions()).setSync(sync).setDisableWAL(false);
      this.readOptions = own(new ReadOptions());
      try {
        this.db = RocksDB.open(options, dir.toString());
      } catch (RocksDBException e) {
        closeOwned();
        throw new IllegalStateException("cannot open RocksDB in " + dir + ": " + e.getMessage(), e);
      }
    }

    private <T extends RocksObject> T own(T o) {
      owned.add(o);
      return o;
    }

    @Override
    public void close() {
      db.close();
      closeOwned();
    }

    private void closeOwned() {
      for (int i = owned.size() - 1; i >= 0; i--) {
        owned.get(i).close();
      }
    }
  }

  /** The options in words, for the runner's header. */
  static String describe(boolean sync, boolean leveled) {
    return "write_buffer_size=64 MiB, max_write_buffer_number=2, LRU block cache=256 MiB,"
        + " bloom=10 bits/key full filter, compression=LZ4, compaction_style="
        + (leveled ? "LEVEL" : "UNIVERSAL")
        + ", max_background_jobs=2, WAL on, sync="
        + sync;
  }

  private Path dir;
  private Engine engine;

  @Override
  public void init() throws DBException {
    String d = getProperties().getProperty(DIR);
    if (d == null || d.isBlank()) {
      throw new DBException("set " + DIR + " to the data directory");
    }
    boolean sync = Boolean.parseBoolean(getProperties().getProperty(SYNC, "false"));
    String style = getProperties().getProperty(COMPACTION, "level");
    if (!style.equals("level") && !style.equals("universal")) {
      throw new DBException(COMPACTION + " must be level or universal, got " + style);
    }
    dir = Path.of(d);
    try {
      engine = DATABASES.acquire(dir, p -> new Engine(p, sync, style.equals("level")));
    } catch (RuntimeException e) {
      throw new DBException(e.getMessage(), e);
    }
  }

  @Override
  public void cleanup() throws DBException {
    if (engine == null) {
      return;
    }
    try {
      DATABASES.release(dir);
    } catch (Exception e) {
      throw new DBException("cannot close RocksDB in " + dir + ": " + e.getMessage(), e);
    } finally {
      engine = null;
    }
  }

  @Override
  public Status read(
      String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      byte[] v = engine.db.get(engine.readOptions, key(key));
      if (v == null) {
        return Status.NOT_FOUND;
      }
      decode(v, fields, result);
      return Status.OK;
    } catch (RocksDBException | RuntimeException e) {
      return error("read", e);
    }
  }

  @Override
  public Status scan(
      String table,
      String startkey,
      int recordcount,
      Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    try (RocksIterator it = engine.db.newIterator(engine.readOptions)) {
      int n = 0;
      for (it.seek(key(startkey)); it.isValid() && n < recordcount; it.next(), n++) {
        HashMap<String, ByteIterator> record = new HashMap<>();
        decode(it.value(), fields, record);
        result.add(record);
      }
      it.status();
      return Status.OK;
    } catch (RocksDBException | RuntimeException e) {
      return error("scan", e);
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    try {
      byte[] k = key(key);
      byte[] old = engine.db.get(engine.readOptions, k);
      if (old == null) {
        return Status.NOT_FOUND;
      }
      Map<String, ByteIterator> record = new HashMap<>();
      decode(old, null, record);
      record.putAll(values);
      engine.db.put(engine.writeOptions, k, encode(record));
      return Status.OK;
    } catch (RocksDBException | RuntimeException e) {
      return error("update", e);
    }
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    try {
      engine.db.put(engine.writeOptions, key(key), encode(values));
      return Status.OK;
    } catch (RocksDBException | RuntimeException e) {
      return error("insert", e);
    }
  }

  @Override
  public Status delete(String table, String key) {
    try {
      engine.db.delete(engine.writeOptions, key(key));
      return Status.OK;
    } catch (RocksDBException | RuntimeException e) {
      return error("delete", e);
    }
  }

  private static byte[] key(String key) {
    return key.getBytes(StandardCharsets.UTF_8);
  }

  /** (int name length, name UTF-8, int value length, value)* for every field. */
  static byte[] encode(Map<String, ByteIterator> values) {
    List<byte[]> parts = new ArrayList<>(2 * values.size());
    int size = 0;
    for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
      byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
      byte[] value = e.getValue().toArray();
      parts.add(name);
      parts.add(value);
      size += 8 + name.length + value.length;
    }
    ByteBuffer b = ByteBuffer.allocate(size);
    for (byte[] p : parts) {
      b.putInt(p.length).put(p);
    }
    return b.array();
  }

  /** Adds the fields of {@code record} named in {@code fields} (all if null) to {@code out}. */
  static void decode(byte[] record, Set<String> fields, Map<String, ByteIterator> out) {
    ByteBuffer b = ByteBuffer.wrap(record);
    while (b.hasRemaining()) {
      int nameLength = b.getInt();
      String name = new String(record, b.position(), nameLength, StandardCharsets.UTF_8);
      b.position(b.position() + nameLength);
      int valueLength = b.getInt();
      if (fields == null || fields.contains(name)) {
        out.put(name, new ByteArrayByteIterator(record, b.position(), valueLength));
      }
      b.position(b.position() + valueLength);
    }
  }

  private static Status error(String op, Exception e) {
    if (REPORTED.compareAndSet(false, true)) {
      System.err.println("rocksdb binding: first failed " + op + ": " + e);
    }
    return Status.ERROR;
  }
}
