package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Analysis options on the elements of collections, as Cassandra 5.0 allows them wherever the
 * indexed values are text ({@code IndexTermType.isString()} of the element type): the values of a
 * list, set or map and the keys of a map. {@code CONTAINS} and {@code CONTAINS KEY} then compare
 * analyzed elements; each read equals a full scan filtered here with the same analysis, from
 * memtables, SSTables and after compaction, with removed and overwritten elements.
 */
class IndexAnalyzedCollectionsTest {
  @TempDir Path dir;

  private TalusDb open() {
    return TalusDb.open(
        TalusOptions.builder(dir)
            .clock(ManualClock.startingAtDefault())
            .backgroundCompaction(false)
            .build());
  }

  private static Table table(TalusDb db) {
    Table t =
        db.createTable(
            TableSchema.builder("t")
                .partitionKey("p", DataType.INT)
                .clusteringColumn("c", DataType.INT)
                .column("tags", DataType.set(DataType.TEXT))
                .column("words", DataType.list(DataType.TEXT))
                .column("attrs", DataType.map(DataType.TEXT, DataType.TEXT))
                .build());
    t.createIndex(IndexDef.sai("t_tags", "tags").withOption("case_sensitive", "false"));
    t.createIndex(IndexDef.sai("t_words", "words").withOption("ascii", "true"));
    t.createIndex(
        IndexDef.sai("t_ak", "attrs")
            .withTarget(IndexDef.Target.KEYS)
            .withOption("case_sensitive", "false"));
    t.createIndex(
        IndexDef.sai("t_av", "attrs")
            .withTarget(IndexDef.Target.VALUES)
            .withOption("normalize", "true")
            .withOption("case_sensitive", "false"));
    return t;
  }

  private static String row(ResultRow r) {
    return r.getInt("p") + "/" + r.getInt("c");
  }

  private static boolean any(Collection<?> values, Predicate<String> match) {
    if (values == null) {
      return false;
    }
    for (Object o : values) {
      if (match.test((String) o)) {
        return true;
      }
    }
    return false;
  }

  /** The indexed read {@code q} equals the full scan filtered by {@code match}. */
  private static void check(Table t, UnaryOperator<Select> q, Predicate<ResultRow> match) {
    List<String> expected = new ArrayList<>();
    for (ResultRow r : t.select().execute().rows()) {
      if (match.test(r)) {
        expected.add(row(r));
      }
    }
    List<String> got = new ArrayList<>();
    q.apply(t.select()).execute().rows().forEach(r -> got.add(row(r)));
    assertThat(got).isEqualTo(expected);
  }

  private static String nfc(String s) {
    return java.text.Normalizer.normalize(s, java.text.Normalizer.Form.NFC);
  }

  @Test
  void containsComparesAnalyzedElementsAndKeys() {
    try (TalusDb db = open()) {
      Table t = table(db);
      t.insert()
          .value("p", 1)
          .value("c", 1)
          .value("tags", Set.of("Ada", "Bob"))
          .value("words", List.of("café", "thé"))
          .value("attrs", Map.of("Colour", "Re\u0301d")) // R, e + combining acute, d
          .execute();
      t.insert()
          .value("p", 2)
          .value("c", 1)
          .value("tags", Set.of("ADA"))
          .value("words", List.of("cafe"))
          .value("attrs", Map.of("colour", "Réd")) // precomposed é
          .execute();
      t.insert().value("p", 3).value("c", 1).value("tags", Set.of("adam")).execute();
      for (int pass = 0; pass < 3; pass++) {
        assertThat(t.select().contains("tags", "ada").execute().rows())
            .extracting(r -> r.getInt("p"))
            .containsExactlyInAnyOrder(1, 2);
        assertThat(t.select().contains("words", "cafe").execute().rows())
            .extracting(r -> r.getInt("p"))
            .containsExactlyInAnyOrder(1, 2);
        assertThat(t.select().containsKey("attrs", "COLOUR").execute().rows())
            .extracting(r -> r.getInt("p"))
            .containsExactlyInAnyOrder(1, 2);
        assertThat(t.select().contains("attrs", "réd").execute().rows())
            .extracting(r -> r.getInt("p"))
            .containsExactlyInAnyOrder(1, 2);
        // two elements of one set: both must be there; with the partition key too
        assertThat(t.select().contains("tags", "ADA").contains("tags", "bob").execute().rows())
            .extracting(r -> r.getInt("p"))
            .containsExactly(1);
        assertThat(t.select().eq("p", 2).contains("tags", "aDa").execute().rows())
            .extracting(r -> r.getInt("p"))
            .containsExactly(2);
        check(
            t,
            s -> s.contains("tags", "aDA"),
            r -> any(r.getSet("tags", String.class), v -> v.equalsIgnoreCase("ada")));
        if (pass == 0) {
          t.flush();
        } else {
          t.compact();
        }
      }
    }
  }

