package dev.talus.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.CommitLogSync;
import dev.talus.ResultRow;
import dev.talus.Table;
import dev.talus.TalusDb;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Kills a child JVM ({@link AlterCrashChild}) that adds a column (with a gc_grace change in the
 * same ALTER), fills it, and drops it again, over and over, and reopens the directory: an ALTER is
 * all or nothing (the column is there exactly when gc_grace names the generation that added it),
 * acknowledged writes to a present column are all there, and no value of a dropped column ever
 * comes back — not from the SSTables, not from the commit-log records written before the drop,
 * which every reopen replays.
 */
class AlterCrashTest {
  @org.junit.jupiter.api.io.TempDir Path tmp;

  @Test
  void anAlterSurvivesKillNineAllOrNothingAndDroppedValuesNeverReturn() throws Exception {
    Path dir = tmp.resolve("alter");
    Random rnd = new Random(42);
    int next = 1;
    int dropped = 0; // every generation up to this one had its column dropped
    int cycles = Integer.getInteger("talus.crash.cycles.alter", 4);
    for (int cycle = 0; cycle < cycles; cycle++) {
      List<String> lines = runAndKill(dir, next, 200 + rnd.nextInt(900));
      int added = 0;
      int wrote = 0;
      for (String line : lines) {
        String[] f = line.split(" ");
        if (f.length != 2) {
          continue;
        }
        int g = Integer.parseInt(f[1]);
        switch (f[0]) {
          case "ADDED" -> added = g;
          case "WROTE" -> wrote = g;
          case "DROPPED" -> dropped = Math.max(dropped, g);
          default -> {}
        }
      }
      assertThat(lines).as("cycle %d: the child got to work", cycle).contains("READY");
      try (TalusDb db = TalusDb.open(EngineCrashChild.options(dir, CommitLogSync.BATCH))) {
        Table t = db.table("t");
        boolean hasV = t.schema().column("v").isPresent();
        long grace = t.schema().gcGrace().getSeconds();
        int highest = Math.max(added, dropped);
        if (hasV) {
          // the ALTER that added v also set gc_grace to its generation: both or neither
          assertThat(grace)
              .as("cycle %d: gc_grace of the ALTER that added v", cycle)
              .isGreaterThan(dropped);
          int withV = 0;
          for (ResultRow r : t.select().execute()) {
            Integer v = r.getInt("v");
            if (v != null) {
              assertThat((long) v)
                  .as("cycle %d: only the live column's values", cycle)
                  .isEqualTo(grace);
              withV++;
            }
          }
          if (wrote == grace) {
            assertThat(withV)
                .as("cycle %d: acknowledged writes of v", cycle)
                .isEqualTo(AlterCrashChild.ROWS);
          }
          if (added > dropped) {
            assertThat(grace).as("cycle %d: the acknowledged add", cycle).isEqualTo(added);
          }
          highest = Math.max(highest, (int) grace);
          // drop it here: the next open replays the records written before this drop
          t.alter().dropColumn("v").apply();
          dropped = Math.max(dropped, (int) grace);
        } else {
          assertThat(added)
              .as("cycle %d: an acknowledged add whose drop was not begun is there", cycle)
              .isLessThanOrEqualTo(Math.max(dropped, wrote));
        }
        assertThat(t.select().count())
            .as("cycle %d: the rows stay", cycle)
            .isLessThanOrEqualTo(AlterCrashChild.ROWS);
        next = highest + 2;
      }
    }
    try (TalusDb db = TalusDb.open(EngineCrashChild.options(dir, CommitLogSync.BATCH))) {
      assertThat(db.table("t").schema().column("v")).isEmpty();
    }
    System.out.println("[crash] alter: " + cycles + " kill -9 cycles, " + dropped + " drops");
  }

  private static List<String> runAndKill(Path dir, int first, long killAfterMs) throws Exception {
    return KillNine.runAndKill(
        AlterCrashChild.class, killAfterMs, dir.toString(), Integer.toString(first));
  }
}
