package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.db.StorageHook;
import dev.talus.io.NioStorageFs;
import dev.talus.testfs.FaultInjectingFs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flushes and compactions write index components from the rows as the SSTable is written; a
 * background build (or the rebuild of a missing component) writes them by reading the SSTable back.
 * Both must write the same bytes. Seeded random data — inserts (some with a TTL), overwrites, row,
 * range, partition and cell deletions, static rows, flushes, major compactions — on a table with a
 * scalar, a range, a collection (values and map keys), an analyzed, a static column's and a vector
 * index; then every index file is saved, deleted, rebuilt by the open's background build, and
 * compared byte for byte. The index write buffer differs between the two (a 1 KiB buffer spills
 * terms to runs on disk, 32 MiB does not), so the bytes are also those of a bounded and an
 * unbounded collector. Prints its seeds; {@code -Dtalus.index.writes.seed=N} replays one.
 */
class IndexWriteEquivalenceTest {
  private static final Duration WAIT = Duration.ofMinutes(2);

  /** Write and rebuild budgets by seed modulo 3 (the default seeds take each once). */
  private static final long[][] BUDGETS = {{1024, 1024}, {1024, 32L << 20}, {32L << 20, 1024}};

  @TempDir Path tmp;

  private static TableSchema schema() {
    return TableSchema.builder("t")
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT)
        .staticColumn("s", DataType.TEXT)
        .column("a", DataType.TEXT)
        .column("b", DataType.BIGINT)
        .column("tags", DataType.set(DataType.TEXT))
        .column("attrs", DataType.map(DataType.TEXT, DataType.INT))
        .column("name", DataType.TEXT)
        .column("v", DataType.vector(DataType.FLOAT, 3))
        .build();
  }

  private static void index(Table t) {
    t.createIndex(IndexDef.sai("t_a", "a"));
    t.createIndex(IndexDef.sai("t_b", "b"));
    t.createIndex(IndexDef.sai("t_tags", "tags"));
    t.createIndex(IndexDef.sai("t_attr_keys", "attrs").withTarget(IndexDef.Target.KEYS));
    t.createIndex(IndexDef.sai("t_name", "name").withOption("case_sensitive", "false"));
    t.createIndex(IndexDef.sai("t_v", "v").withOption("similarity_function", "euclidean"));
    t.createIndex(IndexDef.sai("t_s", "s"));
  }

  @Test
  void componentsWrittenWithTheSSTableEqualThoseBuiltByReadingItBack() throws Exception {
    String replay = System.getProperty("talus.index.writes.seed");
    long[] seeds = replay != null ? new long[] {Long.parseLong(replay)} : new long[] {6, 23, 2026};
    for (long seed : seeds) {
      System.out.println(
          "IndexWriteEquivalenceTest seed "
              + seed
              + " (replay: -Dtalus.index.writes.seed="
              + seed
              + ")");
      run(seed, tmp.resolve("seed" + seed));
    }
  }

  private static void run(long seed, Path dir) throws InterruptedException {
    Random rnd = new Random(seed);
    ManualClock clock = ManualClock.startingAtDefault();
    // the index terms of an SSTable held in memory: 1 KiB spills runs in every flush and
    // compaction, 32 MiB never does here
    long writeBudget = BUDGETS[(int) Math.floorMod(seed, 3L)][0];
    long rebuildBudget = BUDGETS[(int) Math.floorMod(seed, 3L)][1];
    TalusOptions options =
        TalusOptions.builder(dir)
            .clock(clock)
            .backgroundCompaction(false)
            .indexWriteBufferBytes(writeBudget)
            .build();
    try (TalusDb db = TalusDb.open(options)) {
      Table t = db.createTable(schema());
      index(t);
      for (int step = 0; step < 400; step++) {
        step(rnd, t, clock);
      }
      t.flush();
    }
    Map<String, byte[]> written = indexFiles(dir);
    assertThat(written.keySet())
        .as("seed %d: every kind of component was written", seed)
        .anyMatch(n -> n.endsWith("SaiKeys.db"))
        .anyMatch(n -> n.endsWith("SaiTerms_t_attr_keys.db"))
        .anyMatch(n -> n.endsWith("SaiTerms_t_name.db"))
        .anyMatch(n -> n.endsWith("SaiVector_t_v.db"));
    for (String name : written.keySet()) {
      delete(dir.resolve(name));
    }
    TalusOptions rebuild =
        TalusOptions.builder(dir)
            .clock(clock)
            .backgroundCompaction(false)
            .indexWriteBufferBytes(rebuildBudget)
            .build();
    try (TalusDb db = TalusDb.open(rebuild)) {
      Table t = db.table("t");
      for (IndexDef d : t.indexes()) {
        assertThat(t.awaitIndexBuilt(d.name(), WAIT)).as(d.name()).isTrue();
      }
    }
    Map<String, byte[]> rebuilt = indexFiles(dir);
    assertThat(rebuilt.keySet()).as("seed %d", seed).isEqualTo(written.keySet());
    for (String name : written.keySet()) {
      assertThat(rebuilt.get(name)).as("seed %d: %s", seed, name).isEqualTo(written.get(name));
    }
  }

  /** One random operation; a flush every 40 steps or so, a major compaction now and then. */
  private static void step(Random rnd, Table t, ManualClock clock) {
    int p = rnd.nextInt(6);
    int c = rnd.nextInt(30);
    int k = rnd.nextInt(100);
    if (k < 55) {
      var ins =
          t.insert()
              .value("p", p)
              .value("c", c)
              .value("a", "a" + rnd.nextInt(20))
              .value("b", (long) rnd.nextInt(1000) - 500)
              .value("tags", Set.of("t" + rnd.nextInt(6), "u" + rnd.nextInt(4)))
              .value("attrs", Map.of("k" + rnd.nextInt(5), rnd.nextInt(9)))
              .value("name", rnd.nextBoolean() ? "Ada" + rnd.nextInt(3) : "ADA" + rnd.nextInt(3))
              .value("v", new float[] {rnd.nextFloat(), rnd.nextFloat(), rnd.nextFloat() - 0.5f});
      if (rnd.nextInt(5) == 0) {
        ins.ttl(Duration.ofSeconds(1 + rnd.nextInt(30)));
      }
      ins.execute();
    } else if (k < 65) {
      t.update().set("a", "a" + rnd.nextInt(20)).where("p", p).where("c", c).execute();
    } else if (k < 70) {
      t.update().set("s", "s" + rnd.nextInt(5)).where("p", p).execute();
    } else if (k < 76) {
      t.delete().eq("p", p).eq("c", c).execute();
    } else if (k < 79) {
      t.delete().eq("p", p).ge("c", c).le("c", c + 3).execute();
    } else if (k < 81) {
      t.delete().eq("p", p).execute();
    } else if (k < 86) {
      t.delete().columns("b").eq("p", p).eq("c", c).execute();
    } else if (k < 93) {
      clock.advance(Duration.ofSeconds(rnd.nextInt(10)));
    } else if (k < 98) {
      t.flush();
    } else {
      t.flush();
      t.compact();
    }
  }

  /** Every index component in {@code dir}'s tree, by file name. */
  static Map<String, byte[]> indexFiles(Path dir) {
    Map<String, byte[]> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path f : s.filter(f -> f.getFileName().toString().contains("-Sai")).toList()) {
        out.put(dir.relativize(f).toString(), Files.readAllBytes(f));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private static void delete(Path f) {
    try {
      Files.delete(f);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The flush and the compaction never read their output back to index it: the index components are
   * in place before the SSTable's TOC, which is renamed into place last of all its files.
   */
  @Test
  void flushAndCompactionWriteTheIndexComponentsBeforeTheSSTableIsComplete() {
    FaultInjectingFs fs = new FaultInjectingFs(new NioStorageFs());
    TalusOptions options = TalusOptions.builder(tmp).backgroundCompaction(false).build();
    try (TalusDb db = StorageHook.open(TalusDb.class, options, fs)) {
      Table t = db.createTable(schema());
      index(t);
      for (int round = 0; round < 2; round++) {
        for (int c = 0; c < 50; c++) {
          t.insert().value("p", c % 3).value("c", c).value("a", "x" + (c % 4)).execute();
        }
        fs.recordOperations(true);
        t.flush();
        assertComponentsBeforeToc(fs.recordedOperations(), "flush " + round);
        fs.recordOperations(false);
      }
      fs.recordOperations(true);
      t.compact();
      assertComponentsBeforeToc(fs.recordedOperations(), "compaction");
      fs.recordOperations(false);
      assertThat(t.select().eq("a", "x1").execute().rows()).hasSize(13);
    }
  }

  private static void assertComponentsBeforeToc(List<String> ops, String what) {
    List<String> renames = new ArrayList<>();
    for (String op : ops) {
      if (op.startsWith("rename ")) {
        renames.add(op.substring(op.lastIndexOf('/') + 1));
      }
    }
    Map<String, Integer> at = new HashMap<>();
    for (int i = 0; i < renames.size(); i++) {
      at.put(renames.get(i).replaceFirst("^nb-\\d+-", ""), i);
    }
    assertThat(at)
        .as(what + ": " + renames)
        .containsKeys("TOC.txt", "SaiKeys.db", "SaiTerms_t_a.db");
    for (String component : List.of("SaiKeys.db", "SaiTerms_t_a.db", "SaiVector_t_v.db")) {
      assertThat(at.get(component)).as(what + ": " + component).isLessThan(at.get("TOC.txt"));
    }
  }
}
