package dev.talus.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.CommitLogSync;
import dev.talus.CommitLogSyncStats;
import dev.talus.DiskFullStats;
import dev.talus.IndexDef;
import dev.talus.IndexStatus;
import dev.talus.ManualClock;
import dev.talus.Percentiles;
import dev.talus.Table;
import dev.talus.TableStats;
import dev.talus.TalusDb;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Constructor;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
  void statsPrintTheCompactionFailureAndDiskFullStateOfThisOpen() {
    Cli.Result r = Cli.run("stats", dir.toString(), "readings");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains(
            "\nDisk full: no (0 episodes, 0 failures, 0 retries since open; last failure: none)\n")
        .contains("\tFailed compactions: 0\n")
        .contains("\tCompactions failed in a row: 0\n")
        .contains("\tCompaction retry at: none (not backing off)\n")
        .contains("\tLast compaction failure: none\n")
        .contains("\tFlush running since: none (no flush writing)\n")
        .containsPattern(
            "\nCommit log: PERIODIC; sync running since: none \\(no sync running\\); [0-9]+ syncs"
                + " since open; writes timed out waiting for their sync: 0 \\(0 still waiting,"
                + " applied when it completes\\)\n")
        .contains("\tGuardrail warnings: 0\n")
        .contains("\tGuardrail failures: 0\n")
        .containsPattern("\tBytes flushed: [0-9.]+ (bytes|KiB)\n");
  }

  @Test
  void aTableWhoseCompactionsBackOffShowsWhenTheyAreRetriedAndWhy() {
    Instant retry = Instant.parse("2026-12-02T01:00:04Z");
    TableStats s =
        stats(
            Map.of(
                "failedCompactions",
                5L,
                "consecutiveCompactionFailures",
                3,
                "compactionRetryAt",
                Optional.of(retry),
                "lastCompactionFailure",
                "compaction of [3, 4]: EIO on nb-5-Data.db\u0007"));
    String out = print(s);
    assertThat(out)
        .contains("\tFailed compactions: 5\n")
        .contains("\tCompactions failed in a row: 3\n")
        .contains("\tCompaction retry at: 2026-12-02T01:00:04Z\n")
        .contains("\tLast compaction failure: compaction of [3, 4]: EIO on nb-5-Data.db\\u0007\n");
    assertThat(print(stats(Map.of("flushRunningSince", Optional.of(retry)))))
        .contains("\tFlush running since: 2026-12-02T01:00:04Z\n");
    assertThat(StatsCommand.diskFull(new DiskFullStats(true, 2, 9, 6, "flush of t: No space")))
        .isEqualTo(
            "YES, waiting for space (2 episodes, 9 failures, 6 retries since open; last failure:"
                + " flush of t: No space)");
  }

  @Test
  void aStalledCommitLogSyncShowsSinceWhenAndForHowLong() {
    Instant since = Instant.parse("2026-12-05T10:00:00Z");
    CommitLogSyncStats stalled =
        new CommitLogSyncStats(CommitLogSync.BATCH, Optional.of(since), 41, 3, 2);
    assertThat(StatsCommand.commitLog(stalled, since.plusSeconds(75).plusMillis(300)))
        .isEqualTo(
            "BATCH; sync running since: 2026-12-05T10:00:00Z (for PT1M15S); 41 syncs since open;"
                + " writes timed out waiting for their sync: 3 (2 still waiting, applied when it"
                + " completes)");
  }

  /** Every field of {@link TableStats} shows: changing any one of them changes the output. */
  @Test
  void everyTableStatsFieldIsPrinted() {
    String base = print(stats(Map.of()));
    List<String> unprinted = new ArrayList<>();
    for (RecordComponent c : TableStats.class.getRecordComponents()) {
      if (print(stats(Map.of(c.getName(), other(c)))).equals(base)) {
        unprinted.add(c.getName());
      }
    }
    assertThat(unprinted).as("TableStats fields stats does not print").isEmpty();
  }

  private static String print(TableStats s) {
    StringWriter w = new StringWriter();
    try (PrintWriter out = new PrintWriter(w)) {
      StatsCommand.print(out, s);
    }
    return w.toString();
  }

  /** A TableStats of plain values, with {@code set}'s fields (by name) replaced. */
  private static TableStats stats(Map<String, Object> set) {
    RecordComponent[] cs = TableStats.class.getRecordComponents();
    Object[] args = new Object[cs.length];
    Class<?>[] types = new Class<?>[cs.length];
    for (int i = 0; i < cs.length; i++) {
      types[i] = cs[i].getType();
      args[i] = set.containsKey(cs[i].getName()) ? set.get(cs[i].getName()) : plain(cs[i]);
    }
    try {
      Constructor<TableStats> k = TableStats.class.getDeclaredConstructor(types);
      return k.newInstance(args);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  private static Object plain(RecordComponent c) {
    Class<?> t = c.getType();
    if (t == String.class) {
      return "";
    } else if (t == int.class) {
      return 0;
    } else if (t == long.class) {
      return 0L;
    } else if (t == Map.class) {
      return Map.of();
    } else if (t == Percentiles.class) {
      return Percentiles.EMPTY;
    } else if (t == Optional.class) {
      return Optional.empty();
    } else if (t == List.class) {
      return List.of();
    }
    throw new AssertionError("no plain value for " + c);
  }

  private static Object other(RecordComponent c) {
    Class<?> t = c.getType();
    if (t == String.class) {
      return "something";
    } else if (t == int.class) {
      return 7;
    } else if (t == long.class) {
      return 7777L;
    } else if (t == Map.class) {
      Object valueType = ((ParameterizedType) c.getGenericType()).getActualTypeArguments()[1];
      return Map.of(2, valueType == Long.class ? (Object) 9999L : (Object) 9);
    } else if (t == Percentiles.class) {
      return new Percentiles(10, 1, 2, 3, 4, 5, 6);
    } else if (t == Optional.class) {
      return Optional.of(Instant.parse("2026-12-02T00:00:00Z"));
    } else if (t == List.class) {
      return List.of(
          new IndexStatus("i", "v", IndexStatus.State.QUERYABLE, 1, 1, 1, 1, 10, 20, 0, null));
    }
    throw new AssertionError("no other value for " + c);
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
