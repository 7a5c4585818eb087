package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.sstable.SeekAllowance;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LevelDB's seek compaction under leveled compaction: two L0 SSTables stay below the L0 trigger
 * while only written, but once reads that must merge both have used up the allowance of one, the
 * strategy compacts L0 away; reads that need one SSTable only charge nothing. The test runs
 * compactions on its own thread (no background compaction), so it sees each decision.
 */
class SeekCompactionTest {
  @TempDir Path dir;

  private TalusDb db;
  private Table t;

  @BeforeEach
  void open() {
    db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build());
    t =
        db.createTable(
            TableSchema.builder("seeks")
                .partitionKey("p", DataType.INT)
                .clusteringColumn("c", DataType.INT)
                .column("v", DataType.TEXT)
                .compaction(CompactionOptions.leveled().build())
                .build());
    for (int p = 0; p < 20; p++) {
      t.insert().value("p", p).value("c", 1).value("v", "old").execute();
    }
    t.flush();
    for (int p = 0; p < 20; p++) {
      t.insert().value("p", p).value("c", 2).value("v", "new").execute();
    }
    t.flush();
  }

  @AfterEach
  void close() {
    db.close();
  }

  private long l0() {
    return t.sstables().stream().filter(s -> s.level() == 0).count();
  }

  @Test
  void readsMergingTwoL0SSTablesCompactThemOnceTheAllowanceIsUsedUp() {
    assertThat(l0()).isEqualTo(2);
    assertThat(t.runNextCompaction()).as("two L0 SSTables are below the trigger").isFalse();
    for (int i = 1; i < SeekAllowance.MINIMUM; i++) {
      assertThat(t.select().eq("p", i % 20).execute().size()).isEqualTo(2); // merges both
    }
    assertThat(t.runNextCompaction()).as("one read short of the allowance").isFalse();
    assertThat(t.select().eq("p", 0).execute().size()).isEqualTo(2);
    assertThat(t.runNextCompaction()).isTrue();
    assertThat(l0()).isZero();
    for (int p = 0; p < 20; p++) {
      assertThat(t.select().eq("p", p).execute().size()).isEqualTo(2);
    }
  }

  @Test
  void namedRowReadsThatOneSSTableAnswersChargeNothing() {
    for (int i = 0; i < 3 * SeekAllowance.MINIMUM; i++) {
      // the row filters leave one SSTable for each named row
      assertThat(t.select().eq("p", i % 20).eq("c", 1 + i % 2).execute().size()).isEqualTo(1);
    }
    assertThat(t.runNextCompaction()).isFalse();
    assertThat(l0()).isEqualTo(2);
  }
}