  @Test
  void removedAndOverwrittenElementsNeverReturnTheirRow() {
    try (TalusDb db = open()) {
      Table t = table(db);
      for (int p = 0; p < 6; p++) {
        t.insert()
            .value("p", p)
            .value("c", 0)
            .value("tags", Set.of("Tag" + (p % 2), "x"))
            .value("attrs", Map.of("K" + (p % 3), "v"))
            .execute();
      }
      t.flush();
      t.update().remove("tags", Set.of("Tag0")).where("p", 0).where("c", 0).execute();
      t.update().set("tags", Set.of("other")).where("p", 2).where("c", 0).execute();
      t.update().add("tags", Set.of("TAG0")).where("p", 3).where("c", 0).execute();
      t.delete().eq("p", 4).eq("c", 0).element("attrs", "K1").execute();
      t.update().put("attrs", "k2", "w").where("p", 5).where("c", 0).execute();
      Predicate<ResultRow> tag0 =
          r -> any(r.getSet("tags", String.class), v -> v.equalsIgnoreCase("tag0"));
      Predicate<ResultRow> k1 =
          r ->
              r.getMap("attrs", String.class, String.class) != null
                  && any(
                      r.getMap("attrs", String.class, String.class).keySet(),
                      v -> v.equalsIgnoreCase("k1"));
      for (int pass = 0; pass < 3; pass++) {
        check(t, s -> s.contains("tags", "tag0"), tag0);
        check(t, s -> s.containsKey("attrs", "K1"), k1);
        check(
            t,
            s -> s.contains("attrs", "V"),
            r ->
                r.getMap("attrs", String.class, String.class) != null
                    && any(
                        r.getMap("attrs", String.class, String.class).values(),
                        v -> nfc(v).equalsIgnoreCase("v")));
        if (pass == 0) {
          t.flush();
        } else {
          t.compact();
        }
      }
      assertThat(t.select().contains("tags", "tag0").execute().rows())
          .extracting(r -> r.getInt("p"))
          .containsExactlyInAnyOrder(3, 4);
    }
  }

  @Test
  void analysisIsRefusedWhereCassandraRefusesIt() {
    try (TalusDb db = open()) {
      Table t =
          db.createTable(
              TableSchema.builder("r")
                  .partitionKey("p", DataType.INT)
                  .column("nums", DataType.set(DataType.INT))
                  .column("m", DataType.map(DataType.TEXT, DataType.INT))
                  .column("fz", DataType.frozen(DataType.set(DataType.TEXT)))
                  .build());
      assertThatThrownBy(
              () -> t.createIndex(IndexDef.sai("a", "nums").withOption("case_sensitive", "false")))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessage("CQL type int cannot be analyzed.");
      assertThatThrownBy(
              () ->
                  t.createIndex(
                      IndexDef.sai("b", "m")
                          .withTarget(IndexDef.Target.VALUES)
                          .withOption("ascii", "true")))
          .hasMessage("CQL type int cannot be analyzed.");
      assertThatThrownBy(
              () ->
                  t.createIndex(
                      IndexDef.sai("c", "m")
                          .withTarget(IndexDef.Target.ENTRIES)
                          .withOption("ascii", "true")))
          .hasMessage("CQL type map<text, int> cannot be analyzed.");
      assertThatThrownBy(
              () ->
                  t.createIndex(
                      IndexDef.sai("d", "fz")
                          .withTarget(IndexDef.Target.FULL)
                          .withOption("case_sensitive", "false")))
          .hasMessage("CQL type frozen<set<text>> cannot be analyzed.");
      t.createIndex(
          IndexDef.sai("e", "m").withTarget(IndexDef.Target.KEYS).withOption("ascii", "true"));
      assertThat(t.indexes()).extracting(IndexDef::name).containsExactly("e");
    }
  }
}
