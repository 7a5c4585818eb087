package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.IndexDef;
import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlResult;
import dev.talus.cql.PreparedCql;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Vector search in CQL: {@code CREATE INDEX ... USING 'sai'} on a {@code vector<float, n>} column
 * (cosine by default) and {@code SELECT ... ORDER BY v ANN OF [...] LIMIT k} with a literal and
 * with bind markers, and Cassandra's refusals.
 */
class VectorCqlTest {
  @TempDir Path dir;

  private static List<Integer> ids(CqlResult r) {
    return r.rows().stream().map(row -> row.getInt("id")).toList();
  }

  @Test
  void annOfALiteralAndOfABindMarkerReturnsTheNearestRows() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute("CREATE TABLE items (id int PRIMARY KEY, v vector<float, 3>)");
      t.cql.execute("CREATE INDEX ON items (v) USING 'sai'");
      assertThat(t.db.table("items").indexes()).containsExactly(IndexDef.sai("items_v_idx", "v"));
      PreparedCql ins = t.cql.prepare("INSERT INTO items (id, v) VALUES (?, ?)");
      ins.execute(1, new float[] {1, 0, 0});
      ins.execute(2, new float[] {0, 1, 0});
      ins.execute(3, new float[] {0.9f, 0.1f, 0});
      t.db.table("items").flush();
      t.cql.execute("INSERT INTO items (id, v) VALUES (4, [0, 0, 1])");
      assertThat(ids(t.cql.execute("SELECT id FROM items ORDER BY v ANN OF [1, 0, 0] LIMIT 2")))
          .containsExactly(1, 3);
      assertThat(
              ids(
                  t.cql
                      .prepare("SELECT id, v FROM items ORDER BY v ANN OF ? LIMIT ?")
                      .execute(new float[] {0, 0.2f, 1}, 3)))
          .containsExactly(4, 2, 3);
      assertThat(
              ids(
                  t.cql.execute(
                      "SELECT id FROM items WHERE id = 2 ORDER BY v ANN OF [1, 0, 0] LIMIT 5")))
          .containsExactly(2);
      t.cql.execute("DELETE FROM items WHERE id = 1");
      assertThat(ids(t.cql.execute("SELECT id FROM items ORDER BY v ANN OF [1, 0, 0] LIMIT 2")))
          .containsExactly(3, 2);
    }
  }

  @Test
  void annWithAnIndexedRestrictionRanksTheMatchingRows() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute("CREATE TABLE items (id int PRIMARY KEY, kind text, v vector<float, 2>)");
      t.cql.execute("CREATE INDEX ON items (v) USING 'sai'");
      t.cql.execute("CREATE INDEX ON items (kind) USING 'sai'");
      PreparedCql ins = t.cql.prepare("INSERT INTO items (id, kind, v) VALUES (?, ?, ?)");
      ins.execute(1, "a", new float[] {1, 0});
      ins.execute(2, "b", new float[] {1, 0.1f});
      ins.execute(3, "a", new float[] {0, 1});
      ins.execute(4, "a", new float[] {1, 0.5f});
      t.db.table("items").flush();
      ins.execute(5, "b", new float[] {1, 0.01f});
      assertThat(
              ids(
                  t.cql
                      .prepare("SELECT id FROM items WHERE kind = ? ORDER BY v ANN OF ? LIMIT 2")
                      .execute("a", new float[] {1, 0})))
          .containsExactly(1, 4);
      assertThat(
              ids(
                  t.cql.execute(
                      "SELECT id FROM items WHERE kind = 'b' ORDER BY v ANN OF [1, 0] LIMIT 5")))
          .containsExactly(5, 2);
    }
  }

  @Test
  void aPageSizeBelowTheLimitReadsEveryRowIntoOnePageWithCassandrasWarning() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute("CREATE TABLE items (k int, id int, v vector<float, 3>, PRIMARY KEY (k, id))");
      t.cql.execute(
          "CREATE INDEX ON items (v) USING 'sai' WITH OPTIONS = {'similarity_function':"
              + " 'euclidean'}");
      PreparedCql ins = t.cql.prepare("INSERT INTO items (k, id, v) VALUES (?, ?, ?)");
      for (int i = 0; i < 12; i++) {
        ins.execute(i % 2, i, new float[] {i, 0, 0});
      }
      t.db.table("items").flush();
      String q = "SELECT id FROM items ORDER BY v ANN OF [0, 0, 0] LIMIT 10";
      CqlResult whole = t.cql.execute(q);
      assertThat(ids(whole)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
      assertThat(whole.warnings()).isEmpty();
      dev.talus.cql.TalusSession paged =
          dev.talus.cql.TalusSession.builder(t.db).fetchSize(9).build();
      CqlResult one = paged.execute(q);
      assertThat(ids(one)).isEqualTo(ids(whole));
      assertThat(one.pagingState()).isEmpty();
      assertThat(one.warnings())
          .containsExactly(
              "Top-K queries do not support paging and the page size is set to 9, which is less"
                  + " than LIMIT 10. The page size has been set to 10 to match the LIMIT.");
      // a page size at the LIMIT or above pages nothing and warns of nothing
      CqlResult eleven = dev.talus.cql.TalusSession.builder(t.db).fetchSize(11).build().execute(q);
      assertThat(ids(eleven)).isEqualTo(ids(whole));
      assertThat(eleven.warnings()).isEmpty();
      CqlResult inPartition =
          paged.execute("SELECT id FROM items WHERE k = 1 ORDER BY v ANN OF [0, 0, 0] LIMIT 10");
      assertThat(ids(inPartition)).containsExactly(1, 3, 5, 7, 9, 11);
    }
  }

  @Test
  void misuseIsRefusedWithCassandrasMessages() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute("CREATE TABLE items (id int, c int, v vector<float, 3>, PRIMARY KEY (id, c))");
      assertThatThrownBy(
              () -> t.cql.execute("SELECT * FROM items ORDER BY v ANN OF [1, 0, 0] LIMIT 2"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("ANN ordering by vector requires the column to be indexed");
      t.cql.execute("CREATE INDEX ON items (v) USING 'sai'");
      assertThatThrownBy(() -> t.cql.execute("SELECT * FROM items ORDER BY v ANN OF [1, 0, 0]"))
          .hasMessageContaining(
              "Top-K queries must have a limit specified and the limit must be less than the query"
                  + " page size");
      assertThatThrownBy(
              () -> t.cql.execute("SELECT * FROM items ORDER BY v ANN OF [1, 0, 0] LIMIT 1001"))
          .hasMessageContaining(
              "Use of ANN OF in an ORDER BY clause requires a LIMIT that is not greater than 1000."
                  + " LIMIT was 1001");
      assertThatThrownBy(
              () ->
                  t.cql.execute(
                      "SELECT * FROM items ORDER BY v ANN OF [1, 0, 0] PER PARTITION LIMIT 1"
                          + " LIMIT 3"))
          .hasMessageContaining("Top-K queries do not support per-partition limits");
      assertThatThrownBy(
              () -> t.cql.execute("SELECT count(*) FROM items ORDER BY v ANN OF [1, 0, 0] LIMIT 3"))
          .hasMessageContaining("Top-K queries can not be run with aggregation");
      assertThatThrownBy(
              () ->
                  t.cql.execute(
                      "SELECT id FROM items GROUP BY id ORDER BY v ANN OF [1, 0, 0] LIMIT 3"))
          .hasMessageContaining("Top-K queries can not be run with aggregation");
      assertThatThrownBy(
              () ->
                  t.cql.execute(
                      "SELECT * FROM items WHERE id = 1 ORDER BY v ANN OF [1, 0, 0], c ASC LIMIT 2"))
          .hasMessageContaining("ANN ordering does not support any other ordering");
      assertThatThrownBy(
              () -> t.cql.execute("SELECT * FROM items ORDER BY v ANN OF [1, 0] LIMIT 2"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("expected 3 elements, but given 2");
      assertThatThrownBy(
              () -> t.cql.execute("SELECT * FROM items ORDER BY w ANN OF [1, 0, 0] LIMIT 2"))
          .isInstanceOf(CqlInvalidRequestException.class);
    }
  }
}
