package dev.talus.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.IndexDef;
import dev.talus.IndexStatus;
import dev.talus.ManualClock;
import dev.talus.Table;
import dev.talus.TalusDb;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StatsCommandTest {
  @TempDir Path dir;

  @BeforeEach
  void write() {
    Fixtures.write(dir);
  }

  @Test
  void statsOfEveryTablePrintsEveryField() {
    Cli.Result r = Cli.run("stats", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains("Total number of tables: 2")
        .contains("Table: queue")
        .contains("Table: readings")
        .contains("\tSSTable count: 2")
        .contains("\tSSTables in each level: [L0: 2]")
        .contains("\tSpace used (live): ")
        .contains("KiB")
        .contains("\tCompaction strategy: SizeTieredStrategy{")
        .contains("\tMemtable flushes: ")
        .contains("\tLocal write latency: ")
        .contains("\tLocal read latency: (none recorded)")
        .contains("\tTombstones per read: ")
        .contains("\tPending compactions: ")
        .contains("\tSSTables dropped whole (expired): 0")
        .contains("\tTombstones purged: 0")
        .contains("\tEstimated droppable tombstones: ")
        .contains("\tBloom filter false ratio: ")
        .contains("\tOut-of-order flushes (TWCS): 0");
    assertThat(r.out().indexOf("Table: queue")).isLessThan(r.out().indexOf("Table: readings"));
  }

  @Test
  void statsPrintEachIndexWithItsStateSizeAndCoverage() throws InterruptedException {
    try (TalusDb db = Fixtures.open(dir, new ManualClock(Fixtures.T0))) {
      Table t = db.table("readings");
      t.createIndex(IndexDef.sai("readings_value", "value"));
      assertThat(t.awaitIndexBuilt("readings_value", Duration.ofMinutes(2))).isTrue();
    }
    Cli.Result r = Cli.run("stats", dir.toString(), "readings");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains("\tIndexes: 1")
        .containsPattern(
            "(?m)^\tIndex readings_value on value: QUERYABLE; covers 2/2 live"
                + " SSTables; size [0-9.]+ (bytes|KiB) \\(row-key maps, shared by the table's"
                + " indexes: [0-9.]+ (bytes|KiB)\\); reads served 0$");
    assertThat(Cli.run("stats", dir.toString(), "queue").out()).contains("\tIndexes: 0");
  }

  @Test
  void aBuildingOrFailedIndexShowsItsProgressAndReason() {
    IndexStatus building =
        new IndexStatus("i", "v", IndexStatus.State.BUILDING, 1, 3, 1, 3, 10, 20, 0, null);
    assertThat(StatsCommand.index(building))
        .isEqualTo(
            "BUILDING (1/3 SSTables built); covers 1/3 live SSTables; size 10 bytes (row-key maps,"
                + " shared by the table's indexes: 20 bytes); reads served 0");
    IndexStatus failed =
        new IndexStatus("i", "v", IndexStatus.State.FAILED, 0, 3, 0, 3, 0, 0, 0, "disk error");
    assertThat(StatsCommand.index(failed))
        .startsWith("FAILED (0/3 SSTables built); covers 0/3")
        .endsWith("; reads served 0; failed: disk error");
  }

  @Test
  void statsOfOneTable() {
    Cli.Result r = Cli.run("stats", dir.toString(), "readings");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out()).contains("Total number of tables: 1").doesNotContain("Table: queue");
  }

  @Test
  void histogramsPrintTheNodetoolTable() {
    Cli.Result r = Cli.run("histograms", dir.toString(), "readings");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains("readings histograms")
        .contains("Percentile")
        .contains("Partition Size")
        .contains("Cell Count")
        .contains("(bytes)");
    for (String p : new String[] {"50%", "75%", "95%", "98%", "99%", "Max"}) {
      assertThat(r.out()).containsPattern("(?m)^" + p + " +-? *\\S");
    }
    // s-1 holds 50 cells in the first SSTable: the max cell count shows it (log buckets: ±20%)
    String max = r.out().lines().filter(l -> l.startsWith("Max")).findFirst().orElseThrow();
    String[] cols = max.trim().split(" +");
    assertThat(Long.parseLong(cols[cols.length - 1])).isBetween(50L, 64L);
    assertThat(Long.parseLong(cols[cols.length - 2])).isGreaterThan(500L);
  }

  @Test
  void histogramsNeedATable() {
    Cli.Result r = Cli.run("histograms", dir.toString());
    assertThat(r.exitCode()).isEqualTo(64);
    assertThat(r.err()).contains("Missing required parameter: 'TABLE'");
  }
}
