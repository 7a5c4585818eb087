package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DROP TABLE and TRUNCATE through the public API: files deleted, old handles refused, durable
 * across reopen, and commit-log records of the old table never replayed into a table recreated
 * under the same name (nor into a truncated one).
 */
class DropTruncateTest {
  @TempDir Path dir;

  private TalusDb open() {
    return TalusDb.open(
        TalusOptions.builder(dir)
            .clock(ManualClock.startingAtDefault())
            .backgroundCompaction(false)
            .build());
  }

  private static TableSchema schema() {
    return schema("t");
  }

  private static TableSchema schema(String name) {
    return TableSchema.builder(name)
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT)
        .column("v", DataType.TEXT)
        .build();
  }

  private static void write(Table t, int from, int to, String v) {
    for (int i = from; i < to; i++) {
      t.insert().value("p", i % 5).value("c", i).value("v", v).execute();
    }
  }

  private List<String> tableDirs() throws IOException {
    Path tables = dir.resolve("tables");
    if (!Files.isDirectory(tables)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(tables)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void dropDeletesTheFilesAndOldHandlesRefuse() throws IOException {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      write(t, 0, 100, "old");
      t.flush();
      write(t, 100, 150, "old");
      assertThat(tableDirs()).containsExactly("t-1");
      db.dropTable("t");
      assertThat(tableDirs()).isEmpty();
      assertThat(db.tables()).isEmpty();
      assertThatThrownBy(() -> t.select().execute())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("table t was dropped");
      assertThatThrownBy(() -> write(t, 0, 1, "x"))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("was dropped");
      assertThatThrownBy(() -> db.table("t")).isInstanceOf(InvalidQueryException.class);
      assertThatThrownBy(() -> db.dropTable("t"))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("no table named t");
      assertThat(db.dropTableIfExists("t")).isFalse();
    }
    try (TalusDb db = open()) {
      assertThat(db.findTable("t")).isEmpty();
    }
  }

  @Test
  void aTableRecreatedUnderTheSameNameStartsEmptyDespiteTheOldCommitLogRecords()
      throws IOException {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      write(t, 0, 200, "old"); // in the commit log only
      assertThat(db.dropTableIfExists("t")).isTrue();
      Table again = db.createTable(schema());
      assertThat(again.select().execute().isEmpty()).isTrue();
      write(again, 0, 3, "new");
    }
    // the old records are still in the commit log and are read at open: none lands in the new t
    try (TalusDb db = open()) {
      Table t = db.table("t");
      assertThat(t.select().execute().rows()).extracting(r -> r.getString("v")).containsOnly("new");
      assertThat(t.select().count()).isEqualTo(3);
      db.dropTable("t");
      db.createTable(schema());
    }
    // dropped and recreated in the previous session, with records of both old tables in the log
    try (TalusDb db = open()) {
      assertThat(db.table("t").select().execute().isEmpty()).isTrue();
      assertThat(tableDirs()).hasSize(1);
    }
  }

  @Test
  void anIdSeenInTheCommitLogAtOpenIsNeverGivenAgain() throws IOException {
    try (TalusDb db = open()) {
      write(db.createTable(schema()), 0, 50, "old"); // t-1, in the commit log only
      db.dropTable("t");
    }
    try (TalusDb db = open()) {
      // nothing in the schema names id 1 any more; the commit log still does
      Table t = db.createTable(schema());
      assertThat(tableDirs()).containsExactly("t-2");
      assertThat(t.select().execute().isEmpty()).isTrue();
      write(t, 0, 2, "new");
    }
    try (TalusDb db = open()) {
      assertThat(db.table("t").select().execute().rows())
          .extracting(r -> r.getString("v"))
          .containsExactly("new", "new");
    }
  }

  @Test
  void truncateEmptiesTheTableDurablyAndTheHandleGoesOn() throws IOException {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      write(t, 0, 100, "old");
      t.flush();
      write(t, 100, 120, "old"); // memtable and commit log
      t.truncate();
      assertThat(t.select().execute().isEmpty()).isTrue();
      assertThat(t.sstables()).isEmpty();
      assertThat(db.table("t").select().count()).isZero();
      assertThat(tableDirs()).hasSize(1).doesNotContain("t-1");
      write(t, 0, 4, "new");
      assertThat(t.select().count()).isEqualTo(4);
    }
    try (TalusDb db = open()) {
      Table t = db.table("t");
      assertThat(t.select().execute().rows()).extracting(r -> r.getString("v")).containsOnly("new");
      assertThat(t.select().count()).isEqualTo(4);
      t.flush();
      t.truncate();
      t.truncate(); // an empty table truncates too
    }
    try (TalusDb db = open()) {
      assertThat(db.table("t").select().execute().isEmpty()).isTrue();
      assertThat(tableDirs()).hasSize(1);
    }
  }

  @Test
  void directoriesOfTablesGoneFromTheSchemaAreRemovedAtOpenAndTheirIdsNeverReused()
      throws IOException {
    try (TalusDb db = open()) {
      db.createTable(schema());
    }
    // as a crash between the schema rewrite and the file deletion of a drop leaves it
    Path orphan = dir.resolve("tables").resolve("gone-7");
    Files.createDirectories(orphan.resolve("quarantine"));
    Files.writeString(orphan.resolve("MANIFEST.db"), "x");
    Files.writeString(orphan.resolve("quarantine").resolve("nb-1-Data.db"), "x");
    try (TalusDb db = open()) {
      assertThat(tableDirs()).containsExactly("t-1");
      db.createTable(schema("gone"));
      assertThat(tableDirs()).containsExactly("gone-8", "t-1");
    }
  }

  @Test
  void otherTablesAreUntouched() throws IOException {
    try (TalusDb db = open()) {
      Table keep = db.createTable(schema("keep"));
      Table t = db.createTable(schema());
      write(keep, 0, 50, "k");
      write(t, 0, 50, "t");
      keep.flush();
      db.dropTable("t");
      write(keep, 50, 60, "k");
    }
    try (TalusDb db = open()) {
      assertThat(db.table("keep").select().count()).isEqualTo(60);
      assertThat(db.tables()).extracting(Table::name).containsExactly("keep");
    }
  }

  @Test
  void dropTakesAQualifiedOrDefaultKeyspaceNameAndKeepsKeyspacesAndTypes() throws IOException {
    UserType point = UserType.builder("point").field("x", DataType.INT).build();
    try (TalusDb db = open()) {
      db.createKeyspace(KeyspaceSchema.builder("app").build());
      db.createType(point);
      Table inApp = db.createTable(schema().toBuilder().keyspace("app").build());
      Table inDefault = db.createTable(schema());
      write(inApp, 0, 10, "app");
      write(inDefault, 0, 10, "default");
      assertThatThrownBy(() -> db.dropKeyspace("app"))
          .isInstanceOf(InvalidSchemaException.class)
          .hasMessageContaining("drop its tables first");

      db.dropTable("t"); // the default keyspace's t
      assertThat(db.findTable("t")).isEmpty();
      assertThat(db.table("app.t").select().count()).isEqualTo(10);
      assertThatThrownBy(() -> inDefault.select().execute())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("was dropped");

      db.table("app", "t").truncate();
      assertThat(inApp.select().count()).isZero();
      write(inApp, 0, 3, "again");
    }
    try (TalusDb db = open()) {
      assertThat(db.keyspace("app")).isPresent();
      assertThat(db.type("point")).contains(point);
      assertThat(db.table("app.t").select().count()).isEqualTo(3);
      assertThat(db.dropTableIfExists("t")).isFalse();
      db.dropTable("app.t");
      assertThat(db.findTable("app", "t")).isEmpty();
      assertThat(db.dropKeyspace("app")).isTrue();
      Table recreated = db.createTable(schema());
      assertThat(recreated.select().execute().isEmpty()).isTrue();
      assertThat(db.table("t")).isSameAs(db.table(db.options().defaultKeyspace() + ".t"));
    }
    try (TalusDb db = open()) {
      assertThat(db.keyspace("app")).isEmpty();
      assertThat(db.type("point")).contains(point);
      assertThat(db.tables()).extracting(Table::name).containsExactly("t");
    }
  }
}
