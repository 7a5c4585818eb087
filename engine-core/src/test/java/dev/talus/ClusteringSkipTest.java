package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads skip SSTables whose clustering range misses the slice, unless they hold deletions. */
class ClusteringSkipTest {
  @TempDir Path dir;

  @Test
  void aSliceTouchesOnlyTheSSTablesWhoseClusteringRangeItMeets() {
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build())) {
      Table t =
          db.createTable(
              TableSchema.builder("ts")
                  .partitionKey("p", DataType.INT)
                  .clusteringColumn("c", DataType.INT)
                  .column("v", DataType.INT)
                  .build());
      for (int file = 0; file < 3; file++) {
        for (int c = file * 100; c < file * 100 + 100; c++) {
          t.insert().value("p", 1).value("c", c).value("v", c).execute();
        }
        t.flush();
      }
      long before = t.stats().sstablesPerRead().count();
      assertThat(t.select().eq("p", 1).ge("c", 210).lt("c", 220).execute().size()).isEqualTo(10);
      assertThat(t.stats().sstablesPerRead().count()).isEqualTo(before + 1);
      assertThat(t.stats().sstablesPerRead().max()).isEqualTo(1);

      // a range deletion in an SSTable makes it relevant to every slice of its partitions
      t.delete().eq("p", 1).lt("c", 5).execute();
      t.flush();
      assertThat(t.select().eq("p", 1).ge("c", 0).lt("c", 10).execute().size()).isEqualTo(5);
      assertThat(t.select().eq("p", 1).ge("c", 210).lt("c", 220).execute().size()).isEqualTo(10);
      assertThat(t.stats().sstablesPerRead().max()).isEqualTo(2);
    }
  }
}
