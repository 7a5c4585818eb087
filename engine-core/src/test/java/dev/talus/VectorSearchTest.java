package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads ordered by vector similarity ({@link Select#orderByAnn}) on a vector index: the index's
 * definition and options, Cassandra's refusals of misuse, the three similarity functions, the rows
 * returned — live and current only: overwritten, deleted and expired rows never return — and a page
 * size below the limit, which returns every row in one page as Cassandra 5.0 does.
 */
class VectorSearchTest {
  @TempDir Path dir;
  private final ManualClock clock = ManualClock.startingAtDefault();

  private TalusDb open() {
    return TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
  }

  private static TableSchema schema() {
    return TableSchema.builder("t")
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT)
        .column("v", DataType.vector(DataType.FLOAT, 2))
        .column("x", DataType.INT)
        .build();
  }

  private static void put(Table t, int p, int c, float a, float b) {
    t.insert().value("p", p).value("c", c).value("v", new float[] {a, b}).value("x", c).execute();
  }

  private static List<String> keys(ResultSet rs) {
    List<String> out = new ArrayList<>();
    rs.rows().forEach(r -> out.add(r.getInt("p") + "/" + r.getInt("c")));
    return out;
  }

  @Test
  void aVectorIndexTakesTheSimilarityFunctionOptionAsCassandraDoes() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      assertThatThrownBy(
              () ->
                  t.createIndex(
                      IndexDef.sai("t_v", "v").withOption("similarity_function", "manhattan")))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessage(
              "Similarity function MANHATTAN was not recognized for index t_v. Valid values are:"
                  + " COSINE, DOT_PRODUCT, EUCLIDEAN");
      assertThatThrownBy(
              () ->
                  t.createIndex(
                      IndexDef.sai("t_x", "x").withOption("similarity_function", "cosine")))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessage("CQL type int cannot have vector options");
      assertThatThrownBy(
              () ->
                  t.createIndex(
                      IndexDef.sai("t_v", "v").withOption("maximum_node_connections", "16")))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("maximum_node_connections");
      t.createIndex(IndexDef.sai("t_v", "v").withOption("similarity_function", "Euclidean"));
      assertThatThrownBy(() -> t.createIndex(IndexDef.sai("t_v2", "v")))
          .hasMessage("Index t_v2 is a duplicate of existing index t_v");
    }
  }

  @Test
  void onlyVectorsOfFloatAreIndexed() {
    try (TalusDb db = open()) {
      Table t =
          db.createTable(
              TableSchema.builder("t")
                  .partitionKey("p", DataType.INT)
                  .column("v", DataType.vector(DataType.INT, 2))
                  .build());
      assertThatThrownBy(() -> t.createIndex(IndexDef.sai("t_v", "v")))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("vector<int, 2>")
          .hasMessageContaining("not yet supported by Talus");
    }
  }

  @Test
  void aPageSizeBelowTheLimitReturnsEveryRowInOnePageAsCassandraDoes() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("t_v", "v").withOption("similarity_function", "euclidean"));
      for (int c = 0; c < 12; c++) {
        put(t, c % 3, c, c, 0);
        if (c == 5) {
          t.flush();
        }
      }
      float[] q = {0, 0};
      List<String> unpaged = keys(t.select().orderByAnn("v", q).limit(7).execute());
      assertThat(unpaged).hasSize(7).startsWith("0/0", "1/1", "2/2");
      for (int pageSize : new int[] {1, 3, 6, 7, 50}) {
        ResultSet rs = t.select().orderByAnn("v", q).limit(7).pageSize(pageSize).execute();
        assertThat(keys(rs)).as("page size " + pageSize).isEqualTo(unpaged);
        assertThat(rs.pagingState()).as("page size " + pageSize).isEmpty();
      }
      // with the partition key and with an indexed restriction, the same
      ResultSet inOne = t.select().eq("p", 1).orderByAnn("v", q).limit(3).pageSize(1).execute();
      assertThat(keys(inOne)).containsExactly("1/1", "1/4", "1/7");
      assertThat(inOne.pagingState()).isEmpty();
      // a paging state cannot come from an ANN read: one from another read is refused
      PagingState other = t.select().pageSize(1).execute().pagingState().orElseThrow();
      assertThatThrownBy(() -> t.select().orderByAnn("v", q).limit(3).pagingState(other).execute())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("takes no paging state");
    }
  }

  @Test
  void misuseIsRefusedWithCassandrasMessages() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      float[] q = {1, 0};
      assertThatThrownBy(() -> t.select().orderByAnn("v", q).limit(3).execute())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessage("ANN ordering by vector requires the column to be indexed");
      t.createIndex(IndexDef.sai("t_v", "v"));
      assertThatThrownBy(() -> t.select().orderByAnn("v", q).execute())
          .hasMessage(
              "Top-K queries must have a limit specified and the limit must be less than the query"
                  + " page size");
      assertThatThrownBy(() -> t.select().orderByAnn("v", q).limit(1001).execute())
          .hasMessage(
              "Use of ANN OF in an ORDER BY clause requires a LIMIT that is not greater than 1000."
                  + " LIMIT was 1001");
      assertThatThrownBy(
              () -> t.select().orderByAnn("v", q).limit(3).perPartitionLimit(1).execute())
          .hasMessage("Top-K queries do not support per-partition limits");
      assertThatThrownBy(() -> t.select().orderByAnn("v", new float[] {1, 2, 3}).limit(3).execute())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("expected 2 elements, but given 3");
      assertThatThrownBy(
              () ->
                  t.select()
                      .eq("p", 1)
                      .orderBy("c", ClusteringOrder.ASC)
                      .orderByAnn("v", q)
                      .limit(3)
                      .execute())
          .hasMessage("ANN ordering does not support any other ordering");
      assertThatThrownBy(() -> t.select().orderByAnn("x", q).limit(3).execute())
          .hasMessage("ANN ordering is only supported on float vector indexes");
      assertThatThrownBy(() -> t.select().orderByAnn("v", new float[] {0, 0}).limit(3).execute())
          .hasMessage(
              "Zero and near-zero vectors cannot be indexed or queried with cosine similarity");
      assertThatThrownBy(() -> t.select().orderByAnn("v", q).limit(3).count())
          .hasMessage("Top-K queries can not be run with aggregation");
      assertThatThrownBy(() -> t.select().orderByAnn("v", q).limit(3).groupBy("p").execute())
          .hasMessage("Top-K queries can not be run with aggregation");
      assertThatThrownBy(
              () -> t.select().orderByAnn("v", q).groupBy("p").forEachGroupedRow((r, f) -> {}))
          .hasMessage("Top-K queries can not be run with aggregation");
      assertThatThrownBy(() -> t.select().orderByAnn("v", q).limit(3).distinct().execute())
          .hasMessage("ANN ordering takes no DISTINCT");
      // a restricted column needs an index of its own, opt-in to filtering or not
      assertThatThrownBy(() -> t.select().eq("x", 1).orderByAnn("v", q).limit(3).execute())
          .hasMessage("ANN ordering by vector requires all restricted column(s) to be indexed");
      assertThatThrownBy(
              () -> t.select().eq("x", 1).allowFiltering().orderByAnn("v", q).limit(3).execute())
          .hasMessage("ANN ordering by vector requires all restricted column(s) to be indexed");
      // an equality on the vector column is not an ANN read: the index does not serve it
      assertThatThrownBy(() -> t.select().eq("v", q).execute())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("allowFiltering()");
    }
  }

  @Test
  void rowsComeBackMostSimilarFirstFromMemtableAndSSTables() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("t_v", "v").withOption("similarity_function", "euclidean"));
      put(t, 1, 1, 0, 0);
      put(t, 1, 2, 1, 1);
      t.flush();
      put(t, 2, 1, 2, 2);
      put(t, 2, 2, 3, 3);
      t.flush();
      put(t, 3, 1, 4, 4);
      ResultSet rs = t.select().orderByAnn("v", new float[] {2.9f, 2.9f}).limit(3).execute();
      assertThat(keys(rs)).containsExactly("2/2", "2/1", "3/1");
      assertThat(rs.rows().get(0).get("v")).isEqualTo(new float[] {3, 3});
      assertThat(keys(t.select().orderByAnn("v", new float[] {0, 0}).limit(10).execute()))
          .containsExactly("1/1", "1/2", "2/1", "2/2", "3/1");
      // columns are the select's
      ResultRow only =
          t.select().columns("x").orderByAnn("v", new float[] {4, 4}).limit(1).one().get();
      assertThat(only.columns()).containsExactly("x");
      assertThat(only.getInt("x")).isEqualTo(1);
    }
  }

  @Test
  void eachSimilarityFunctionScoresAsCassandra() {
    float[][] rows = {{1, 0}, {0.6f, 0.8f}, {0, 1}, {-1, 0}, {10, 0.5f}};
    float[] q = {0.8f, 0.6f};
    // cosine: angle only; dot product: (1 + a·b)/2, favours length; euclidean: distance
    assertThat(order("cosine", rows, q)).containsExactly(1, 4, 0, 2, 3);
    assertThat(order("dot_product", rows, q)).containsExactly(4, 1, 0, 2, 3);
    assertThat(order("euclidean", rows, q)).containsExactly(1, 0, 2, 3, 4);
  }

  private List<Integer> order(String function, float[][] rows, float[] q) {
    Path sub = dir.resolve(function);
    try (TalusDb db =
        TalusDb.open(TalusOptions.builder(sub).clock(clock).backgroundCompaction(false).build())) {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("t_v", "v").withOption("similarity_function", function));
      for (int i = 0; i < rows.length; i++) {
        put(t, 0, i, rows[i][0], rows[i][1]);
        if (i == 2) {
          t.flush();
        }
      }
      List<Integer> out = new ArrayList<>();
      t.select().orderByAnn("v", q).limit(10).execute().rows().forEach(r -> out.add(r.getInt("c")));
      return out;
    }
  }

  @Test
  void anOverwrittenVectorNeverReturnsItsOldPosition() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("t_v", "v").withOption("similarity_function", "euclidean"));
      for (int i = 0; i < 20; i++) {
        put(t, i, 0, i, i);
      }
      t.flush();
      // the rows closest to (0, 0) move far away, in a newer SSTable and in the memtable
      put(t, 0, 0, 100, 100);
      put(t, 1, 0, 101, 101);
      t.flush();
      put(t, 2, 0, 102, 102);
      assertThat(keys(t.select().orderByAnn("v", new float[] {0, 0}).limit(3).execute()))
          .containsExactly("3/0", "4/0", "5/0");
      assertThat(keys(t.select().orderByAnn("v", new float[] {100, 100}).limit(2).execute()))
          .containsExactly("0/0", "1/0");
      t.compact();
      assertThat(keys(t.select().orderByAnn("v", new float[] {0, 0}).limit(3).execute()))
          .containsExactly("3/0", "4/0", "5/0");
    }
  }

  @Test
  void deletedRowsPartitionsAndCellsAndExpiredRowsNeverReturn() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("t_v", "v").withOption("similarity_function", "euclidean"));
      for (int i = 0; i < 10; i++) {
        put(t, i % 5, i, i, 0);
      }
      t.insert()
          .value("p", 9)
          .value("c", 0)
          .value("v", new float[] {0.5f, 0})
          .ttl(Duration.ofSeconds(5))
          .execute();
      t.flush();
      t.delete().eq("p", 0).eq("c", 0).execute(); // a row
      t.delete().eq("p", 1).execute(); // a partition: rows 1 and 6
      t.delete().columns("v").eq("p", 2).eq("c", 2).execute(); // a cell
      clock.advance(Duration.ofSeconds(6)); // 9/0 expires
      List<String> expected = List.of("3/3", "4/4", "0/5", "2/7", "3/8");
      assertThat(keys(t.select().orderByAnn("v", new float[] {0, 0}).limit(5).execute()))
          .isEqualTo(expected);
      t.flush();
      t.compact();
      assertThat(keys(t.select().orderByAnn("v", new float[] {0, 0}).limit(5).execute()))
          .isEqualTo(expected);
    }
  }

  @Test
  void withThePartitionKeyOnlyThatPartitionIsSearched() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("t_v", "v").withOption("similarity_function", "euclidean"));
      for (int i = 0; i < 30; i++) {
        put(t, i % 3, i, i, 0);
        if (i == 14) {
          t.flush();
        }
      }
      assertThat(keys(t.select().eq("p", 1).orderByAnn("v", new float[] {0, 0}).limit(3).execute()))
          .containsExactly("1/1", "1/4", "1/7");
      assertThat(keys(t.select().eq("p", 7).orderByAnn("v", new float[] {0, 0}).limit(3).execute()))
          .isEmpty();
    }
  }

  @Test
  void otherRestrictionsRankTheMatchingRowsExactly() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("t_v", "v").withOption("similarity_function", "euclidean"));
      t.createIndex(IndexDef.sai("t_x", "x"));
      for (int i = 0; i < 30; i++) {
        t.insert()
            .value("p", i % 4)
            .value("c", i)
            .value("v", new float[] {i, 0})
            .value("x", i % 3)
            .execute();
        if (i == 14) {
          t.flush();
        }
      }
      float[] origin = {0, 0};
      // x = 1: rows 1, 4, 7, 10, ... ; the nearest of them first
      assertThat(keys(t.select().eq("x", 1).orderByAnn("v", origin).limit(3).execute()))
          .containsExactly("1/1", "0/4", "3/7");
      // with the partition key too: only that partition's matching rows
      assertThat(keys(t.select().eq("p", 3).eq("x", 1).orderByAnn("v", origin).limit(2).execute()))
          .containsExactly("3/7", "3/19");
      // an overwritten value no longer matches, a deleted row never returns
      t.update().set("x", 2).where("p", 1).where("c", 1).execute();
      t.delete().eq("p", 0).eq("c", 4).execute();
      t.flush();
      assertThat(keys(t.select().eq("x", 1).orderByAnn("v", origin).limit(3).execute()))
          .containsExactly("3/7", "2/10", "1/13");
      // filtering the read opts into, and a clustering range inside a partition
      assertThat(
              keys(
                  t.select()
                      .eq("x", 0)
                      .gt("c", 10)
                      .allowFiltering()
                      .orderByAnn("v", origin)
                      .limit(2)
                      .execute()))
          .containsExactly("0/12", "3/15");
      assertThat(keys(t.select().eq("p", 2).gt("c", 10).orderByAnn("v", origin).limit(2).execute()))
          .containsExactly("2/14", "2/18");
      // the selection asked for is what comes back
      ResultRow r =
          t.select()
              .columns("p")
              .eq("x", 2)
              .orderByAnn("v", origin)
              .limit(1)
              .execute()
              .rows()
              .get(0);
      assertThat(r.columns()).containsExactly("p");
      assertThat(r.getInt("p")).isEqualTo(1);
    }
  }

  @Test
  void theIndexSurvivesReopenAndAnIndexCreatedOnDataAnswersTheSame() {
    List<String> before;
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      for (int i = 0; i < 50; i++) {
        put(t, i % 7, i, (float) Math.sin(i), (float) Math.cos(i));
        if (i % 20 == 19) {
          t.flush();
        }
      }
      t.createIndex(IndexDef.sai("t_v", "v")); // built for the two SSTables now
      before = keys(t.select().orderByAnn("v", new float[] {0.3f, 0.7f}).limit(8).execute());
      assertThat(before).hasSize(8);
    }
    try (TalusDb db = open()) {
      Table t = db.table("t");
      assertThat(t.indexes()).hasSize(1);
      assertThat(keys(t.select().orderByAnn("v", new float[] {0.3f, 0.7f}).limit(8).execute()))
          .isEqualTo(before);
    }
  }
}
