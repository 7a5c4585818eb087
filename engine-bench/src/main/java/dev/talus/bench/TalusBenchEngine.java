package dev.talus.bench;

import dev.talus.ClusteringOrder;
import dev.talus.CommitLogSync;
import dev.talus.CompactionOptions;
import dev.talus.Table;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Path;

/** Talus through its public API. Thread-safe, as {@link Table} is. */
final class TalusBenchEngine implements BenchEngine {
  private final TalusDb db;
  private final Table table;
  private final Path dir;

  TalusBenchEngine(Path dir, Layout layout, CompareConfig config) {
    this.dir = dir;
    this.db = TalusDb.open(options(dir, config));
    ClusteringOrder order =
        layout == Layout.NEWEST_FIRST ? ClusteringOrder.DESC : ClusteringOrder.ASC;
    this.table = db.createTable(BenchData.schema("bench", order, compaction(config)));
  }

  static TalusOptions options(Path dir, CompareConfig config) {
    // Talus flushes the largest memtable once half the memtable space is used, so twice the
    // write-buffer size gives RocksDB's shape: one 64 MiB memtable filling while one flushes.
    // Durability matches RocksDB's: a log written but not fsynced per write (PERIODIC), or every
    // acknowledged write fsynced (GROUP commit, shared by concurrent writers, like sync=true).
    return TalusOptions.builder(dir)
        .memtableSpaceBytes(2 * config.writeBufferBytes())
        .chunkCacheBytes(config.cacheBytes())
        .commitLogSync(
            config.durability() == CompareConfig.Durability.PER_WRITE_SYNC
                ? CommitLogSync.GROUP
                : CommitLogSync.PERIODIC)
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
    table.insert().value("p", partition).value("seq", seq).value("v", value).execute();
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
    return table.select().eq("p", partition).eq("seq", seq).one().isPresent();
  }

  @Override
  public int readFirst(int partition, int n) {
    return table.select().eq("p", partition).limit(n).execute().size();
  }

  @Override
  public void flush() {
    table.flush();
  }

  /** Bytes written by flushes and by compactions, from the table's statistics. */
  @Override
  public long bytesWrittenToFiles() {
    var stats = table.stats();
    return stats.bytesFlushed() + stats.bytesCompactedWritten();
  }

  @Override
  public long diskBytes() {
    return BenchDirs.size(dir);
  }

  @Override
  public long nativeBytes() {
    return 0;
  }

  @Override
  public void close() {
    db.close();
  }
}
