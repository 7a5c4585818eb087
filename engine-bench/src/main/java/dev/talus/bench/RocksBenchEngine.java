package dev.talus.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.LevelMetaData;
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

  /** RocksDB's default {@code num_levels}. */
  static final int NUM_LEVELS = 7;

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
            .setSync(config.durability() != CompareConfig.Durability.WAL_NO_SYNC)
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
        + (config.durability() != CompareConfig.Durability.WAL_NO_SYNC)
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

  /** Flushes, then waits until no compaction or flush runs or is pending. */
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
  public EngineState state() {
    int[] count = new int[NUM_LEVELS];
    long[] bytes = new long[NUM_LEVELS];
    for (LevelMetaData level : db.getColumnFamilyMetaData().levels()) {
      if (level.level() < NUM_LEVELS) {
        count[level.level()] = level.files().size();
        bytes[level.level()] = level.size();
      }
    }
    return new EngineState(
        count,
        bytes,
        longProperty("rocksdb.size-all-mem-tables"),
        longProperty("rocksdb.cur-size-all-mem-tables"),
        longProperty("rocksdb.block-cache-usage"),
        longProperty("rocksdb.block-cache-pinned-usage"),
        longProperty("rocksdb.estimate-table-readers-mem"),
        true);
  }

  private long longProperty(String name) {
    try {
      return db.getLongProperty(name);
    } catch (RocksDBException e) {
      throw new IllegalStateException("RocksDB property " + name + ": " + e.getMessage(), e);
    }
  }

  /** The tickers {@link #readSources} reads, in order. */
  private static final TickerType[] READ_TICKERS = {
    TickerType.BLOOM_FILTER_FULL_POSITIVE,
    TickerType.BLOOM_FILTER_USEFUL,
    TickerType.MEMTABLE_HIT,
    TickerType.GET_HIT_L0,
    TickerType.GET_HIT_L1,
    TickerType.GET_HIT_L2_AND_UP
  };

  private long[] readTickersAtReset = new long[READ_TICKERS.length];

  @Override
  public void resetReadSources() {
    long[] now = new long[READ_TICKERS.length];
    for (int i = 0; i < now.length; i++) {
      now[i] = statistics.getTickerCount(READ_TICKERS[i]);
    }
    readTickersAtReset = now;
  }

  @Override
  public ReadSources readSources(long reads, boolean gets) {
    if (!gets) {
      return new ReadSources(
          0,
          Double.NaN,
          -1,
          -1,
          -1,
          "iterators merge the memtables + " + state().sortedRuns() + " sorted runs");
    }
    long[] d = new long[READ_TICKERS.length];
    for (int i = 0; i < d.length; i++) {
      d[i] = statistics.getTickerCount(READ_TICKERS[i]) - readTickersAtReset[i];
    }
    double n = Math.max(1, reads);
    return new ReadSources(
        reads,
        d[0] / n,
        -1,
        -1,
        -1,
        String.format(
            Locale.ROOT,
            "SST files searched per get (Bloom filter positive); filters checked %.2f/get;"
                + " found in memtable %.0f%%, L0 %.0f%%, L1 %.0f%%, L2+ %.0f%%",
            (d[0] + d[1]) / n,
            100 * d[2] / n,
            100 * d[3] / n,
            100 * d[4] / n,
            100 * d[5] / n));
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
