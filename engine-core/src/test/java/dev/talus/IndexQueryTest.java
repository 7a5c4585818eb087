package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads served by a storage-attached index: they return exactly what the same read with {@code
 * allowFiltering()} returns without the index (rows from memtables and SSTables, in token order),
 * an overwritten, deleted or expired value never returns its row, LIMIT and paging work, an index
 * created on existing data answers like one kept from the start, and a missing or damaged component
 * is rebuilt.
 */
class IndexQueryTest {
  @TempDir Path dir;
  private final ManualClock clock = ManualClock.startingAtDefault();

  private TalusDb open() {
    return TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
  }

  private static TableSchema schema() {
    return TableSchema.builder("t")
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT)
        .column("a", DataType.TEXT)
        .column("b", DataType.BIGINT)
        .column("x", DataType.INT)
        .build();
  }

  private static void put(Table t, int p, int c, String a, long b) {
    t.insert().value("p", p).value("c", c).value("a", a).value("b", b).value("x", c).execute();
  }

  /** The rows as "p/c" strings, in the order returned. */
  private static List<String> keys(ResultSet rs) {
    List<String> out = new ArrayList<>();
    rs.rows().forEach(r -> out.add(r.getInt("p") + "/" + r.getInt("c")));
    return out;
  }

  /** The rows of a full scan (which no index serves) that {@code match}, as "p/c" strings. */
  private static List<String> filtered(Table t, java.util.function.Predicate<ResultRow> match) {
    List<String> out = new ArrayList<>();
    for (ResultRow r : t.select().execute().rows()) {
      if (match.test(r)) {
        out.add(r.getInt("p") + "/" + r.getInt("c"));
      }
    }
    return out;
  }

  @Test
  void anEqualityReadsMemtableAndSSTablesInTokenOrderLikeAFilteringScan() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("t_a", "a"));
      for (int i = 0; i < 40; i++) {
        put(t, i % 7, i, i % 3 == 0 ? "red" : "blue", i);
        if (i % 10 == 9) {
          t.flush();
        }
      }
      List<String> indexed = keys(t.select().eq("a", "red").execute());
      assertThat(indexed).hasSize(14).isEqualTo(filtered(t, r -> "red".equals(r.getString("a"))));
      assertThat(keys(t.select().eq("a", "green").execute())).isEmpty();
    }
  }

  @Test
  void withoutAnIndexTheReadIsStillRefusedAndTheMessageNamesCreateIndex() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      put(t, 1, 1, "red", 1);
      assertThatThrownBy(() -> t.select().eq("a", "red").execute())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("createIndex");
      t.createIndex(IndexDef.sai("t_a", "a"));
      assertThat(keys(t.select().eq("a", "red").execute())).containsExactly("1/1");
      // a condition on a column without an index still needs the opt-in
      assertThatThrownBy(() -> t.select().eq("a", "red").eq("x", 1).execute())
          .isInstanceOf(InvalidQueryException.class);
      assertThat(keys(t.select().eq("a", "red").eq("x", 1).allowFiltering().execute()))
          .containsExactly("1/1");
      t.dropIndex("t_a");
      assertThatThrownBy(() -> t.select().eq("a", "red").execute())
          .isInstanceOf(InvalidQueryException.class);
    }
  }

  @Test
  void anOverwrittenValueNeverReturnsItsRow() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("t_a", "a"));
      put(t, 1, 1, "old", 1);
      t.flush();
      t.update().set("a", "new").where("p", 1).where("c", 1).execute();
      assertThat(keys(t.select().eq("a", "old").execute())).isEmpty();
      assertThat(keys(t.select().eq("a", "new").execute())).containsExactly("1/1");
      t.flush();
      assertThat(keys(t.select().eq("a", "old").execute())).isEmpty();
      t.compact();
      assertThat(keys(t.select().eq("a", "old").execute())).isEmpty();
      assertThat(keys(t.select().eq("a", "new").execute())).containsExactly("1/1");
    }
  }

  @Test
  void aDeletedRowCellOrPartitionNeverReturns() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("t_a", "a"));
      put(t, 1, 1, "v", 1);
      put(t, 1, 2, "v", 1);
      put(t, 2, 1, "v", 1);
      put(t, 3, 1, "v", 1);
      t.flush();
      t.delete().eq("p", 1).eq("c", 1).execute(); // a row
      t.delete().eq("p", 2).execute(); // a partition
      t.delete().columns("a").eq("p", 3).eq("c", 1).execute(); // a cell
      assertThat(keys(t.select().eq("a", "v").execute())).containsExactly("1/2");
      t.flush();
      t.compact();
      assertThat(keys(t.select().eq("a", "v").execute())).containsExactly("1/2");
    }
  }

  @Test
  void anExpiredValueNeverReturns() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("t_a", "a"));
      t.insert().value("p", 1).value("c", 1).value("a", "v").ttl(Duration.ofSeconds(10)).execute();
      put(t, 2, 1, "v", 1);
      t.flush();
      assertThat(keys(t.select().eq("a", "v").execute())).hasSize(2);
      clock.advance(Duration.ofSeconds(11));
      assertThat(keys(t.select().eq("a", "v").execute())).containsExactly("2/1");
    }
  }

  @Test
  void aRangeOnANumericColumnAndAnAndOfTwoIndexes() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("t_a", "a"));
      t.createIndex(IndexDef.sai("t_b", "b"));
      for (int i = 0; i < 30; i++) {
        put(t, i % 5, i, i % 2 == 0 ? "even" : "odd", i - 10);
        if (i == 14) {
          t.flush();
        }
      }
      // b in a later SSTable than a: the AND is taken over the whole table, not per SSTable
      t.update().set("b", 100L).where("p", 1).where("c", 1).execute();
      t.flush();
      assertThat(keys(t.select().ge("b", -3L).lt("b", 4L).execute()))
          .hasSize(7)
          .isEqualTo(filtered(t, r -> r.getLong("b") >= -3 && r.getLong("b") < 4));
      assertThat(keys(t.select().lt("b", -8L).execute()))
          .isEqualTo(filtered(t, r -> r.getLong("b") < -8));
      assertThat(keys(t.select().eq("a", "odd").gt("b", 10L).execute()))
          .isEqualTo(filtered(t, r -> "odd".equals(r.getString("a")) && r.getLong("b") > 10))
          .contains("1/1");
      assertThat(keys(t.select().gt("b", 5L).lt("b", 5L).execute())).isEmpty();
      // text takes equality only: a range on it stays a filtering scan
      assertThatThrownBy(() -> t.select().gt("a", "a").execute())
          .isInstanceOf(InvalidQueryException.class);
    }
  }

  @Test
  void withThePartitionKeyOnlyThatPartitionIsRead() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("t_a", "a"));
      for (int i = 0; i < 20; i++) {
        put(t, i % 4, i, i % 2 == 0 ? "even" : "odd", i);
      }
      assertThat(keys(t.select().eq("p", 1).eq("a", "odd").execute()))
          .containsExactly("1/1", "1/5", "1/9", "1/13", "1/17");
      assertThat(keys(t.select().eq("p", 1).eq("a", "even").execute())).isEmpty();
    }
  }

  @Test
  void limitAndPagingConcatenateToTheWholeResult() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("t_a", "a"));
      for (int i = 0; i < 50; i++) {
        put(t, i % 6, i, i % 5 == 0 ? "x" : "y", i);
        if (i == 25) {
          t.flush();
        }
      }
      List<String> all = keys(t.select().eq("a", "y").execute());
      assertThat(all).hasSize(40);
      assertThat(keys(t.select().eq("a", "y").limit(11).execute())).isEqualTo(all.subList(0, 11));
      for (int pageSize : new int[] {1, 3, 7, 40, 100}) {
        List<String> paged = new ArrayList<>();
        PagingState state = null;
        int pages = 0;
        do {
          Select s = t.select().eq("a", "y").pageSize(pageSize);
          ResultSet rs = (state == null ? s : s.pagingState(state)).execute();
          assertThat(rs.size()).isLessThanOrEqualTo(pageSize);
          paged.addAll(keys(rs));
          state = rs.pagingState().orElse(null);
          pages++;
        } while (state != null && pages < 200);
        assertThat(paged).as("page size %d", pageSize).isEqualTo(all);
      }
      List<String> limited = new ArrayList<>();
      PagingState state = null;
      do {
        Select s = t.select().eq("a", "y").limit(13).pageSize(4);
        ResultSet rs = (state == null ? s : s.pagingState(state)).execute();
        limited.addAll(keys(rs));
        state = rs.pagingState().orElse(null);
      } while (state != null);
      assertThat(limited).isEqualTo(all.subList(0, 13));
    }
  }

  @Test
  void anIndexBuiltOnExistingDataAnswersLikeOneKeptFromTheStartAndAfterReopen()
      throws IOException, InterruptedException {
    List<String> before;
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      for (int i = 0; i < 60; i++) {
        put(t, i % 9, i, "v" + (i % 4), i);
        if (i % 20 == 19) {
          t.flush();
        }
      }
      before = filtered(t, r -> "v2".equals(r.getString("a")));
      t.createIndex(IndexDef.sai("t_a", "a"));
      assertThat(t.awaitIndexBuilt("t_a", Duration.ofMinutes(2))).isTrue();
      assertThat(saiFiles("SaiTerms_t_a")).hasSize(3); // one per SSTable, built in the background
      assertThat(keys(t.select().eq("a", "v2").execute())).isEqualTo(before);
    }
    try (TalusDb db = open()) {
      Table t = db.table("t");
      assertThat(keys(t.select().eq("a", "v2").execute())).isEqualTo(before);
      t.compact();
      assertThat(saiFiles("SaiTerms_t_a")).hasSize(1); // written with the compaction's output
      assertThat(saiFiles("SaiKeys")).hasSize(1);
      assertThat(keys(t.select().eq("a", "v2").execute())).isEqualTo(before);
      t.dropIndex("t_a");
      assertThat(saiFiles("SaiTerms_t_a")).isEmpty();
    }
  }

  @Test
  void aMissingOrDamagedComponentIsRebuiltAndTheAnswerStaysRight()
      throws IOException, InterruptedException {
    List<String> expected;
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("t_a", "a"));
      for (int i = 0; i < 30; i++) {
        put(t, i % 5, i, "v" + (i % 3), i);
      }
      t.flush();
      expected = keys(t.select().eq("a", "v1").execute());
      assertThat(expected).hasSize(10);
    }
    Path terms = saiFiles("SaiTerms_t_a").get(0);
    Path rowKeys = saiFiles("SaiKeys").get(0);
    for (String damage : List.of("flip terms", "flip keys", "delete terms", "delete keys")) {
      Path f = damage.endsWith("terms") ? terms : rowKeys;
      if (damage.startsWith("delete")) {
        Files.delete(f);
      } else {
        byte[] b = Files.readAllBytes(f);
        b[b.length / 2] ^= 0x10;
        Files.write(f, b);
      }
      try (TalusDb db = open()) {
        // a missing component is built again in the background at open, a damaged one by the read
        assertThat(db.table("t").awaitIndexBuilt("t_a", Duration.ofMinutes(2))).isTrue();
        assertThat(keys(db.table("t").select().eq("a", "v1").execute()))
            .as(damage)
            .isEqualTo(expected);
      }
      assertThat(f).exists();
    }
  }

  private List<Path> saiFiles(String kind) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.getFileName().toString().matches("nb-\\d+-" + kind + "(\\.db)?"))
          .toList();
    }
  }
}
