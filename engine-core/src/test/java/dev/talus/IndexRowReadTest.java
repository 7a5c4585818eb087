package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index hit in a wide partition reads only the candidate rows, and stays exactly as correct as a
 * read of the whole partition: deletions newer than the row hide it, static values come with it,
 * and a query that restricts the clustering itself still reads the partition with the filter.
 */
class IndexRowReadTest {
  @TempDir Path dir;

  private TalusDb open() {
    return TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build());
  }

  private static Table wide(TalusDb db) {
    Table t =
        db.createTable(
            TableSchema.builder("t")
                .partitionKey("p", DataType.INT)
                .clusteringColumn("c", DataType.INT)
                .staticColumn("s", DataType.TEXT)
                .column("a", DataType.TEXT)
                .tombstoneThresholds(100, 100_000)
                .build());
    t.createIndex(IndexDef.sai("t_a", "a"));
    return t;
  }

  private static List<String> rows(ResultSet rs) {
    List<String> out = new ArrayList<>();
    rs.rows()
        .forEach(
            r ->
                out.add(
                    r.getInt("p")
                        + "/"
                        + r.getInt("c")
                        + " "
                        + r.getString("s")
                        + " "
                        + r.getString("a")));
    return out;
  }

  @Test
  void aHitInAWidePartitionReadsOnlyItsRowAndNotTheTombstonesAroundIt() {
    try (TalusDb db = open()) {
      Table t = wide(db);
      t.update().set("s", "static").where("p", 1).execute();
      for (int c = 0; c < 1000; c++) {
        t.insert().value("p", 1).value("c", c).value("a", c == 500 ? "needle" : "hay").execute();
      }
      for (int c = 0; c < 400; c++) {
        t.delete().eq("p", 1).eq("c", c).execute(); // 400 row tombstones before the hit
      }
      t.flush();
      long warnings = t.stats().tombstoneWarnings();
      assertThat(rows(t.select().eq("a", "needle").execute()))
          .containsExactly("1/500 static needle");
      assertThat(t.stats().tombstoneWarnings()).isEqualTo(warnings); // the tombstones: not read
      assertThat(rows(t.select().eq("a", "needle").limit(1).execute()))
          .containsExactly("1/500 static needle");
      assertThat(rows(t.select().eq("a", "needle").pageSize(5).execute()))
          .containsExactly("1/500 static needle");
      assertThat(t.stats().tombstoneWarnings()).isEqualTo(warnings); // nor with LIMIT or pages
      // restricting the clustering reads the partition with the filter: the tombstones are read
      assertThat(rows(t.select().eq("a", "needle").ge("c", 0).allowFiltering().execute()))
          .containsExactly("1/500 static needle");
      assertThat(t.stats().tombstoneWarnings()).isEqualTo(warnings + 1);
    }
  }

  @Test
  void rangeTombstonesAndPartitionDeletionsNewerThanTheRowHideIt() {
    try (TalusDb db = open()) {
      Table t = wide(db);
      for (int p = 0; p < 3; p++) {
        for (int c = 0; c < 50; c++) {
          t.insert().value("p", p).value("c", c).value("a", c % 10 == 3 ? "x" : "y").execute();
        }
      }
      t.update().set("s", "s0").where("p", 0).execute();
      t.flush();
      t.delete().eq("p", 0).ge("c", 10).le("c", 29).execute(); // hides 13 and 23 of partition 0
      t.delete().eq("p", 2).execute(); // hides partition 2
      t.flush();
      t.insert().value("p", 2).value("c", 43).value("a", "x").execute(); // newer than the delete
      t.insert().value("p", 0).value("c", 13).value("a", "x").execute(); // written again
      assertThat(rows(t.select().eq("a", "x").execute()))
          .containsExactlyInAnyOrderElementsOf(
              List.of(
                  "0/3 s0 x",
                  "0/13 s0 x",
                  "0/33 s0 x",
                  "0/43 s0 x",
                  "1/3 null x",
                  "1/13 null x",
                  "1/23 null x",
                  "1/33 null x",
                  "1/43 null x",
                  "2/43 null x"));
      List<String> scan = new ArrayList<>();
      for (ResultRow r : t.select().execute().rows()) {
        if ("x".equals(r.getString("a"))) {
          scan.add(r.getInt("p") + "/" + r.getInt("c") + " " + r.getString("s") + " x");
        }
      }
      assertThat(rows(t.select().eq("a", "x").execute())).isEqualTo(scan); // the scan's order too
      t.compact();
      assertThat(rows(t.select().eq("a", "x").execute())).isEqualTo(scan);
    }
  }

  @Test
  void aPartitionWithManyHitsIsReadWholeAndPagesStayExact() {
    try (TalusDb db = open()) {
      Table t = wide(db);
      for (int c = 0; c < 300; c++) {
        t.insert().value("p", 7).value("c", c).value("a", c % 2 == 0 ? "even" : "odd").execute();
      }
      t.flush();
      assertThat(t.select().eq("a", "even").execute().rows()).hasSize(150);
      List<String> paged = new ArrayList<>();
      PagingState state = null;
      do {
        Select s = t.select().eq("a", "odd").pageSize(7);
        if (state != null) {
          s.pagingState(state);
        }
        ResultSet rs = s.execute();
        paged.addAll(rows(rs));
        state = rs.pagingState().orElse(null);
      } while (state != null);
      assertThat(paged).hasSize(150).doesNotHaveDuplicates();
      assertThat(paged.get(0)).isEqualTo("7/1 null odd");
      assertThat(paged.get(149)).isEqualTo("7/299 null odd");
    }
  }
}
