package dev.talus.bench;

import dev.talus.ClusteringOrder;
import dev.talus.CompactionOptions;
import dev.talus.Table;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Path;

/**
 * A Talus database in a fresh directory under {@link BenchDirs#base()} for one JMH trial or
 * iteration, with the tables the benchmarks use; {@link #close()} closes it and deletes the
 * directory. Thread-safe as {@link TalusDb} is.
 */
final class TalusFixture implements AutoCloseable {
  final Path dir;
  final TalusDb db;
  final BenchData data = new BenchData(42);

  /** The default size of the index write buffer. */
  private static final long INDEX_WRITE_BUFFER =
      TalusOptions.builder(Path.of(".")).build().indexWriteBufferBytes();

  TalusFixture(String name, long memtableSpaceBytes) {
    this(name, memtableSpaceBytes, INDEX_WRITE_BUFFER);
  }

  /** Like {@link #TalusFixture(String, long)}, with a chunk cache of {@code cacheBytes}. */
  static TalusFixture withCache(String name, long memtableSpaceBytes, long cacheBytes) {
    return new TalusFixture(name, memtableSpaceBytes, INDEX_WRITE_BUFFER, cacheBytes);
  }

  /**
   * Like {@link #TalusFixture(String, long)}, with {@code indexWriteBufferBytes} of index terms.
   */
  TalusFixture(String name, long memtableSpaceBytes, long indexWriteBufferBytes) {
    this(name, memtableSpaceBytes, indexWriteBufferBytes, 256L << 20);
  }

  private TalusFixture(
      String name, long memtableSpaceBytes, long indexWriteBufferBytes, long cacheBytes) {
    this.dir = BenchDirs.create(name + "-");
    this.db =
        TalusDb.open(
            TalusOptions.builder(dir)
                .memtableSpaceBytes(memtableSpaceBytes)
                .chunkCacheBytes(cacheBytes)
                .indexWriteBufferBytes(indexWriteBufferBytes)
                .build());
  }

  /** A table {@code (p int, seq bigint, v blob)} in {@code order}, LZ4, 1% Bloom filter. */
  Table table(String name, ClusteringOrder order) {
    return db.createTable(BenchData.schema(name, order, CompactionOptions.defaults()));
  }

  void insert(Table t, int partition, long seq) {
    t.insert()
        .value("p", partition)
        .value("seq", seq)
        .value("v", data.value(partition * 1_000_003L + seq))
        .execute();
  }

  /** Writes {@code partitions × rows} rows (seq 0..rows-1), row by row across partitions. */
  void fill(Table t, int partitions, int rows) {
    for (int r = 0; r < rows; r++) {
      for (int p = 0; p < partitions; p++) {
        insert(t, p, r);
      }
    }
  }

  @Override
  public void close() {
    try {
      db.close();
    } finally {
      BenchDirs.delete(dir);
    }
  }
}
