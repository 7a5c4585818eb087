package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The memory a table reports: its memtables' heap, then its SSTables' heap once flushed. */
class TableMemoryStatsTest {
  @TempDir Path dir;

  @Test
  void memtableBytesMoveToSSTableHeapBytesOnFlushAndGoWithTheSSTables() {
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).build())) {
      Table t =
          db.createTable(
              TableSchema.builder("m")
                  .partitionKey("p", DataType.INT)
                  .clusteringColumn("c", DataType.INT)
                  .column("v", DataType.TEXT)
                  .build());
      int partitions = 5_000;
      for (int p = 0; p < partitions; p++) {
        t.insert().value("p", p).value("c", 1).value("v", "x".repeat(50)).execute();
      }
      TableStats before = t.stats();
      // each row holds at least its 50-byte value and the partition its key and map entry
      assertThat(before.memtableBytes()).isGreaterThan(partitions * 100L);
      assertThat(before.sstableHeapBytes()).isZero();

      t.flush();
      TableStats after = t.stats();
      assertThat(after.memtableBytes()).isZero();
      // at least the Bloom filter: about 9.6 bits per partition at the default 1% chance
      assertThat(after.sstableHeapBytes()).isGreaterThan(partitions * 9L / 8);
      // but far less than the data: samples of every 128th key, 8 bytes per 16 KiB chunk
      assertThat(after.sstableHeapBytes()).isLessThan(before.memtableBytes() / 10);

      t.truncate();
      assertThat(t.stats().sstableHeapBytes()).isZero();
    }
  }
}
