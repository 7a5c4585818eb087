package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What can be indexed besides whole scalar values: the values of lists, sets and maps ({@code
 * CONTAINS}), the keys of maps ({@code CONTAINS KEY}), whole frozen collections ({@code =}), and
 * analyzed text (case-insensitive, normalized, ASCII-folded equality). Each read needs no {@code
 * allowFiltering()}, equals the filtering scan, and never returns a row whose element was removed,
 * overwritten or expired.
 */
class IndexKindsTest {
  @TempDir Path dir;
  private final ManualClock clock = ManualClock.startingAtDefault();

  private TalusDb open() {
    return TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
  }

  private static TableSchema schema() {
    return TableSchema.builder("t")
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT)
        .column("tags", DataType.set(DataType.TEXT))
        .column("nums", DataType.list(DataType.INT))
        .column("attrs", DataType.map(DataType.TEXT, DataType.INT))
        .column("fz", DataType.frozen(DataType.list(DataType.INT)))
        .column("name", DataType.TEXT)
        .build();
  }

  private static List<String> keys(ResultSet rs) {
    List<String> out = new ArrayList<>();
    rs.rows().forEach(r -> out.add(r.getInt("p") + "/" + r.getInt("c")));
    return out;
  }

  private static List<String> filtered(Table t, Predicate<ResultRow> match) {
    List<String> out = new ArrayList<>();
    for (ResultRow r : t.select().execute().rows()) {
      if (match.test(r)) {
        out.add(r.getInt("p") + "/" + r.getInt("c"));
      }
    }
    return out;
  }

  private static void put(Table t, int p, int c, int i) {
    t.insert()
        .value("p", p)
        .value("c", c)
        .value("tags", Set.of("t" + (i % 3), "u" + (i % 5)))
        .value("nums", List.of(i % 4, i % 6))
        .value("attrs", Map.of("k" + (i % 3), i % 7))
        .value("fz", List.of(i % 2, i % 3))
        .value("name", i % 2 == 0 ? "Ada" : "ADA")
        .execute();
  }

  @Test
  void containsAndContainsKeyAndFullEqualityAreServedAndEqualTheFilteringScan() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("by_tag", "tags"));
      t.createIndex(IndexDef.sai("by_num", "nums").withTarget(IndexDef.Target.VALUES));
      t.createIndex(IndexDef.sai("by_attr_key", "attrs").withTarget(IndexDef.Target.KEYS));
      t.createIndex(IndexDef.sai("by_attr_value", "attrs").withTarget(IndexDef.Target.VALUES));
      t.createIndex(IndexDef.sai("by_fz", "fz").withTarget(IndexDef.Target.FULL));
      assertThat(t.indexes().get(0).target()).isEqualTo(IndexDef.Target.VALUES);
      for (int i = 0; i < 60; i++) {
        put(t, i % 9, i, i);
        if (i % 20 == 19) {
          t.flush();
        }
      }
      assertThat(keys(t.select().contains("tags", "t1").execute()))
          .hasSize(20)
          .isEqualTo(filtered(t, r -> r.getSet("tags", String.class).contains("t1")));
      assertThat(keys(t.select().contains("nums", 5).execute()))
          .isNotEmpty()
          .isEqualTo(filtered(t, r -> r.getList("nums", Integer.class).contains(5)));
      assertThat(keys(t.select().containsKey("attrs", "k2").execute()))
          .hasSize(20)
          .isEqualTo(
              filtered(t, r -> r.getMap("attrs", String.class, Integer.class).containsKey("k2")));
      assertThat(keys(t.select().contains("attrs", 6).execute()))
          .isNotEmpty()
          .isEqualTo(
              filtered(t, r -> r.getMap("attrs", String.class, Integer.class).containsValue(6)));
      assertThat(keys(t.select().eq("fz", List.of(1, 2)).execute()))
          .isNotEmpty()
          .isEqualTo(filtered(t, r -> r.getList("fz", Integer.class).equals(List.of(1, 2))));
      // two elements of one set: both must be there
      assertThat(keys(t.select().contains("tags", "t1").contains("tags", "u2").execute()))
          .isEqualTo(
              filtered(
                  t,
                  r ->
                      r.getSet("tags", String.class).contains("t1")
                          && r.getSet("tags", String.class).contains("u2")));
      assertThat(keys(t.select().eq("p", 1).contains("tags", "t1").execute()))
          .isEqualTo(
              filtered(
                  t, r -> r.getInt("p") == 1 && r.getSet("tags", String.class).contains("t1")));
    }
  }

  @Test
  void aRemovedOverwrittenOrExpiredElementNeverReturnsItsRow() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("by_tag", "tags"));
      t.createIndex(IndexDef.sai("by_key", "attrs").withTarget(IndexDef.Target.KEYS));
      t.createIndex(IndexDef.sai("by_value", "attrs").withTarget(IndexDef.Target.VALUES));
      t.insert().value("p", 1).value("c", 1).value("tags", Set.of("a", "b")).execute();
      t.insert().value("p", 2).value("c", 1).value("attrs", Map.of("k", 1)).execute();
      t.update()
          .where("p", 3)
          .where("c", 1)
          .add("tags", Set.of("e"))
          .ttl(Duration.ofSeconds(5))
          .execute();
      t.flush();
      t.update().where("p", 1).where("c", 1).remove("tags", Set.of("a")).execute();
      t.update().where("p", 2).where("c", 1).put("attrs", "k", 2).execute();
      assertThat(keys(t.select().contains("tags", "a").execute())).isEmpty();
      assertThat(keys(t.select().contains("tags", "b").execute())).containsExactly("1/1");
      assertThat(keys(t.select().contains("attrs", 1).execute())).isEmpty();
      assertThat(keys(t.select().contains("attrs", 2).execute())).containsExactly("2/1");
      assertThat(keys(t.select().contains("tags", "e").execute())).containsExactly("3/1");
      clock.advance(Duration.ofSeconds(6));
      assertThat(keys(t.select().contains("tags", "e").execute())).isEmpty();
      t.flush();
      t.delete().eq("p", 2).eq("c", 1).element("attrs", "k").execute();
      assertThat(keys(t.select().containsKey("attrs", "k").execute())).isEmpty();
      t.compact();
      assertThat(keys(t.select().contains("tags", "a").execute())).isEmpty();
      assertThat(keys(t.select().contains("attrs", 2).execute())).isEmpty();
      assertThat(keys(t.select().contains("tags", "b").execute())).containsExactly("1/1");
    }
  }

  @Test
  void anAnalyzedIndexMatchesEqualityAfterTheSameAnalysisAndKeepsItsHitsOnRecheck() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      t.createIndex(
          IndexDef.sai("by_name", "name")
              .withOption("case_sensitive", "false")
              .withOption("normalize", "true")
              .withOption("ascii", "true"));
      String[] names = {"Ada", "ADA", "ada", "Adé", "A\u0064a", "Bob", "Ad\u0065\u0301"};
      for (int i = 0; i < names.length; i++) {
        t.insert().value("p", i).value("c", 0).value("name", names[i]).execute();
        if (i == 3) {
          t.flush();
        }
      }
      assertThat(keys(t.select().eq("name", "aDa").execute()))
          .containsExactlyInAnyOrderElementsOf(List.of("0/0", "1/0", "2/0", "4/0"));
      assertThat(keys(t.select().eq("name", "ADE").execute()))
          .containsExactlyInAnyOrder("3/0", "6/0");
      assertThat(keys(t.select().eq("p", 1).eq("name", "ada").execute())).containsExactly("1/0");
      t.update().where("p", 0).where("c", 0).set("name", "Eve").execute();
      assertThat(keys(t.select().eq("name", "ada").execute())).doesNotContain("0/0").hasSize(3);
      // ranges on an analyzed (text) index are not served
      assertThatThrownBy(() -> t.select().gt("name", "a").execute())
          .isInstanceOf(InvalidQueryException.class);
    }
  }

  @Test
  void aCaseSensitiveIndexIsExact() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("by_name", "name").withOption("case_sensitive", "true"));
      t.insert().value("p", 0).value("c", 0).value("name", "Ada").execute();
      t.insert().value("p", 1).value("c", 0).value("name", "ada").execute();
      assertThat(keys(t.select().eq("name", "ada").execute())).containsExactly("1/0");
    }
  }

  @Test
  void whatCannotBeIndexedIsRefusedWithCassandrasMessages() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      assertThatThrownBy(
              () -> t.createIndex(IndexDef.sai("i", "fz").withTarget(IndexDef.Target.VALUES)))
          .hasMessageContaining(
              "Cannot create values() index on frozen column fz. Frozen collections are immutable"
                  + " and must be fully indexed by using the 'full(fz)' modifier");
      assertThatThrownBy(() -> t.createIndex(IndexDef.sai("i", "fz")))
          .hasMessageContaining("must be fully indexed");
      assertThatThrownBy(
              () -> t.createIndex(IndexDef.sai("i", "tags").withTarget(IndexDef.Target.FULL)))
          .hasMessageContaining("full() indexes can only be created on frozen collections");
      assertThatThrownBy(
              () -> t.createIndex(IndexDef.sai("i", "name").withTarget(IndexDef.Target.KEYS)))
          .hasMessageContaining(
              "Cannot create keys() index on name. Non-collection columns only support simple"
                  + " indexes");
      assertThatThrownBy(
              () -> t.createIndex(IndexDef.sai("i", "tags").withTarget(IndexDef.Target.KEYS)))
          .hasMessageContaining("Cannot create index on keys of column tags with non-map type");
      assertThatThrownBy(
              () -> t.createIndex(IndexDef.sai("i", "tags").withTarget(IndexDef.Target.ENTRIES)))
          .hasMessageContaining("Cannot create index on entries of column tags with non-map type");
      assertThatThrownBy(() -> t.createIndex(IndexDef.sai("i", "name").withOption("colour", "x")))
          .hasMessageContaining(
              "Properties specified [colour] are not understood by StorageAttachedIndex");
      assertThatThrownBy(
              () -> t.createIndex(IndexDef.sai("i", "name").withOption("case_sensitive", "maybe")))
          .hasMessageContaining("Illegal value for boolean option 'case_sensitive': maybe");
      assertThatThrownBy(
              () -> t.createIndex(IndexDef.sai("i", "nums").withOption("case_sensitive", "false")))
          .hasMessage("CQL type int cannot be analyzed.");
      assertThatThrownBy(
              () ->
                  t.createIndex(
                      IndexDef.sai("i", "fz")
                          .withTarget(IndexDef.Target.FULL)
                          .withOption("ascii", "true")))
          .hasMessage("CQL type frozen<list<int>> cannot be analyzed.");
      assertThatThrownBy(
              () ->
                  t.createIndex(
                      IndexDef.sai("i", "attrs")
                          .withTarget(IndexDef.Target.VALUES)
                          .withOption("normalize", "true")))
          .hasMessage("CQL type int cannot be analyzed.");
      assertThatThrownBy(
              () ->
                  t.createIndex(IndexDef.sai("i", "name").withOption("index_analyzer", "standard")))
          .hasMessageContaining("Index option 'index_analyzer' is not yet supported by Talus");
      t.createIndex(IndexDef.sai("i", "tags"));
      assertThatThrownBy(
              () -> t.createIndex(IndexDef.sai("j", "tags").withTarget(IndexDef.Target.VALUES)))
          .hasMessageContaining("Index j is a duplicate of existing index i");
      assertThat(t.createIndex(IndexDef.sai("j", "tags"), true)).isFalse();
      assertThat(t.createIndex(IndexDef.sai("k", "attrs"), true)).isTrue();
      assertThat(t.createIndex(IndexDef.sai("l", "attrs").withTarget(IndexDef.Target.KEYS), true))
          .isTrue();
      assertThat(t.indexes()).extracting(IndexDef::name).containsExactly("i", "k", "l");
    }
  }

  @Test
  void collectionIndexesSurviveReopenAndRebuildEqualsMaintained() throws Exception {
    List<String> before;
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("by_tag", "tags"));
      for (int i = 0; i < 30; i++) {
        put(t, i % 5, i, i);
        if (i % 10 == 9) {
          t.flush();
        }
      }
      before = keys(t.select().contains("tags", "u3").execute());
      assertThat(before).isNotEmpty();
    }
    try (TalusDb db = open()) {
      Table t = db.table("t");
      assertThat(keys(t.select().contains("tags", "u3").execute())).isEqualTo(before);
      t.dropIndex("by_tag");
      t.createIndex(IndexDef.sai("by_tag2", "tags"));
      assertThat(t.awaitIndexBuilt("by_tag2", Duration.ofMinutes(2))).isTrue();
      assertThat(keys(t.select().contains("tags", "u3").execute())).isEqualTo(before);
    }
  }

  @Test
  void aDamagedOrMissingCollectionIndexComponentIsReportedAndRebuilt() throws Exception {
    List<String> expected;
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("by_key", "attrs").withTarget(IndexDef.Target.KEYS));
      t.createIndex(IndexDef.sai("by_fz", "fz").withTarget(IndexDef.Target.FULL));
      for (int i = 0; i < 30; i++) {
        put(t, i % 6, i, i);
      }
      t.flush();
      expected = keys(t.select().containsKey("attrs", "k1").execute());
      assertThat(expected).hasSize(10);
    }
    List<Path> terms;
    try (var files = java.nio.file.Files.walk(dir)) {
      terms =
          files.filter(f -> f.getFileName().toString().contains("SaiTerms_by_")).sorted().toList();
    }
    assertThat(terms).hasSize(2);
    Path keysTerms =
        terms.stream().filter(f -> f.toString().contains("by_key")).findFirst().orElseThrow();
    byte[] bytes = java.nio.file.Files.readAllBytes(keysTerms);
    bytes[bytes.length / 2] ^= 0x10;
    java.nio.file.Files.write(keysTerms, bytes);
    Path fzTerms =
        terms.stream().filter(f -> f.toString().contains("by_fz")).findFirst().orElseThrow();
    java.nio.file.Files.delete(fzTerms);
    VerifyReport report = TalusDb.verify(dir);
    assertThat(report.warnings().stream().map(VerifyReport.Checked::file))
        .containsExactlyInAnyOrder(keysTerms, fzTerms);
    try (TalusDb db = open()) {
      Table t = db.table("t");
      // the missing full() dictionary is rebuilt in the background from the open
      assertThat(t.awaitIndexBuilt("by_fz", Duration.ofMinutes(2))).isTrue();
      assertThat(keys(t.select().containsKey("attrs", "k1").execute())).isEqualTo(expected);
      assertThat(keys(t.select().eq("fz", List.of(1, 2)).execute()))
          .isEqualTo(filtered(t, r -> List.of(1, 2).equals(r.getList("fz", Integer.class))));
    }
    assertThat(TalusDb.verify(dir).clean()).isTrue();
  }
}
