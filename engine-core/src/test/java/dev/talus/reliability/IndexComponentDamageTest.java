package dev.talus.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.DataType;
import dev.talus.IndexDef;
import dev.talus.ResultRow;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.VerifyReport;
import dev.talus.VerifyReport.Checked;
import dev.talus.io.NioStorageFs;
import dev.talus.sstable.IndexTermsWriter;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The storage-attached index components ({@code nb-<gen>-SaiKeys.db}, {@code
 * nb-<gen>-SaiTerms_<index>.db}) under damage: {@link TalusDb#verify(Path)} reports every missing,
 * flipped or truncated component as a rebuildable warning (the data stays intact) and changes
 * nothing; an opened database then answers every indexed read exactly as the filtering scan does,
 * having rebuilt the component, after which verify is clean again. The flips are a seeded sample
 * ({@code -Dtalus.sai.corruption.seed=N} replays, {@code -Dtalus.sai.corruption.flips=N} per
 * component).
 */
class IndexComponentDamageTest {
  static final int FLIPS = Integer.getInteger("talus.sai.corruption.flips", 12);
  static final long SEED = Long.getLong("talus.sai.corruption.seed", System.nanoTime());

  @TempDir Path tmp;
  private Path pristine;

  private static TalusOptions options(Path dir) {
    return TalusOptions.builder(dir).backgroundCompaction(false).chunkCacheBytes(0).build();
  }

  /** Table t with indexes on a (text) and b (bigint), three SSTables, then closed. */
  @BeforeEach
  void build() {
    pristine = tmp.resolve("pristine");
    try (TalusDb db = TalusDb.open(options(pristine))) {
      Table t =
          db.createTable(
              TableSchema.builder("t")
                  .partitionKey("p", DataType.INT)
                  .clusteringColumn("c", DataType.INT)
                  .column("a", DataType.TEXT)
                  .column("b", DataType.BIGINT)
                  .build());
      t.createIndex(IndexDef.sai("t_a", "a"));
      t.createIndex(IndexDef.sai("t_b", "b"));
      int n = 0;
      for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 60; i++, n++) {
          t.insert()
              .value("p", n % 11)
              .value("c", n)
              .value("a", "v" + (n % 5))
              .value("b", (long) (n % 17))
              .execute();
        }
        t.flush();
      }
    }
  }

  @Test
  void verifyChecksEveryComponentOfEveryLiveSSTable() {
    VerifyReport r = TalusDb.verify(pristine);
    assertThat(r.clean()).as(r.toString()).isTrue();
    List<Checked> idx = r.checked().stream().filter(Checked::rebuildable).toList();
    assertThat(idx).hasSize(9); // 3 SSTables x (row-key map + 2 dictionaries)
    assertThat(idx).allMatch(c -> c.intact() && c.bytes() > 0 && c.table().equals("t"));
    assertThat(idx.stream().map(Checked::what))
        .contains("SSTable 1 index row-key map", "SSTable 1 index t_a", "SSTable 3 index t_b");
    assertThat(r.intactSSTables()).isEqualTo(3);
  }

  @Test
  void missingDamagedAndMismatchedComponentsAreRebuildableWarningsAndNothingChanges()
      throws IOException {
    Path keys = component("nb-1-SaiKeys.db");
    Path ta = component("nb-2-SaiTerms_t_a.db");
    Path tb = component("nb-3-SaiTerms_t_b.db");
    Files.delete(keys);
    flip(ta, (int) Files.size(ta) / 2);
    // a well-formed dictionary of the right generation whose row count is not the SSTable's
    Files.delete(tb);
    new IndexTermsWriter().write(new NioStorageFs(), tb, 3, 1);
    byte[] before = Files.readAllBytes(ta);

    VerifyReport r = TalusDb.verify(pristine);
    assertThat(r.clean()).isFalse();
    assertThat(r.dataIntact()).isTrue();
    assertThat(r.warnings()).hasSize(3).isEqualTo(r.damaged());
    assertThat(r.warnings().stream().map(Checked::file)).containsExactly(keys, ta, tb);
    assertThat(r.warnings().get(0).damage()).contains("missing");
    assertThat(r.warnings().get(2).damage()).contains("differs from the row-key map's");
    assertThat(keys).doesNotExist();
    assertThat(Files.readAllBytes(ta)).isEqualTo(before);

    assertQueriesMatchScans(pristine);
    assertThat(TalusDb.verify(pristine).clean()).isTrue(); // the reads rebuilt all three
  }

  @Test
  void aComponentOfAnotherSSTableIsCaughtByItsGeneration() throws IOException {
    Path other = component("nb-2-SaiTerms_t_a.db");
    Files.copy(component("nb-1-SaiTerms_t_a.db"), other, StandardCopyOption.REPLACE_EXISTING);
    VerifyReport r = TalusDb.verify(pristine);
    assertThat(r.dataIntact()).isTrue();
    assertThat(r.warnings()).hasSize(1);
    assertThat(r.warnings().get(0).file()).isEqualTo(other);
    assertQueriesMatchScans(pristine);
    assertThat(TalusDb.verify(pristine).clean()).isTrue();
  }

  @Test
  void everyFlippedOrTruncatedByteOfEveryComponentIsDetectedAndReadsStayExact() throws IOException {
    System.out.println("IndexComponentDamageTest seed " + SEED + " (-Dtalus.sai.corruption.seed)");
    Random rnd = new Random(SEED);
    List<Path> components;
    try (Stream<Path> s = Files.walk(pristine)) {
      components = s.filter(p -> p.getFileName().toString().contains("-Sai")).sorted().toList();
    }
    assertThat(components).hasSize(9);
    int total = 0;
    int detected = 0;
    for (Path component : components) {
      long size = Files.size(component);
      List<long[]> damages = new ArrayList<>(); // {kind 0 flip / 1 truncate, offset or length}
      for (int i = 0; i < FLIPS; i++) {
        damages.add(new long[] {0, rnd.nextInt((int) size)});
      }
      damages.add(new long[] {0, 0}); // first and last byte always
      damages.add(new long[] {0, size - 1});
      damages.add(new long[] {1, 0});
      damages.add(new long[] {1, size / 2});
      damages.add(new long[] {1, size - 1});
      for (long[] d : damages) {
        Path dir = copy(pristine, tmp.resolve("trial-" + total));
        Path target = dir.resolve(pristine.relativize(component));
        String what = (d[0] == 0 ? "flip at " : "truncate to ") + d[1] + " of " + target;
        if (d[0] == 0) {
          flip(target, (int) d[1]);
        } else {
          try (RandomAccessFile f = new RandomAccessFile(target.toFile(), "rw")) {
            f.setLength(d[1]);
          }
        }
        total++;
        VerifyReport r = TalusDb.verify(dir);
        assertThat(r.dataIntact()).as(what).isTrue();
        if (r.warnings().size() == 1 && r.warnings().get(0).file().equals(target)) {
          detected++;
        }
        assertQueriesMatchScans(dir);
        assertThat(TalusDb.verify(dir).clean()).as("rebuilt after " + what).isTrue();
        deleteTree(dir);
      }
    }
    System.out.println(
        "IndexComponentDamageTest: " + detected + "/" + total + " damages detected by verify");
    assertThat(detected).isEqualTo(total);
  }

  /** Opens {@code dir}; every indexed read equals the filtering scan; closes. */
  private static void assertQueriesMatchScans(Path dir) {
    try (TalusDb db = TalusDb.open(options(dir))) {
      Table t = db.table("t");
      for (IndexDef d : t.indexes()) { // a missing component is built in the background at open
        try {
          assertThat(t.awaitIndexBuilt(d.name(), Duration.ofMinutes(2))).isTrue();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new AssertionError(e);
        }
      }
      assertThat(t.select().eq("a", "v9").execute().rows()).isEmpty();
      for (int v = 0; v < 5; v++) {
        String a = "v" + v;
        assertThat(keys(t.select().eq("a", a).execute().rows()))
            .as("a = " + a)
            .isEqualTo(scan(t, r -> a.equals(r.getString("a"))));
      }
      assertThat(keys(t.select().ge("b", 3L).lt("b", 9L).execute().rows()))
          .isEqualTo(scan(t, r -> r.getLong("b") >= 3 && r.getLong("b") < 9));
      assertThat(keys(t.select().eq("a", "v1").eq("b", 6L).execute().rows()))
          .isEqualTo(scan(t, r -> "v1".equals(r.getString("a")) && r.getLong("b") == 6));
    }
  }

  private static List<String> keys(Iterable<ResultRow> rows) {
    List<String> out = new ArrayList<>();
    rows.forEach(r -> out.add(r.getInt("p") + "/" + r.getInt("c")));
    return out;
  }

  private static List<String> scan(Table t, Predicate<ResultRow> match) {
    List<String> out = new ArrayList<>();
    for (ResultRow r : t.select().execute().rows()) {
      if (match.test(r)) {
        out.add(r.getInt("p") + "/" + r.getInt("c"));
      }
    }
    assertThat(out).isNotEmpty();
    return out;
  }

  private Path component(String name) throws IOException {
    try (Stream<Path> s = Files.walk(pristine)) {
      return s.filter(p -> p.getFileName().toString().equals(name)).findFirst().orElseThrow();
    }
  }

  private static void flip(Path file, int offset) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(offset);
      int b = f.read();
      f.seek(offset);
      f.write(b ^ 0x10);
    }
  }

  private static Path copy(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path q = to.resolve(from.relativize(p));
        if (Files.isDirectory(p)) {
          Files.createDirectories(q);
        } else {
          Files.copy(p, q, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
    return to;
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
