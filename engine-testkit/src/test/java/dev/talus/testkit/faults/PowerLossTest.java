package dev.talus.testkit.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.CommitLogSync;
import dev.talus.DataType;
import dev.talus.ResultRow;
import dev.talus.StorageException;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.testkit.FaultInjector;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Simulated power loss through the public {@link FaultInjector}: what each sync mode promises
 * survives, and what is recovered never has holes.
 */
class PowerLossTest {
  @TempDir Path tmp;

  private static TableSchema schema() {
    return TableSchema.builder("pl")
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT)
        .column("v", DataType.TEXT)
        .build();
  }

  private static TalusOptions options(Path dir, CommitLogSync sync, FaultInjector faults) {
    return TalusOptions.builder(dir)
        .commitLogSync(sync)
        .commitLogGroupWindow(Duration.ofMillis(2))
        .commitLogSegmentBytes(256 << 10)
        .memtableSpaceBytes(4L << 20)
        .build();
  }

  private static List<Integer> present(TalusDb db) {
    List<Integer> out = new ArrayList<>();
    for (ResultRow r : db.table("pl").select().eq("p", 1).execute()) {
      assertThat(r.getString("v")).isEqualTo("v" + r.getInt("c"));
      out.add(r.getInt("c"));
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(CommitLogSync.class)
  void whatTheSyncModePromisesSurvivesPowerLoss(CommitLogSync sync) {
    for (long seed = 1; seed <= 6; seed++) {
      Path dir = tmp.resolve(sync + "-" + seed);
      FaultInjector faults = new FaultInjector(seed);
      Random rnd = new Random(seed);
      int acked = 0;
      int durableBefore = 0; // PERIODIC: rows covered by a flush are durable
      TalusDb db = faults.open(options(dir, sync, faults));
      Table t = db.createTable(schema());
      int n = 200 + rnd.nextInt(300);
      for (int i = 0; i < n; i++) {
        t.insert().value("p", 1).value("c", i).value("v", "v" + i).execute();
        acked = i + 1;
        if (rnd.nextInt(150) == 0) {
          t.flush();
          durableBefore = acked;
        }
      }
      if (seed % 2 == 0) {
        faults.crashAndLoseAllUnsynced(db);
      } else {
        faults.crashAndLosePower(db);
      }
      try (TalusDb reopened = faults.open(options(dir, sync, faults))) {
        List<Integer> rows = present(reopened);
        boolean keptRandomTails = seed % 2 != 0;
        if (!keptRandomTails || sync != CommitLogSync.PERIODIC) {
          // Nothing unsynced was kept (or everything acknowledged was synced): what is
          // recovered is a prefix of the writes. With random unsynced tails kept, PERIODIC
          // promises only what was synced: the disk may have written back any subset.
          for (int i = 0; i < rows.size(); i++) {
            assertThat(rows.get(i))
                .as("seed %d: recovered rows are a prefix (no holes)", seed)
                .isEqualTo(i);
          }
        }
        if (sync == CommitLogSync.PERIODIC) {
          for (int i = 0; i < durableBefore; i++) {
            assertThat(rows).as("seed %d: row %d was flushed before the loss", seed, i).contains(i);
          }
        } else {
          assertThat(rows.size())
              .as("seed %d, %s: every acknowledged row survives", seed, sync)
              .isEqualTo(acked);
        }
      }
    }
  }

  @Test
  void aFailedCommitLogSyncIsNeverAcknowledgedAndTheLogRefusesFurtherWrites() {
    Path dir = tmp.resolve("fsyncgate");
    FaultInjector faults = new FaultInjector(7);
    TalusDb db = faults.open(options(dir, CommitLogSync.BATCH, faults));
    Table t = db.createTable(schema());
    for (int i = 0; i < 20; i++) {
      t.insert().value("p", 1).value("c", i).value("v", "v" + i).execute();
    }
    faults.failSync(1, FaultInjector.Fault.IO_ERROR);
    assertThatThrownBy(() -> t.insert().value("p", 1).value("c", 20).value("v", "v20").execute())
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("commit log");
    faults.clear();
    // the disk "recovered", but an fsync that failed once is never trusted again
    assertThatThrownBy(() -> t.insert().value("p", 1).value("c", 21).value("v", "v21").execute())
        .isInstanceOf(StorageException.class);
    faults.crashAndLoseAllUnsynced(db);
    try (TalusDb reopened = faults.open(options(dir, CommitLogSync.BATCH, faults))) {
      List<Integer> rows = present(reopened);
      assertThat(rows)
          .startsWith(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19);
      assertThat(rows).doesNotContain(21);
      // writes work again after reopening
      reopened.table("pl").insert().value("p", 1).value("c", 30).value("v", "v30").execute();
      assertThat(present(reopened)).contains(30);
    }
  }

  @Test
  void aDiskFullDuringFlushLosesNothingAndTheFlushCanBeRetried() {
    Path dir = tmp.resolve("enospc");
    FaultInjector faults = new FaultInjector(9);
    try (TalusDb db = faults.open(options(dir, CommitLogSync.GROUP, faults))) {
      Table t = db.createTable(schema());
      for (int i = 0; i < 100; i++) {
        t.insert().value("p", 1).value("c", i).value("v", "v" + i).execute();
      }
      faults.failWrite(3, FaultInjector.Fault.DISK_FULL);
      assertThatThrownBy(t::flush).isInstanceOf(StorageException.class);
      faults.clear();
      assertThat(present(db)).hasSize(100); // still readable from the memtable
      t.flush();
      assertThat(present(db)).hasSize(100);
    }
    try (TalusDb db = faults.open(options(dir, CommitLogSync.GROUP, faults))) {
      assertThat(present(db)).hasSize(100);
    }
  }
}
