package dev.talus.bench;

import dev.talus.ClusteringOrder;
import dev.talus.CommitLogSync;
import dev.talus.CompactionOptions;
import dev.talus.PreparedInsert;
import dev.talus.PreparedSelect;
import dev.talus.Select;
import dev.talus.Table;
import dev.talus.TableStats;
import dev.talus.TalusDb;
import dev.talus.TalusMetricsListener;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/** Talus through its public API. Thread-safe, as {@link Table} is. */
final class TalusBenchEngine implements BenchEngine {
  private final TalusDb db;
  private final Table table;
  private final Path dir;
  private final SourceRecorder sources = new SourceRecorder();

  /** Reads and writes are prepared once, as an application (or a CQL driver) would prepare them. */
  private final PreparedSelect pointRead;

  private final PreparedInsert put;

  private final Map<Integer, PreparedSelect> firstRows = new ConcurrentHashMap<>();

  TalusBenchEngine(Path dir, Layout layout, CompareConfig config) {
    this.dir = dir;
    this.db = TalusDb.open(options(dir, config, sources));
    ClusteringOrder order =
        layout == Layout.NEWEST_FIRST ? ClusteringOrder.DESC : ClusteringOrder.ASC;
    this.table = db.createTable(BenchData.schema("bench", order, compaction(config)));
    this.pointRead = table.select().eq("p", Select.marker()).eq("seq", Select.marker()).prepare();
    this.put =
        table
            .insert()
            .value("p", Select.marker())
            .value("seq", Select.marker())
            .value("v", Select.marker())
            .prepare();
  }

  static TalusOptions options(Path dir, CompareConfig config) {
    return options(dir, config, TalusMetricsListener.NO_OP);
  }

  private static TalusOptions options(
      Path dir, CompareConfig config, TalusMetricsListener listener) {
    // Talus flushes the largest memtable once half the memtable space is used, so twice the
    // write-buffer size gives RocksDB's shape: one 64 MiB memtable filling while one flushes.
    // Durability matches RocksDB's: a log written but not fsynced per write (PERIODIC), or every
    // acknowledged write fsynced: GROUP commit (fsyncs every 2 ms window, shared by the writers
    // waiting) or BATCH (an fsync as soon as the last ends, shared like RocksDB's write groups).
    return TalusOptions.builder(dir)
        .memtableSpaceBytes(2 * config.writeBufferBytes())
        .chunkCacheBytes(config.cacheBytes())
        .commitLogSync(
            switch (config.durability()) {
              case WAL_NO_SYNC -> CommitLogSync.PERIODIC;
              case PER_WRITE_SYNC -> CommitLogSync.GROUP;
              case PER_WRITE_SYNC_BATCH -> CommitLogSync.BATCH;
            })
        .metricsListener(listener)
        .build();
  }

  /** The configured strategy (leveled, or size-tiered against RocksDB's universal). */
  static CompactionOptions compaction(CompareConfig config) {
    return switch (config.compaction()) {
      case LEVELED -> CompactionOptions.leveled().build();
      case SIZE_TIERED -> CompactionOptions.sizeTiered().build();
    };
  }

  @Override
  public String name() {
    return "talus";
  }

  @Override
  public void put(int partition, long seq, byte[] value) {
    put.execute(partition, seq, value);
  }

  @Override
  public void delete(int partition, long seq) {
    table.delete().eq("p", partition).eq("seq", seq).execute();
  }

  @Override
  public void deleteRange(int partition, long fromSeq, long toSeq) {
    table.delete().eq("p", partition).ge("seq", fromSeq).lt("seq", toSeq).execute();
  }

  @Override
  public boolean get(int partition, long seq) {
    return pointRead.one(partition, seq).isPresent();
  }

  @Override
  public int readFirst(int partition, int n) {
    PreparedSelect first =
        firstRows.computeIfAbsent(
            n, k -> table.select().eq("p", Select.marker()).limit(k).prepare());
    return first.execute(partition).size();
  }

  /** Flushes, then waits until no compaction runs and the strategy proposes none. */
  @Override
  public void flush() {
    table.flush();
    table.awaitCompactions();
  }

  /** Bytes written by flushes and by compactions (all SSTable components), from its statistics. */
  @Override
  public long bytesWrittenToFiles() {
    TableStats stats = table.stats();
    return stats.bytesFlushed() + stats.bytesCompactedWritten();
  }

  @Override
  public long diskBytes() {
    return BenchDirs.size(dir);
  }

  @Override
  public EngineState state() {
    TableStats s = table.stats();
    int levels = 1;
    for (int l : s.sstablesPerLevel().keySet()) {
      levels = Math.max(levels, l + 1);
    }
    int[] count = new int[levels];
    long[] bytes = new long[levels];
    for (Map.Entry<Integer, Integer> e : s.sstablesPerLevel().entrySet()) {
      count[e.getKey()] = e.getValue();
      bytes[e.getKey()] = s.bytesPerLevel().getOrDefault(e.getKey(), 0L);
    }
    return new EngineState(
        count, bytes, s.memtableBytes(), s.memtableBytes(), 0, 0, s.sstableHeapBytes(), false);
  }

  @Override
  public void resetReadSources() {
    sources.recorder.reset();
  }

  @Override
  public ReadSources readSources(long reads, boolean gets) {
    Histogram h = sources.recorder.getIntervalHistogram();
    if (h.getTotalCount() == 0) {
      return ReadSources.NONE;
    }
    return new ReadSources(
        h.getTotalCount(),
        h.getMean(),
        h.getValueAtPercentile(50),
        h.getValueAtPercentile(99),
        h.getMaxValue(),
        "memtables + SSTables merged per partition read");
  }

  @Override
  public void close() {
    db.close();
  }

  /** Records every read's merged sources, from the engine's metrics events. Thread-safe. */
  private static final class SourceRecorder implements TalusMetricsListener {
    final Recorder recorder = new Recorder(3);

    @Override
    public void onRead(String t, long micros, int sstablesTouched, int tombstonesScanned) {
      recorder.recordValue(Math.max(0, sstablesTouched));
    }
  }
}
