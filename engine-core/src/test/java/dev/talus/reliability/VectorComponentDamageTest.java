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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The vector file of a vector index ({@code nb-<gen>-SaiVector_<index>.db}) under damage: verify
 * checks it for every live SSTable and reports a flipped byte, a truncation or a missing file as a
 * rebuildable warning without changing anything; the next ANN read rebuilds it from its SSTable and
 * answers as before, and verify is clean again.
 */
class VectorComponentDamageTest {
  static final long SEED = Long.getLong("talus.vector.damage.seed", System.nanoTime());
  private static final float[] QUERY = {0.1f, -0.4f, 0.9f, 0.2f};

  @TempDir Path tmp;
  private Path dir;
  private List<String> pristineAnswer;

  private static TalusOptions options(Path dir) {
    return TalusOptions.builder(dir).backgroundCompaction(false).chunkCacheBytes(0).build();
  }

  /** Table t with a vector index on v, three SSTables, then closed. */
  @BeforeEach
  void build() {
    dir = tmp.resolve("db");
    Random r = new Random(42);
    try (TalusDb db = TalusDb.open(options(dir))) {
      Table t =
          db.createTable(
              TableSchema.builder("t")
                  .partitionKey("p", DataType.INT)
                  .clusteringColumn("c", DataType.INT)
                  .column("v", DataType.vector(DataType.FLOAT, 4))
                  .build());
      t.createIndex(IndexDef.sai("t_v", "v"));
      int n = 0;
      for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 80; i++, n++) {
          float[] v = {r.nextFloat() - 0.5f, r.nextFloat() - 0.5f, r.nextFloat(), r.nextFloat()};
          t.insert().value("p", n % 13).value("c", n).value("v", v).execute();
        }
        t.flush();
      }
      pristineAnswer = answer(t);
    }
  }

  private static List<String> answer(Table t) {
    List<String> out = new ArrayList<>();
    t.select()
        .orderByAnn("v", QUERY)
        .limit(10)
        .execute()
        .rows()
        .forEach(row -> out.add(row.getInt("p") + "/" + row.getInt("c")));
    return out;
  }

  @Test
  void verifyChecksTheVectorFileOfEveryLiveSSTable() {
    VerifyReport r = TalusDb.verify(dir);
    assertThat(r.clean()).as(r.toString()).isTrue();
    List<Checked> idx = r.checked().stream().filter(Checked::rebuildable).toList();
    assertThat(idx).hasSize(6); // 3 SSTables x (row-key map + vector file)
    assertThat(idx.stream().map(c -> c.file().getFileName().toString()))
        .contains("nb-1-SaiVector_t_v.db", "nb-2-SaiVector_t_v.db", "nb-3-SaiVector_t_v.db");
    assertThat(idx).allMatch(c -> c.intact() && c.bytes() > 0);
  }

  @Test
  void everyDamageIsReportedThenRebuiltAtTheNextRead() throws IOException {
    System.out.println("VectorComponentDamageTest seed " + SEED + " (-Dtalus.vector.damage.seed)");
    Random rnd = new Random(SEED);
    Path file = component("nb-2-SaiVector_t_v.db");
    long size = Files.size(file);
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
      assertThat(TalusDb.verify(dir).clean()).as("rebuilt after " + what).isTrue();
    }
  }

  private Path component(String name) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.getFileName().toString().equals(name)).findFirst().orElseThrow();
    }
  }
}
