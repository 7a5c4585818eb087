package dev.talus.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.CommitLogSync;
import dev.talus.ResultRow;
import dev.talus.Table;
import dev.talus.TalusDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kills a child JVM ({@link DropCrashChild}) that fills, then drops or truncates, one table over
 * and over, and reopens the directory: the table holds the rows of at most one generation, never
 * one already dropped or truncated, and a generation whose writes were acknowledged and whose drop
 * had not been acknowledged is either complete or entirely gone — a drop or truncate is all or
 * nothing, and the old commit-log records never come back into the table of the same name.
 */
class DropCrashTest {
  @org.junit.jupiter.api.io.TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"drop", "truncate"})
  void aDropOrTruncateSurvivesKillNineAllOrNothing(String mode) throws Exception {
    Path dir = tmp.resolve(mode);
    Random rnd = new Random(mode.hashCode());
    int next = 1;
    int completed = 0;
    int cycles = Integer.getInteger("talus.crash.cycles.drop", 4);
    for (int cycle = 0; cycle < cycles; cycle++) {
      List<String> lines = runAndKill(dir, mode, next, 200 + rnd.nextInt(900));
      int wrote = 0;
      int gone = 0;
      for (String line : lines) {
        String[] f = line.split(" ");
        if (f.length == 2 && f[0].equals("WROTE")) {
          wrote = Integer.parseInt(f[1]);
        } else if (f.length == 2 && f[0].equals("GONE")) {
          gone = Integer.parseInt(f[1]);
        }
      }
      String files = listing(dir);
      try (TalusDb db = TalusDb.open(EngineCrashChild.options(dir, CommitLogSync.BATCH))) {
        Optional<Table> t = db.findTable("t");
        Set<Integer> generations = new HashSet<>();
        int rows = 0;
        if (t.isPresent()) {
          for (ResultRow r : t.get().select().execute()) {
            generations.add(r.getInt("g"));
            rows++;
          }
        }
        String state =
            String.format(
                "cycle %d (first generation %d, WROTE %d, GONE %d, generations %s, %d rows,"
                    + " last lines %s, files after the kill %s)",
                cycle,
                next,
                wrote,
                gone,
                generations,
                rows,
                lines.subList(Math.max(0, lines.size() - 4), lines.size()),
                files);
        assertThat(generations).as("%s: rows of one generation at most", state).hasSizeLessThan(2);
        for (int g : generations) {
          assertThat(g).as("%s: a dropped generation came back", state).isGreaterThan(gone);
          assertThat(g)
              .as("%s: a generation dropped before this child came back", state)
              .isGreaterThanOrEqualTo(next);
          if (g == wrote && wrote > gone) {
            assertThat(rows)
                .as("%s: generation %d is whole", state, g)
                .isEqualTo(DropCrashChild.ROWS);
          }
        }
        if (wrote > gone) {
          // acknowledged and not yet gone: whole, or gone entirely (the drop had begun)
          assertThat(rows == 0 || generations.contains(wrote))
              .as("%s: the acknowledged generation is whole or entirely gone", state)
              .isTrue();
        }
        completed += gone >= next ? gone - next + 1 : 0;
        int highest = Math.max(wrote, gone);
        for (int g : generations) {
          highest = Math.max(highest, g);
        }
        // the next child starts past every generation begun (a child killed before it printed
        // anything may still have begun generation next), on an empty table: this open drops (or
        // truncates) it, so the next open also replays records of a dropped store
        next = Math.max(highest, next) + 2;
        if (mode.equals("drop")) {
          db.dropTableIfExists("t");
        } else {
          t.ifPresent(Table::truncate);
        }
        assertThat(lines).as("cycle %d: the child got to work", cycle).contains("READY");
      }
    }
    System.out.println(
        "[crash] " + mode + ": " + cycles + " kill -9 cycles, " + completed + " completed");
  }

  /** The files under {@code dir}, with their sizes. */
  private static String listing(Path dir) throws java.io.IOException {
    if (!Files.exists(dir)) {
      return "[]";
    }
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(Files::isRegularFile)
          .map(f -> dir.relativize(f) + ":" + f.toFile().length())
          .sorted()
          .toList()
          .toString();
    }
  }

  private static List<String> runAndKill(Path dir, String mode, int first, long killAfterMs)
      throws Exception {
    return KillNine.runAndKill(
        DropCrashChild.class, killAfterMs, dir.toString(), mode, Integer.toString(first));
  }
}
