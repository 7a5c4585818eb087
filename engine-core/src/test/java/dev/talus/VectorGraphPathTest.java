package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.index.VectorSimilarity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ANN reads through the proximity graph of an SSTable (the graph threshold lowered to 500 vectors
 * for the test): the graph is written at flush and compaction, overwritten and deleted rows never
 * return through it, answers survive a reopen, and a graph deleted before an open is rebuilt from
 * the vector file with the same bytes. The seed is printed; {@code -Dtalus.vector.seed=N} replays.
 */
class VectorGraphPathTest {
  static final String THRESHOLD = "talus.vector.graphThreshold";
  private static final int DIM = 8;
  @TempDir Path dir;
  private final long seed = Long.getLong("talus.vector.seed", System.nanoTime());
  private final Random rnd = new Random(seed);
  private final Map<String, float[]> model = new HashMap<>();

  @BeforeEach
  void lowerTheThreshold() {
    System.setProperty(THRESHOLD, "500");
    System.out.println("VectorGraphPathTest seed " + seed + " (-Dtalus.vector.seed=" + seed + ")");
  }

  @AfterEach
  void restoreTheThreshold() {
    System.clearProperty(THRESHOLD);
  }

  private TalusDb open() {
    return TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build());
  }

  private float[] random() {
    float[] v = new float[DIM];
    for (int j = 0; j < DIM; j++) {
      v[j] = (float) rnd.nextGaussian();
    }
    return v;
  }

  private void put(Table t, int c, float[] v) {
    t.insert().value("p", c % 7).value("c", c).value("v", v).execute();
    model.put(c % 7 + "/" + c, v);
  }

  private static List<String> answer(Table t, float[] q, int k) {
    List<String> out = new ArrayList<>();
    t.select()
        .orderByAnn("v", q)
        .limit(k)
        .execute()
        .rows()
        .forEach(r -> out.add(r.getInt("p") + "/" + r.getInt("c")));
    return out;
  }

  private Path graphFile(int generation) {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(
              p -> p.getFileName().toString().equals("nb-" + generation + "-SaiGraph_t_v.db"))
          .findFirst()
          .orElse(null);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private List<String> graphFiles() {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.contains("-SaiGraph_")).toList();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private Table create(TalusDb db) {
    Table t =
        db.createTable(
            TableSchema.builder("t")
                .partitionKey("p", DataType.INT)
                .clusteringColumn("c", DataType.INT)
                .column("v", DataType.vector(DataType.FLOAT, DIM))
                .build());
    t.createIndex(IndexDef.sai("t_v", "v"));
    return t;
  }

  @Test
  void overwrittenAndDeletedRowsNeverReturnThroughTheGraph() {
    try (TalusDb db = open()) {
      Table t = create(db);
      for (int c = 0; c < 3_000; c++) {
        put(t, c, random());
      }
      t.flush();
      assertThat(graphFile(1)).as("a graph for 3,000 vectors").isNotNull();
      for (int round = 0; round < 10; round++) {
        float[] q = random();
        // the 20 best rows now: 10 deleted, 10 moved far away; half of it flushed (no graph: few)
        List<String> best = VectorRecallTest.bruteForce(model, VectorSimilarity.COSINE, q, 20);
        for (int i = 0; i < best.size(); i++) {
          String[] pc = best.get(i).split("/");
          int c = Integer.parseInt(pc[1]);
          if (i % 2 == 0) {
            t.delete().eq("p", c % 7).eq("c", c).execute();
            model.remove(best.get(i));
          } else {
            float[] far = q.clone();
            for (int j = 0; j < DIM; j++) {
              far[j] = -far[j];
            }
            put(t, c, far);
          }
        }
        if (round % 2 == 1) {
          t.flush();
        }
        List<String> got = answer(t, q, 10);
        List<String> exact = VectorRecallTest.bruteForce(model, VectorSimilarity.COSINE, q, 10);
        assertThat(got).as("seed %d: no deleted row", seed).allMatch(model::containsKey);
        assertThat(got).as("seed %d: no moved row", seed).doesNotContainAnyElementsOf(best);
        Set<String> common = new HashSet<>(got);
        common.retainAll(exact);
        assertThat(common.size()).as("seed %d: %s against %s", seed, got, exact).isGreaterThan(7);
      }
      t.compact();
      assertThat(graphFiles()).as("the compaction's output has a graph").hasSize(1);
      assertThat(graphFiles().get(0)).isNotEqualTo("nb-1-SaiGraph_t_v.db");
      float[] q = random();
      List<String> got = answer(t, q, 10);
      assertThat(got).allMatch(model::containsKey);
    }
  }

  @Test
  void answersSurviveAReopenAndAMissingGraphIsRebuiltByteForByte() throws IOException {
    float[] q = random();
    List<String> before;
    try (TalusDb db = open()) {
      Table t = create(db);
      for (int c = 0; c < 2_000; c++) {
        put(t, c, random());
      }
      t.flush();
      before = answer(t, q, 10);
    }
    Path graph = graphFile(1);
    byte[] bytes = Files.readAllBytes(graph);
    try (TalusDb db = open()) {
      assertThat(answer(db.table("t"), q, 10)).isEqualTo(before);
    }
    Files.delete(graph);
    VerifyReport r = TalusDb.verify(dir);
    assertThat(r.warnings()).hasSize(1);
    assertThat(r.warnings().get(0).file()).isEqualTo(graph);
    try (TalusDb db = open()) {
      assertThat(answer(db.table("t"), q, 10)).isEqualTo(before);
    }
    assertThat(Files.readAllBytes(graph)).isEqualTo(bytes);
    assertThat(TalusDb.verify(dir).clean()).isTrue();
    List<String> exact = VectorRecallTest.bruteForce(model, VectorSimilarity.COSINE, q, 10);
    Set<String> common = new HashSet<>(before);
    common.retainAll(exact);
    assertThat(common.size()).as("seed %d", seed).isGreaterThan(7);
  }
}
