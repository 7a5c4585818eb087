package dev.talus.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.CommitLogSync;
import dev.talus.IndexDef;
import dev.talus.ResultRow;
import dev.talus.Table;
import dev.talus.TalusDb;
import dev.talus.VerifyReport;
import dev.talus.index.VectorSimilarity;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a child JVM ({@link IndexCrashChild}) at a random moment while it flushes (writing index
 * components), builds an index over existing SSTables (drop and re-create) and compacts, then
 * checks the directory: verify finds no damaged data (an index component may be missing, which the
 * next read builds), and after the open every indexed read equals the filtering scan and every ANN
 * read of the vector index the exact top k of a brute-force scan of the live rows. Seeded ({@code
 * -Dtalus.crash.seed=N}); {@code -Dtalus.crash.cycles.index=N} cycles.
 */
class IndexCrashTest {
  @TempDir Path tmp;

  @Test
  void afterKillNineDuringFlushBuildOrCompactionIndexedReadsEqualTheFilteringScan()
      throws Exception {
    long seed = Long.getLong("talus.crash.seed", System.nanoTime());
    System.out.println("IndexCrashTest seed " + seed + " (-Dtalus.crash.seed)");
    Random rnd = new Random(seed);
    Path dir = tmp.resolve("db");
    int cycles = Integer.getInteger("talus.crash.cycles.index", 4);
    int next = 0;
    int rounds = 0;
    int warnings = 0;
    int vectorWarnings = 0;
    int killsInVectorBuild = 0;
    int vectorQueries = 0;
    for (int cycle = 0; cycle < cycles; cycle++) {
      List<String> lines =
          cycle % 2 == 0
              ? KillNine.runAndKill(
                  IndexCrashChild.class,
                  300 + rnd.nextInt(2000),
                  dir.toString(),
                  Integer.toString(next))
              : KillNine.runAndKillAfter( // aimed at the vector index's build
                  IndexCrashChild.class,
                  "VBUILD ",
                  rnd.nextInt(40),
                  dir.toString(),
                  Integer.toString(next));
      assertThat(lines).as("cycle %d: the child got to work", cycle).contains("READY");
      if (killedDuringVectorBuild(lines)) {
        killsInVectorBuild++;
      }
      rounds += (int) lines.stream().filter(l -> l.startsWith("ROUND ")).count();
      next += 100_000;
      VerifyReport report = TalusDb.verify(dir);
      assertThat(report.dataIntact()).as("cycle %d: %s", cycle, report.damaged()).isTrue();
      warnings += report.warnings().size();
      vectorWarnings +=
          (int) report.warnings().stream().filter(w -> w.what().endsWith(" index t_v")).count();
      try (TalusDb db = TalusDb.open(EngineCrashChild.options(dir, CommitLogSync.BATCH))) {
        Table t = db.table("t");
        List<String> names = t.indexes().stream().map(IndexDef::name).toList();
        if (!names.contains("t_v")) { // killed between its drop and its re-creation
          t.createIndex(IndexCrashChild.vectorIndex());
        }
        names = t.indexes().stream().map(IndexDef::name).toList();
        for (String name : names) { // a build the kill stopped resumes at open
          assertThat(t.awaitIndexBuilt(name, Duration.ofMinutes(2))).as(name).isTrue();
        }
        assertThat(names).as("cycle %d", cycle).contains("t_a");
        for (int v = 0; v < 5; v++) {
          String a = "v" + v;
          assertThat(keys(t.select().eq("a", a).execute().rows()))
              .as("cycle %d: a = %s", cycle, a)
              .isEqualTo(scan(t, r -> a.equals(r.getString("a"))));
        }
        if (names.contains("t_b")) {
          assertThat(keys(t.select().ge("b", 4L).le("b", 8L).execute().rows()))
              .as("cycle %d: 4 <= b <= 8", cycle)
              .isEqualTo(scan(t, r -> r.getLong("b") >= 4 && r.getLong("b") <= 8));
          assertThat(keys(t.select().eq("a", "v2").eq("b", 7L).execute().rows()))
              .as("cycle %d: a = v2 and b = 7", cycle)
              .isEqualTo(scan(t, r -> "v2".equals(r.getString("a")) && r.getLong("b") == 7));
        }
        for (int q = 0; q < 4; q++, vectorQueries += 2) {
          float[] query = IndexCrashChild.vector(-1 - rnd.nextInt(1_000_000));
          assertThat(keys(t.select().orderByAnn("v", query).limit(10).execute().rows()))
              .as("cycle %d: ANN query %d", cycle, q)
              .isEqualTo(topK(t.select().execute().rows(), query, 10));
          int p = rnd.nextInt(13);
          assertThat(keys(t.select().eq("p", p).orderByAnn("v", query).limit(5).execute().rows()))
              .as("cycle %d: ANN query %d in partition %d", cycle, q, p)
              .isEqualTo(topK(t.select().eq("p", p).execute().rows(), query, 5));
        }
      }
      VerifyReport after = TalusDb.verify(dir); // what the kill left missing was built again
      assertThat(after.clean()).as("cycle %d after the open: %s", cycle, after.damaged()).isTrue();
    }
    System.out.println(
        "[crash] index: "
            + cycles
            + " kill -9 cycles, "
            + rounds
            + " rounds acknowledged, "
            + warnings
            + " index component(s) missing or damaged after a kill, "
            + killsInVectorBuild
            + " kill(s) during a vector index build, "
            + vectorWarnings
            + " of them vector components (rebuilt at open), "
            + vectorQueries
            + " ANN queries equal to the exact top k");
  }

  private static List<String> keys(Iterable<ResultRow> rows) {
    List<String> out = new ArrayList<>();
    rows.forEach(r -> out.add(r.getInt("p") + "/" + r.getInt("c")));
    return out;
  }

  /**
   * Whether the child's last vector index build ({@code VBUILD n}) had not ended ({@code VBUILT
   * n}).
   */
  private static boolean killedDuringVectorBuild(List<String> lines) {
    String last = null;
    for (String l : lines) {
      if (l.startsWith("VBUILD ")) {
        last = l.substring("VBUILD ".length());
      }
    }
    return last != null && !lines.contains("VBUILT " + last);
  }

  /** The {@code k} live rows whose {@code v} is most similar to {@code query}, by brute force. */
  private static List<String> topK(Iterable<ResultRow> rows, float[] query, int k) {
    Map<String, Float> score = new HashMap<>();
    for (ResultRow r : rows) {
      float[] v = r.getFloatVector("v");
      if (v != null) {
        score.put(r.getInt("p") + "/" + r.getInt("c"), VectorSimilarity.COSINE.score(query, v));
      }
    }
    return score.entrySet().stream()
        .sorted(
            Comparator.comparing((Map.Entry<String, Float> e) -> -e.getValue())
                .thenComparing(Map.Entry::getKey))
        .limit(k)
        .map(Map.Entry::getKey)
        .toList();
  }

  private static List<String> scan(Table t, Predicate<ResultRow> match) {
    List<String> out = new ArrayList<>();
    for (ResultRow r : t.select().execute().rows()) {
      if (match.test(r)) {
        out.add(r.getInt("p") + "/" + r.getInt("c"));
      }
    }
    return out;
  }
}
