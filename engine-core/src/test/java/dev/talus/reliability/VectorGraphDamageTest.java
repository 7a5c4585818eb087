package dev.talus.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.DataType;
import dev.talus.IndexDef;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.VerifyReport;
import dev.talus.VerifyReport.Checked;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The proximity graph of a vector index ({@code nb-<gen>-SaiGraph_<index>.db}, written for an
 * SSTable of many vectors; the threshold is lowered to 300 here) under damage: verify checks it
 * beside the vector file and reports a flipped byte, a truncation or a missing file as a
 * rebuildable warning without changing anything; the next ANN read rebuilds it from the vector file
 * — the same bytes, so the same answer — and verify is clean again.
 */
class VectorGraphDamageTest {
  static final long SEED = Long.getLong("talus.vector.damage.seed", System.nanoTime());
  private static final String THRESHOLD = "talus.vector.graphThreshold";

  @TempDir Path tmp;
  private Path dir;
  private float[] query;
  private List<String> pristineAnswer;

  private static TalusOptions options(Path dir) {
    return TalusOptions.builder(dir).backgroundCompaction(false).chunkCacheBytes(0).build();
  }

  /** Table t with a vector index on v, two SSTables of 1,000 vectors (each with a graph). */
  @BeforeEach
  void build() {
    System.setProperty(THRESHOLD, "300");
    dir = tmp.resolve("db");
    Random r = new Random(42);
    query = new float[] {0.3f, -0.2f, 0.5f, 0.1f, -0.7f, 0.2f, 0.0f, 0.4f};
    try (TalusDb db = TalusDb.open(options(dir))) {
      Table t =
          db.createTable(
              TableSchema.builder("t")
                  .partitionKey("p", DataType.INT)
                  .clusteringColumn("c", DataType.INT)
                  .column("v", DataType.vector(DataType.FLOAT, 8))
                  .build());
      t.createIndex(IndexDef.sai("t_v", "v"));
      for (int n = 0; n < 2_000; n++) {
        float[] v = new float[8];
        for (int j = 0; j < 8; j++) {
          v[j] = (float) r.nextGaussian();
        }
        t.insert().value("p", n % 13).value("c", n).value("v", v).execute();
        if (n % 1_000 == 999) {
          t.flush();
        }
      }
      pristineAnswer = answer(t);
    }
  }

  @AfterEach
  void restoreTheThreshold() {
    System.clearProperty(THRESHOLD);
  }

  private List<String> answer(Table t) {
    List<String> out = new ArrayList<>();
    t.select()
        .orderByAnn("v", query)
        .limit(10)
        .execute()
        .rows()
        .forEach(row -> out.add(row.getInt("p") + "/" + row.getInt("c")));
    return out;
  }

  @Test
  void verifyChecksTheGraphOfEveryLiveSSTable() {
    VerifyReport r = TalusDb.verify(dir);
    assertThat(r.clean()).as(r.toString()).isTrue();
    List<Checked> idx = r.checked().stream().filter(Checked::rebuildable).toList();
    assertThat(idx).hasSize(6); // 2 SSTables x (row-key map + vector file + graph)
    assertThat(idx.stream().map(c -> c.file().getFileName().toString()))
        .contains("nb-1-SaiGraph_t_v.db", "nb-2-SaiGraph_t_v.db");
    assertThat(idx).allMatch(c -> c.intact() && c.bytes() > 0);
  }

  @Test
  void everyDamageIsReportedThenRebuiltAtTheNextRead() throws IOException {
    System.out.println("VectorGraphDamageTest seed " + SEED + " (-Dtalus.vector.damage.seed)");
    Random rnd = new Random(SEED);
    Path file = component("nb-2-SaiGraph_t_v.db");
    byte[] pristine = Files.readAllBytes(file);
    long size = pristine.length;
    for (ComponentDamage d : ComponentDamage.drawn(rnd, size)) {
      String what = d.toString();
      d.apply(file);
      VerifyReport r = TalusDb.verify(dir);
      assertThat(r.dataIntact()).as(what).isTrue();
      assertThat(r.warnings()).as(what).hasSize(1);
      assertThat(r.warnings().get(0).file()).as(what).isEqualTo(file);
      assertThat(r.warnings().get(0).rebuildable()).isTrue();
      try (TalusDb db = TalusDb.open(options(dir))) {
        assertThat(answer(db.table("t"))).as(what).isEqualTo(pristineAnswer);
      }
      assertThat(Files.readAllBytes(file)).as("rebuilt after " + what).isEqualTo(pristine);
      assertThat(TalusDb.verify(dir).clean()).as("rebuilt after " + what).isTrue();
    }
  }

  private Path component(String name) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.getFileName().toString().equals(name)).findFirst().orElseThrow();
    }
  }
}
