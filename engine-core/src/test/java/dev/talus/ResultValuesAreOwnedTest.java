package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A blob a read returns belongs to the caller: changing it changes no stored value, no later read
 * and no other row of the same result (a static column's value is shared by every row of its
 * partition in the merge, and each result row gets its own copy).
 */
class ResultValuesAreOwnedTest {
  @TempDir Path dir;

  @Test
  void changingAReturnedBlobChangesNothingElse() {
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).build())) {
      Table t =
          db.createTable(
              TableSchema.builder("t")
                  .partitionKey("p", DataType.INT)
                  .clusteringColumn("c", DataType.INT)
                  .column("b", DataType.BLOB)
                  .staticColumn("s", DataType.BLOB)
                  .build());
      t.insert().value("p", 1).value("c", 1).value("b", new byte[] {1, 2}).execute();
      t.insert().value("p", 1).value("c", 2).value("b", new byte[] {3, 4}).execute();
      t.update().where("p", 1).set("s", new byte[] {9}).execute();
      for (boolean flushed : new boolean[] {false, true}) {
        if (flushed) {
          t.flush();
        }
        List<ResultRow> rows = t.select().eq("p", 1).execute().rows();
        System.out.println(
            "DEBUG " + rows + " same=" + (rows.get(0).getBytes("s") == rows.get(1).getBytes("s")));
        rows.get(0).getBytes("b")[0] = 42;
        rows.get(0).getBytes("s")[0] = 42;
        assertThat(rows.get(1).getBytes("s")).containsExactly(9);
        List<ResultRow> again = t.select().eq("p", 1).execute().rows();
        assertThat(again.get(0).getBytes("b")).containsExactly(1, 2);
        assertThat(again.get(0).getBytes("s")).containsExactly(9);
        byte[] one = t.select().eq("p", 1).eq("c", 2).one().orElseThrow().getBytes("b");
        one[1] = 0;
        assertThat(t.select().eq("p", 1).eq("c", 2).one().orElseThrow().getBytes("b"))
            .containsExactly(3, 4);
      }
    }
  }
}
