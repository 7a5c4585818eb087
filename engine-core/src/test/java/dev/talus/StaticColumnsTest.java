package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Static columns with Cassandra's rules (its StaticColumnsTest): one value per partition shared by
 * every row, written with or without a clustering key; a partition with static data only reads as
 * one row with null clustering; row and range deletions leave statics alone, a partition deletion
 * takes them; the same after flush, compaction and reopen.
 */
class StaticColumnsTest {
  @TempDir Path dir;
  private final ManualClock clock = ManualClock.startingAtDefault();
  private TalusDb db;
  private Table t;

  @BeforeEach
  void open() {
    db = reopen();
  }

  private TalusDb reopen() {
    TalusDb d =
        TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
    t =
        d.createTableIfNotExists(
            TableSchema.builder("st")
                .partitionKey("k", DataType.INT)
                .clusteringColumn("p", DataType.INT)
                .staticColumn("s", DataType.INT)
                .staticColumn("tags", DataType.set(DataType.TEXT))
                .column("v", DataType.INT)
                .build());
    return d;
  }

  @AfterEach
  void close() {
    db.close();
  }

  private List<List<Object>> rows(Select s) {
    List<List<Object>> out = new ArrayList<>();
    for (ResultRow r : s.execute()) {
      List<Object> row = new ArrayList<>();
      for (String c : r.columns()) {
        row.add(r.get(c));
      }
      out.add(row);
    }
    return out;
  }

  private List<List<Object>> all() {
    return rows(t.select().eq("k", 0).columns("k", "p", "s", "v"));
  }

  private static List<Object> row(Object... v) {
    return java.util.Arrays.asList(v);
  }

  private void shuffle(int step) {
    switch (step % 4) {
      case 1 -> t.flush();
      case 2 -> {
        t.flush();
        t.compact();
      }
      case 3 -> {
        db.close();
        clock.advance(Duration.ofMillis(1));
        db = reopen();
      }
      default -> {}
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 3})
  void staticsAreSharedByEveryRowOfThePartition(int step) {
    t.insert().value("k", 0).value("s", 42).execute();
    shuffle(step);
    assertThat(all())
        .as("static data only: one row, null clustering")
        .containsExactly(row(0, null, 42, null));
    t.insert().value("k", 0).value("p", 0).value("s", 12).value("v", 0).execute();
    t.insert().value("k", 0).value("p", 1).value("s", 24).value("v", 1).execute();
    shuffle(step);
    assertThat(all()).containsExactly(row(0, 0, 24, 0), row(0, 1, 24, 1));
    assertThat(rows(t.select().eq("k", 0).eq("p", 1).columns("k", "p", "s", "v")))
        .containsExactly(row(0, 1, 24, 1));
    assertThat(rows(t.select().eq("k", 0).columns("s")))
        .as("one result per row")
        .containsExactly(row(24), row(24));
    assertThat(rows(t.select().eq("k", 0).columns("p", "v"))).containsExactly(row(0, 0), row(1, 1));
    assertThat(rows(t.select().eq("k", 0).limit(1).columns("p", "s"))).containsExactly(row(0, 24));
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 3})
  void rowDeletionsLeaveStaticsAndPartitionDeletionsTakeThem(int step) {
    t.insert().value("k", 0).value("p", 0).value("s", 24).value("v", 0).execute();
    t.insert().value("k", 0).value("p", 1).value("v", 1).execute();
    t.delete().eq("k", 0).eq("p", 0).execute();
    t.delete().eq("k", 0).gt("p", 5).execute();
    shuffle(step);
    assertThat(all()).containsExactly(row(0, 1, 24, 1));
    t.delete().eq("k", 0).eq("p", 1).execute();
    shuffle(step);
    assertThat(all()).as("statics outlive every row").containsExactly(row(0, null, 24, null));
    t.delete().eq("k", 0).columns("s").execute();
    shuffle(step);
    assertThat(all()).isEmpty();
    t.update().where("k", 0).set("s", 7).execute();
    t.delete().eq("k", 0).execute();
    shuffle(step);
    assertThat(all()).isEmpty();
    assertThat(t.select().eq("k", 0).execute().isEmpty()).isTrue();
  }

  @Test
  void updatesOfStaticsNameThePartitionOnly() {
    t.update().where("k", 0).set("s", 1).add("tags", Set.of("a")).execute();
    assertThat(all()).containsExactly(row(0, null, 1, null));
    assertThatThrownBy(() -> t.update().where("k", 0).where("p", 1).set("s", 2).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining(
            "Invalid restrictions on clustering columns since the UPDATE statement modifies only"
                + " static columns");
    assertThatThrownBy(() -> t.update().where("k", 0).set("v", 2).execute())
        .hasMessageContaining("must identify one row");
    assertThatThrownBy(() -> t.insert().value("k", 0).value("v", 3).execute())
        .hasMessageContaining("Some clustering keys are missing: p");
    assertThatThrownBy(() -> t.insert().value("k", 0).execute())
        .hasMessageContaining("Some clustering keys are missing: p");
    t.update().where("k", 0).where("p", 5).set("v", 5).set("s", 6).execute();
    assertThat(all()).containsExactly(row(0, 5, 6, 5));
    assertThat(t.select().eq("k", 0).one().orElseThrow().get("tags")).isEqualTo(Set.of("a"));
    assertThatThrownBy(() -> t.delete().eq("k", 0).eq("p", 5).columns("s").execute())
        .hasMessageContaining("DELETE statement modifies only static columns");
  }

  @Test
  void aQueryOnClusteringColumnsDoesNotReturnAStaticOnlyRow() {
    t.insert().value("k", 0).value("s", 42).execute();
    assertThat(rows(t.select().eq("k", 0).eq("p", 1))).isEmpty();
    assertThat(rows(t.select().eq("k", 0).gt("p", 0))).isEmpty();
    assertThat(rows(t.select().eq("k", 0).columns("k", "p", "v")))
        .as("no static column selected, so the static row is not read")
        .isEmpty();
  }

  @Test
  void staticOnlyPartitionsPageAndComeBackFromIn() {
    for (int k = 0; k < 4; k++) {
      t.insert().value("k", k).value("s", k * 10).execute();
    }
    t.insert().value("k", 2).value("p", 1).value("v", 1).execute();
    List<Object> seen = new ArrayList<>();
    PagingState state = null;
    do {
      Select s = t.select().in("k", 0, 1, 2, 3).columns("k", "p", "s").pageSize(1);
      if (state != null) {
        s.pagingState(state);
      }
      ResultSet page = s.execute();
      for (ResultRow r : page) {
        seen.add(r.get("k") + "/" + r.get("p") + "/" + r.get("s"));
      }
      state = page.pagingState().orElse(null);
    } while (state != null);
    assertThat(seen).containsExactly("0/null/0", "1/null/10", "2/1/20", "3/null/30");
  }

  @Test
  void filteringOnAStaticColumnNeedsTheOptInAndChecksTheStaticRow() {
    t.insert().value("k", 0).value("p", 0).value("s", 1).value("v", 0).execute();
    t.insert().value("k", 0).value("p", 1).value("v", 1).execute();
    assertThatThrownBy(() -> t.select().eq("k", 0).eq("s", 1).execute())
        .hasMessageContaining("allowFiltering()");
    assertThat(rows(t.select().eq("k", 0).eq("s", 1).allowFiltering().columns("p")))
        .containsExactly(row(0), row(1));
    assertThat(rows(t.select().eq("k", 0).eq("s", 2).allowFiltering().columns("p"))).isEmpty();
  }
}
