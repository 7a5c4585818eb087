package dev.talus.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.RocksObject;
import org.rocksdb.Statistics;
import org.rocksdb.TickerType;
import org.rocksdb.WriteOptions;

/**
 * RocksDB through RocksJava, with the options {@link #describe} prints: the reference engine of the
 * side-by-side runner. Thread-safe, as {@link RocksDB} is.
 */
final class RocksBenchEngine implements BenchEngine {
  static {
    RocksDB.loadLibrary();
  }

  private final Path dir;
  private final Layout layout;
  private final List<RocksObject> owned = new ArrayList<>();
  private final Statistics statistics;
  private final WriteOptions writeOptions;
  private final ReadOptions readOptions;
  private final RocksDB db;

  RocksBenchEngine(Path dir, Layout layout, CompareConfig config) {
    this.dir = dir;
    this.layout = layout;
    this.statistics = own(new Statistics());
    LRUCache cache = own(new LRUCache(config.cacheBytes()));
    BloomFilter bloom = own(new BloomFilter(10, false));
    BlockBasedTableConfig table = new BlockBasedTableConfig().setBlockCache(cache);
    table.setFilterPolicy(bloom);
    Options options =
        own(new Options())
            .setCreateIfMissing(true)
            .setWriteBufferSize(config.writeBufferBytes())
            .setMaxWriteBufferNumber(2)
            .setCompressionType(CompressionType.LZ4_COMPRESSION)
            .setCompactionStyle(
                config.compaction() == CompareConfig.Compaction.LEVELED
                    ? CompactionStyle.LEVEL
                    : CompactionStyle.UNIVERSAL)
            .setMaxBackgroundJobs(2)
            .setStatistics(statistics)
            .setTableFormatConfig(table);
    // WAL on; fsynced per write only in the durable setting (Talus then runs GROUP commit).
    this.writeOptions =
        own(new WriteOptions())
            .setSync(config.durability() == CompareConfig.Durability.PER_WRITE_SYNC)
            .setDisableWAL(false);
    this.readOptions = own(new ReadOptions());
    try {
      this.db = RocksDB.open(options, dir.toString());
    } catch (RocksDBException e) {
      closeOwned();
      throw new IllegalStateException("cannot open RocksDB in " + dir + ": " + e.getMessage(), e);
    }
  }

  /** The options in words, for the console and the JSON, so the comparison can be checked. */
  static String describe(CompareConfig config) {
    return "write_buffer_size="
        + config.writeBufferBytes()
        + ", max_write_buffer_number=2, LRU block cache="
        + config.cacheBytes()
        + ", block_size=4096 (default), bloom=10 bits/key full filter (whole key), compression=LZ4,"
        + " compaction_style="
        + (config.compaction() == CompareConfig.Compaction.LEVELED ? "LEVEL" : "UNIVERSAL")
        + " (level_compaction_dynamic_level_bytes default), max_background_jobs=2, WAL on,"
        + " sync="
        + (config.durability() == CompareConfig.Durability.PER_WRITE_SYNC)
        + ", statistics on";
  }

  private <T extends RocksObject> T own(T o) {
    owned.add(o);
    return o;
  }

  @Override
  public String name() {
    return "rocksdb";
  }

  @Override
  public void put(int partition, long seq, byte[] value) {
    try {
      db.put(writeOptions, RocksKeys.key(partition, seq, layout), value);
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void delete(int partition, long seq) {
    try {
      db.delete(writeOptions, RocksKeys.key(partition, seq, layout));
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void deleteRange(int partition, long fromSeq, long toSeq) {
    byte[] begin;
    byte[] end;
    if (layout == Layout.OLDEST_FIRST) {
      begin = RocksKeys.key(partition, fromSeq, layout);
      end = RocksKeys.key(partition, toSeq, layout);
    } else {
      begin = RocksKeys.key(partition, toSeq - 1, layout);
      end = RocksKeys.key(partition, fromSeq - 1, layout);
    }
    try {
      db.deleteRange(writeOptions, begin, end);
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public boolean get(int partition, long seq) {
    try {
      return db.get(readOptions, RocksKeys.key(partition, seq, layout)) != null;
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public int readFirst(int partition, int n) {
    byte[] prefix = RocksKeys.prefix(partition);
    int count = 0;
    try (RocksIterator it = db.newIterator(readOptions)) {
      for (it.seek(prefix); it.isValid() && count < n; it.next()) {
        if (!RocksKeys.hasPrefix(it.key(), prefix)) {
          break;
        }
        if (it.value() != null) {
          count++;
        }
      }
    }
    return count;
  }

  @Override
  public void flush() {
    try (FlushOptions f = new FlushOptions().setWaitForFlush(true)) {
      db.flush(f);
      // RocksJava 10.10 has no waitForCompact: poll until no compaction runs or is pending.
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
      while (System.nanoTime() < deadline
          && (db.getLongProperty("rocksdb.num-running-compactions") > 0
              || db.getLongProperty("rocksdb.compaction-pending") > 0
              || db.getLongProperty("rocksdb.num-running-flushes") > 0)) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
      }
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public long bytesWrittenToFiles() {
    return statistics.getTickerCount(TickerType.FLUSH_WRITE_BYTES)
        + statistics.getTickerCount(TickerType.COMPACT_WRITE_BYTES);
  }

  @Override
  public long diskBytes() {
    return BenchDirs.size(dir);
  }

  @Override
  public long nativeBytes() {
    try {
      return db.getLongProperty("rocksdb.cur-size-all-mem-tables")
          + db.getLongProperty("rocksdb.block-cache-usage")
          + db.getLongProperty("rocksdb.estimate-table-readers-mem");
    } catch (RocksDBException e) {
      return 0;
    }
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
