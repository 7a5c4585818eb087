package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Select#distinct()}: one row per partition with its key and static columns, as CQL's {@code
 * SELECT DISTINCT} — a partition with static data and no rows included, deleted partitions not —
 * paged by partitions in a scan, and Cassandra's refusals of other columns.
 */
class DistinctTest {
  @TempDir Path dir;
  private TalusDb db;
  private Table t;

  @BeforeEach
  void open() {
    db =
        TalusDb.open(
            TalusOptions.builder(dir)
                .clock(ManualClock.startingAtDefault())
                .backgroundCompaction(false)
                .build());
    t =
        db.createTable(
            TableSchema.builder("d")
                .partitionKey("k", DataType.INT)
                .clusteringColumn("c", DataType.INT)
                .staticColumn("s", DataType.TEXT)
                .column("v", DataType.INT)
                .build());
    for (int k = 0; k < 10; k++) {
      for (int c = 0; c < 3; c++) {
        t.insert().value("k", k).value("c", c).value("v", c).execute();
      }
      t.insert().value("k", k).value("s", "s" + k).execute();
    }
    t.insert().value("k", 20).value("s", "only static").execute();
    t.delete().eq("k", 3).execute();
  }

  @AfterEach
  void close() {
    db.close();
  }

  @Test
  void onePartitionPerRowWithKeyAndStatics() {
    t.flush();
    List<ResultRow> rows = t.select().distinct().execute().rows();
    assertThat(rows).hasSize(10); // 0..9 without 3, and 20
    assertThat(rows.get(0).columns()).containsExactly("k", "s");
    assertThat(rows).extracting(r -> r.getInt("k")).doesNotContain(3).contains(20);
    for (ResultRow r : rows) {
      int k = r.getInt("k");
      assertThat(r.getString("s")).isEqualTo(k == 20 ? "only static" : "s" + k);
    }
    assertThat(t.select().distinct().in("k", 1, 20, 3).columns("k").execute().rows())
        .extracting(r -> r.getInt("k"))
        .containsExactly(1, 20);
  }

  @Test
  void aScanIsPagedByPartitions() {
    List<Integer> keys = new ArrayList<>();
    PagingState state = null;
    do {
      Select s = t.select().distinct().pageSize(3);
      if (state != null) {
        s.pagingState(state);
      }
      ResultSet rs = s.execute();
      assertThat(rs.rows().size()).isLessThanOrEqualTo(3);
      rs.forEach(r -> keys.add(r.getInt("k")));
      state = rs.pagingState().orElse(null);
    } while (state != null);
    assertThat(keys).hasSize(10).doesNotHaveDuplicates();
  }

  @Test
  void otherColumnsAreRefused() {
    assertThatThrownBy(() -> t.select().distinct().columns("k", "v").execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("must only request partition key columns and/or static columns");
    assertThatThrownBy(() -> t.select().distinct().eq("k", 1).eq("c", 1).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("only supports restriction by partition key and/or static columns");
  }
}
