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
 * ALTER TABLE through the public API: added columns read as null in old rows, dropped columns
 * disappear from reads at once and from disk at the next compaction, never come back (not when a
 * column of the same name is added, not from commit-log replay, not after reopen), key columns
 * rename, options change, and what Cassandra refuses is refused with its wording.
 */
class AlterTableTest {
  @TempDir Path dir;

  private TalusDb open() {
    return TalusDb.open(
        TalusOptions.builder(dir)
            .clock(ManualClock.startingAtDefault())
            .backgroundCompaction(false)
            .build());
  }

  private static TableSchema schema() {
    return TableSchema.builder("t")
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT)
        .column("a", DataType.TEXT)
        .column("b", DataType.INT)
        .staticColumn("s", DataType.TEXT)
        .build();
  }

  private static void write(Table t, int from, int to) {
    for (int i = from; i < to; i++) {
      t.insert()
          .value("p", i % 3)
          .value("c", i)
          .value("a", "a" + i)
          .value("b", i)
          .value("s", "s" + (i % 3))
          .execute();
    }
  }

  private static List<String> storedColumns(Table t, int p) {
    List<String> names = new ArrayList<>();
    for (StoredPartition sp : t.dump(p)) {
      for (StoredPartition.StoredRow r : sp.rows()) {
        r.cells().forEach(c -> names.add(c.column()));
      }
    }
    return names;
  }

  @Test
  void anAddedColumnReadsAsNullInOldRowsAndTakesWrites() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      write(t, 0, 6);
      t.flush();
      TableSchema s = t.alter().addColumn("d", DataType.BIGINT).apply();
      assertThat(s.column("d")).isPresent();
      assertThat(t.schema()).isEqualTo(s);
      assertThat(t.select().eq("p", 0).eq("c", 0).execute().rows().get(0).get("d")).isNull();
      t.update().set("d", 7L).where("p", 0).where("c", 0).execute();
      assertThat(t.select().eq("p", 0).eq("c", 0).execute().rows().get(0).getLong("d"))
          .isEqualTo(7L);
    }
    try (TalusDb db = open()) {
      Table t = db.table("t");
      assertThat(t.select().eq("p", 0).eq("c", 0).execute().rows().get(0).getLong("d"))
          .isEqualTo(7L);
      assertThat(t.select().eq("p", 0).eq("c", 3).execute().rows().get(0).getString("a"))
          .isEqualTo("a3");
    }
  }

  @Test
  void aDroppedColumnVanishesFromReadsAtOnceAndFromDiskAtTheNextCompaction() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      write(t, 0, 9);
      t.flush();
      write(t, 9, 12); // memtable
      t.alter().dropColumn("a").apply();
      assertThat(t.schema().column("a")).isEmpty();
      ResultRow r = t.select().eq("p", 0).eq("c", 0).execute().rows().get(0);
      assertThat(r.columns()).doesNotContain("a");
      assertThat(r.getInt("b")).isZero();
      assertThatThrownBy(() -> t.select().columns("a").eq("p", 0).execute())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("unknown column a");
      assertThatThrownBy(() -> t.insert().value("p", 1).value("c", 1).value("a", "x").execute())
          .isInstanceOf(InvalidQueryException.class);
      // still stored (the dump shows it as dropped) until a compaction rewrites the SSTables
      assertThat(storedColumns(t, 0)).contains("a (dropped)");
      t.flush();
      t.compact();
      assertThat(storedColumns(t, 0)).isNotEmpty().doesNotContain("a (dropped)");
      assertThat(t.select().eq("p", 0).count()).isEqualTo(4);
    }
  }

  @Test
  void aRowThatOnlyHadCellsOfTheDroppedColumnIsGone() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      t.update().set("a", "only").where("p", 1).where("c", 1).execute(); // no row marker
      t.insert().value("p", 1).value("c", 2).value("a", "marked").execute();
      t.flush();
      assertThat(t.select().eq("p", 1).count()).isEqualTo(2);
      t.alter().dropColumn("a").apply();
      assertThat(t.select().eq("p", 1).execute().rows())
          .extracting(r -> r.getInt("c"))
          .containsExactly(2);
      t.compact();
      assertThat(t.select().eq("p", 1).execute().rows())
          .extracting(r -> r.getInt("c"))
          .containsExactly(2);
    }
  }

  @Test
  void reAddingADroppedColumnNeverResurrectsItsData() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      write(t, 0, 6);
      t.flush();
      write(t, 6, 9); // memtable and commit log only
      t.alter().dropColumn("a").dropColumn("s").apply();
      t.alter().addColumn("a", DataType.TEXT).addStaticColumn("s", DataType.TEXT).apply();
      assertThat(t.select().eq("p", 0).execute().rows())
          .allSatisfy(
              r -> {
                assertThat(r.get("a")).isNull();
                assertThat(r.get("s")).isNull();
              });
      t.insert().value("p", 0).value("c", 0).value("a", "new").execute();
    }
    // the commit log still holds the pre-drop records of rows 6..8: replayed, they stay invisible
    try (TalusDb db = open()) {
      Table t = db.table("t");
      assertThat(t.select().eq("p", 0).execute().rows())
          .extracting(r -> r.getString("a"))
          .containsExactly("new", null, null);
      assertThat(t.select().eq("p", 0).execute().rows())
          .allSatisfy(r -> assertThat(r.get("s")).isNull());
      t.flush();
      t.compact();
      assertThat(t.select().eq("p", 0).execute().rows())
          .extracting(r -> r.getString("a"))
          .containsExactly("new", null, null);
      assertThat(storedColumns(t, 0)).doesNotContain("a (dropped)", "s (dropped)");
    }
    // the same column re-dropped and re-added again: still nothing old
    try (TalusDb db = open()) {
      Table t = db.table("t");
      t.alter().dropColumn("a").addColumn("a", DataType.INT).apply();
      assertThat(t.select().eq("p", 0).execute().rows())
          .allSatisfy(r -> assertThat(r.get("a")).isNull());
    }
  }

  @Test
  void keyColumnsRenameAndTheDataStaysReadable() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      write(t, 0, 6);
      t.flush();
      t.alter().renameColumn("p", "pk").renameColumn("c", "ck").apply();
      assertThat(t.select().eq("pk", 1).execute().rows())
          .extracting(r -> r.getInt("ck"))
          .containsExactly(1, 4);
      assertThatThrownBy(() -> t.select().eq("p", 1).execute())
          .isInstanceOf(InvalidQueryException.class);
    }
    try (TalusDb db = open()) {
      Table t = db.table("t");
      assertThat(t.schema().partitionKey()).extracting(ColumnDef::name).containsExactly("pk");
      assertThat(t.select().eq("pk", 1).eq("ck", 4).execute().rows().get(0).getString("a"))
          .isEqualTo("a4");
    }
  }

  @Test
  void optionsChangeAndSurviveReopen() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      write(t, 0, 3);
      t.alter()
          .gcGrace(Duration.ofHours(1))
          .defaultTimeToLive(Duration.ofDays(1))
          .compaction(CompactionOptions.leveled().build())
          .compression(Compression.ZSTD)
          .chunkLengthKb(16)
          .bloomFilterFpChance(0.1)
          .options(b -> b.tombstoneThresholds(10, 20).partitionRowsThresholds(5L, 50L))
          .apply();
      t.flush();
      assertThat(t.stats().compactionStrategy()).containsIgnoringCase("level");
    }
    try (TalusDb db = open()) {
      TableSchema s = db.table("t").schema();
      assertThat(s.gcGrace()).isEqualTo(Duration.ofHours(1));
      assertThat(s.defaultTimeToLive()).isEqualTo(Duration.ofDays(1));
      assertThat(s.compaction().strategy()).isEqualTo(CompactionOptions.Strategy.LEVELED);
      assertThat(s.compression()).isEqualTo(Compression.ZSTD);
      assertThat(s.chunkLengthKb()).isEqualTo(16);
      assertThat(s.bloomFilterFpChance()).isEqualTo(0.1);
      assertThat(s.tombstoneFailureThreshold()).isEqualTo(20);
      assertThat(s.partitionRowsFail()).isEqualTo(50L);
      assertThat(db.table("t").select().count()).isEqualTo(3);
    }
  }

  @Test
  void whatCassandraRefusesIsRefusedAndNothingChanges() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      TableSchema before = t.schema();
      assertThatThrownBy(() -> t.alter().dropColumn("p").apply())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("Cannot drop PRIMARY KEY column p");
      assertThatThrownBy(() -> t.alter().renameColumn("a", "a2").apply())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("Cannot rename non PRIMARY KEY column a");
      assertThatThrownBy(() -> t.alter().addColumn("b", DataType.TEXT).apply())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("Column with name 'b' already exists");
      assertThatThrownBy(() -> t.alter().dropColumn("zz").apply())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("Column zz was not found in table t");
      assertThatThrownBy(() -> t.alter().renameColumn("c", "a").apply())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("another column of that name");
      assertThatThrownBy(() -> t.alter().addColumn("n", DataType.COUNTER).apply())
          .isInstanceOf(InvalidSchemaException.class);
      assertThatThrownBy(() -> t.alter().options(b -> b.column("x", DataType.INT)).apply())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("options only");
      // a valid change before an invalid one is not applied either
      assertThatThrownBy(() -> t.alter().addColumn("ok", DataType.INT).dropColumn("c").apply())
          .isInstanceOf(InvalidQueryException.class);
      assertThat(t.schema()).isEqualTo(before);
      Table noClustering =
          db.createTable(
              TableSchema.builder("k")
                  .partitionKey("p", DataType.INT)
                  .column("v", DataType.INT)
                  .build());
      assertThatThrownBy(() -> noClustering.alter().addStaticColumn("s2", DataType.INT).apply())
          .isInstanceOf(InvalidSchemaException.class);
    }
    try (TalusDb db = open()) {
      assertThat(db.table("t").schema()).isEqualTo(schema());
    }
  }

  @Test
  void createTableIfNotExistsComparesWithTheAlteredSchema() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      TableSchema altered = t.alter().addColumn("d", DataType.INT).apply();
      assertThatThrownBy(() -> db.createTableIfNotExists(schema()))
          .isInstanceOf(InvalidSchemaException.class)
          .hasMessageContaining("Table.alter()");
      assertThat(db.createTableIfNotExists(altered).schema()).isEqualTo(altered);
    }
  }

  @Test
  void truncateKeepsTheAlteredSchemaAndItsDroppedColumns() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      write(t, 0, 3);
      t.alter().dropColumn("a").addColumn("a", DataType.INT).apply();
      t.truncate();
      t.insert().value("p", 0).value("c", 0).value("a", 5).value("b", 1).execute();
    }
    try (TalusDb db = open()) {
      Table t = db.table("t");
      assertThat(t.select().execute().rows()).extracting(r -> r.getInt("a")).containsExactly(5);
    }
  }
}
