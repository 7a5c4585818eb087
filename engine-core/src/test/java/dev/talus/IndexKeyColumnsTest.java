package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Indexes on the components of a composite partition key and on clustering columns: what CREATE
 * INDEX accepts and refuses (Cassandra's messages), and reads without the partition key — equality,
 * ranges, AND with a regular column's index — that return exactly what a full scan filtered here
 * returns, from memtables and SSTables, with deleted, overwritten and expired rows never returned.
 */
class IndexKeyColumnsTest {
  @TempDir Path dir;
  private final ManualClock clock = ManualClock.startingAtDefault();

  private TalusDb open() {
    return TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
  }

  /** Partition key (g, h), clustering (c, d DESC). */
  private static TableSchema schema() {
    return TableSchema.builder("k")
        .partitionKey("g", DataType.INT)
        .partitionKey("h", DataType.TEXT)
        .clusteringColumn("c", DataType.INT)
        .clusteringColumn("d", DataType.TIMESTAMP, ClusteringOrder.DESC)
        .column("a", DataType.TEXT)
        .build();
  }

  private static Instant at(int s) {
    return Instant.ofEpochSecond(1_700_000_000L + s);
  }

  private static void put(Table t, int g, String h, int c, int d, String a) {
    t.insert().value("g", g).value("h", h).value("c", c).value("d", at(d)).value("a", a).execute();
  }

  private static String key(ResultRow r) {
    return r.getInt("g")
        + "/"
        + r.getString("h")
        + "/"
        + r.getInt("c")
        + "/"
        + r.getInstant("d").getEpochSecond() % 1000
        + "/"
        + r.getString("a");
  }

  private static List<String> rows(ResultSet rs) {
    List<String> out = new ArrayList<>();
    rs.rows().forEach(r -> out.add(key(r)));
    return out;
  }

  /** A full scan (which no index serves) filtered here. */
  private static List<String> filtered(Table t, Predicate<ResultRow> match) {
    List<String> out = new ArrayList<>();
    for (ResultRow r : t.select().execute().rows()) {
      if (match.test(r)) {
        out.add(key(r));
      }
    }
    return out;
  }

  private static Table indexed(TalusDb db) {
    Table t = db.createTable(schema());
    t.createIndex(IndexDef.sai("k_g", "g"));
    t.createIndex(IndexDef.sai("k_h", "h"));
    t.createIndex(IndexDef.sai("k_c", "c"));
    t.createIndex(IndexDef.sai("k_d", "d"));
    t.createIndex(IndexDef.sai("k_a", "a"));
    return t;
  }

  @Test
  void keyComponentIndexesAreAcceptedAndCassandrasRefusalsKept() {
    try (TalusDb db = open()) {
      Table t = indexed(db);
      assertThat(t.indexes()).extracting(IndexDef::column).containsExactly("g", "h", "c", "d", "a");
      Table single =
          db.createTable(
              TableSchema.builder("one")
                  .partitionKey("p", DataType.INT)
                  .clusteringColumn("c", DataType.TEXT)
                  .staticColumn("s", DataType.INT)
                  .column("v", DataType.INT)
                  .build());
      assertThatThrownBy(() -> single.createIndex(IndexDef.sai("one_p", "p")))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessage("Cannot create secondary index on the only partition key column p");
      assertThatThrownBy(
              () ->
                  single.createIndex(
                      IndexDef.sai("one_c", "c").withOption("case_sensitive", "false")))
          .hasMessage("Cannot specify index analyzer on primary key column: c");
      single.createIndex(IndexDef.sai("one_c", "c"));
      // an indexed key column cannot be renamed (the index names it)
      assertThatThrownBy(() -> t.alter().renameColumn("c", "c2").apply())
          .hasMessage("Cannot rename column c because it has dependent secondary indexes (k_c)");
      t.dropIndex("k_c");
      t.alter().renameColumn("c", "c2").apply();
      assertThat(t.schema().column("c2")).isPresent();
    }
  }

  @Test
  void equalityAndRangesOnKeyComponentsWithoutThePartitionKeyMatchAFilteredScan() {
    try (TalusDb db = open()) {
      Table t = indexed(db);
      for (int i = 0; i < 60; i++) {
        put(t, i % 5, "h" + (i % 3), i % 7, i % 4, i % 2 == 0 ? "even" : "odd");
        if (i % 20 == 19) {
          t.flush();
        }
      }
      for (int round = 0; round < 2; round++) {
        assertThat(rows(t.select().eq("g", 2).execute()))
            .hasSize(12)
            .isEqualTo(filtered(t, r -> r.getInt("g") == 2));
        assertThat(rows(t.select().eq("h", "h1").execute()))
            .hasSize(20)
            .isEqualTo(filtered(t, r -> r.getString("h").equals("h1")));
        assertThat(rows(t.select().gt("g", 1).le("g", 3).execute()))
            .isEqualTo(filtered(t, r -> r.getInt("g") > 1 && r.getInt("g") <= 3));
        assertThat(rows(t.select().eq("g", 1).eq("h", "h1").execute()))
            .isEqualTo(filtered(t, r -> r.getInt("g") == 1 && r.getString("h").equals("h1")));
        assertThat(rows(t.select().eq("c", 3).execute()))
            .isNotEmpty()
            .isEqualTo(filtered(t, r -> r.getInt("c") == 3));
        // d is DESC in the clustering: the range is still one of values
        assertThat(rows(t.select().ge("d", at(2)).execute()))
            .isNotEmpty()
            .isEqualTo(filtered(t, r -> !r.getInstant("d").isBefore(at(2))));
        assertThat(rows(t.select().lt("c", 2).eq("a", "odd").gt("g", 0).execute()))
            .isNotEmpty()
            .isEqualTo(
                filtered(
                    t,
                    r -> r.getInt("c") < 2 && r.getString("a").equals("odd") && r.getInt("g") > 0));
        assertThat(rows(t.select().eq("g", 2).limit(3).execute()))
            .isEqualTo(filtered(t, r -> r.getInt("g") == 2).subList(0, 3));
        t.flush();
        t.compact();
      }
    }
  }

  @Test
  void deletedOverwrittenAndExpiredRowsAreNeverReturnedByAKeyIndex() {
    try (TalusDb db = open()) {
      Table t = indexed(db);
      put(t, 1, "x", 5, 1, "old");
      put(t, 1, "x", 6, 1, "kept");
      put(t, 2, "y", 5, 1, "gone");
      put(t, 3, "z", 5, 1, "a");
      t.insert()
          .value("g", 4)
          .value("h", "w")
          .value("c", 5)
          .value("d", at(1))
          .value("a", "ttl")
          .ttl(Duration.ofSeconds(10))
          .execute();
      t.flush();
      t.delete().eq("g", 1).eq("h", "x").eq("c", 5).eq("d", at(1)).execute(); // row delete
      t.delete().eq("g", 2).eq("h", "y").execute(); // partition delete
      put(t, 3, "z", 5, 1, "new");
      clock.advance(Duration.ofSeconds(11));
      for (int round = 0; round < 2; round++) {
        assertThat(rows(t.select().eq("c", 5).execute())).containsExactly("3/z/5/1/new");
        assertThat(rows(t.select().eq("g", 1).execute())).containsExactly("1/x/6/1/kept");
        assertThat(rows(t.select().eq("g", 2).execute())).isEmpty();
        assertThat(rows(t.select().eq("h", "w").execute())).isEmpty();
        assertThat(rows(t.select().eq("c", 5).eq("a", "a").execute())).isEmpty();
        t.flush();
        t.compact();
      }
    }
  }

  @Test
  void aKeyComponentIndexBuiltOnExistingDataAnswersAndSurvivesReopen() throws Exception {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      for (int i = 0; i < 30; i++) {
        put(t, i % 4, "h" + (i % 2), i % 5, i % 3, "v");
      }
      t.flush();
      t.createIndex(IndexDef.sai("k_h", "h"));
      t.createIndex(IndexDef.sai("k_c", "c"));
      assertThat(t.awaitIndexBuilt("k_h", Duration.ofMinutes(2))).isTrue();
      assertThat(t.awaitIndexBuilt("k_c", Duration.ofMinutes(2))).isTrue();
      assertThat(rows(t.select().eq("h", "h0").execute()))
          .hasSize(15)
          .isEqualTo(filtered(t, r -> r.getString("h").equals("h0")));
      assertThat(t.indexStatus("k_c").sstablesCovered()).isEqualTo(1);
    }
    try (TalusDb db = open()) {
      Table t = db.table("k");
      assertThat(rows(t.select().eq("c", 4).execute()))
          .hasSize(6)
          .isEqualTo(filtered(t, r -> r.getInt("c") == 4));
    }
  }

  @Test
  void damagedOrMissingKeyIndexComponentsAreReportedAndRebuilt() throws Exception {
    try (TalusDb db = open()) {
      Table t = indexed(db);
      for (int i = 0; i < 40; i++) {
        put(t, i % 5, "h" + (i % 3), i % 7, i % 4, "v");
      }
      t.flush();
    }
    List<Path> dictionaries;
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(dir)) {
      dictionaries =
          files
              .filter(
                  f -> {
                    String n = f.getFileName().toString();
                    return n.endsWith("SaiTerms_k_g.db") || n.endsWith("SaiTerms_k_c.db");
                  })
              .toList();
    }
    assertThat(dictionaries).hasSize(2);
    for (Path f : dictionaries) {
      byte[] b = java.nio.file.Files.readAllBytes(f);
      b[b.length / 2] ^= 0x40;
      java.nio.file.Files.write(f, b);
    }
    VerifyReport damaged = TalusDb.verify(dir);
    assertThat(damaged.dataIntact()).isTrue();
    assertThat(damaged.warnings()).hasSize(2);
    try (TalusDb db = open()) {
      Table t = db.table("k");
      assertThat(rows(t.select().eq("g", 3).execute()))
          .hasSize(8)
          .isEqualTo(filtered(t, r -> r.getInt("g") == 3));
      assertThat(rows(t.select().ge("c", 5).execute()))
          .hasSize(10)
          .isEqualTo(filtered(t, r -> r.getInt("c") >= 5));
    }
    assertThat(TalusDb.verify(dir).clean()).isTrue();
  }

  @Test
  void unindexedKeyRestrictionsKeepTheNormalRules() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("k_a", "a"));
      put(t, 1, "x", 1, 1, "v");
      // a partial partition key without an index on it is refused as before
      assertThatThrownBy(() -> t.select().eq("g", 1).eq("a", "v").execute())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("does not restrict partition key column(s) [h]");
      // an unindexed clustering column still needs the opt-in
      assertThatThrownBy(() -> t.select().eq("c", 1).eq("a", "v").execute())
          .isInstanceOf(InvalidQueryException.class);
      assertThat(rows(t.select().eq("c", 1).eq("a", "v").allowFiltering().execute()))
          .containsExactly("1/x/1/1/v");
    }
  }
}
