package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.CompactionOptions;
import dev.talus.cql.CqlConfigurationException;
import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlUnsupportedException;
import dev.talus.cql.SchemaChange;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ALTER TABLE (ADD, DROP, RENAME, WITH), DROP TABLE and TRUNCATE in CQL: run through the engine's
 * schema changes, answered with Cassandra's schema-change results, refused with Cassandra's
 * messages; a dropped column's values never come back when a column of the same name is added.
 */
class AlterDropTruncateTest {
  @TempDir Path dir;

  private static void assertUpdated(CqlResult r, String table) {
    assertThat(r.kind()).isEqualTo(CqlResult.Kind.SCHEMA_CHANGE);
    SchemaChange c = r.schemaChange().orElseThrow();
    assertThat(c.change()).isEqualTo(SchemaChange.Change.UPDATED);
    assertThat(c.target()).isEqualTo(SchemaChange.Target.TABLE);
    assertThat(c.name()).isEqualTo(table);
  }

  @Test
  void addAStaticColumnThenWriteAndReadIt() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute("CREATE TABLE s (k int, c int, v text, PRIMARY KEY (k, c))");
      t.cql.execute("INSERT INTO s (k, c, v) VALUES (1, 1, 'a')");
      t.cql.execute("INSERT INTO s (k, c, v) VALUES (1, 2, 'b')");
      assertUpdated(t.cql.execute("ALTER TABLE s ADD owner text STATIC"), "s");
      assertThat(t.db.table("s").schema().staticColumns())
          .extracting(dev.talus.ColumnDef::name)
          .containsExactly("owner");
      t.cql.execute("UPDATE s SET owner = 'ann' WHERE k = 1");
      var rows = t.cql.execute("SELECT c, owner FROM s WHERE k = 1").rows();
      assertThat(rows).extracting(r -> r.getString("owner")).containsExactly("ann", "ann");
      // a static column needs clustering columns, as in Cassandra
      t.cql.execute("CREATE TABLE n (k int PRIMARY KEY, v text)");
      assertThatThrownBy(() -> t.cql.execute("ALTER TABLE n ADD owner text STATIC"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("at least one clustering column");
    }
  }

  @Test
  void addDropAndReAddAColumn() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute("CREATE TABLE x (k int, c int, v text, PRIMARY KEY (k, c))");
      t.cql.execute("INSERT INTO x (k, c, v) VALUES (1, 1, 'old')");
      assertThat(t.cql.execute("SELECT * FROM x WHERE k = 1").columns()).hasSize(3);
      assertUpdated(t.cql.execute("ALTER TABLE x ADD w int"), "x");
      // the statement cached before the ALTER is prepared again: it sees the new column
      assertThat(t.cql.execute("SELECT * FROM x WHERE k = 1").columns()).hasSize(4);
      assertUpdated(t.cql.execute("ALTER TABLE x ADD (a bigint, b text)"), "x");
      assertUpdated(t.cql.execute("ALTER TABLE x ADD IF NOT EXISTS w int"), "x");
      assertThat(t.db.table("x").schema().regularColumns())
          .extracting(dev.talus.ColumnDef::name)
          .containsExactly("v", "w", "a", "b");
      t.cql.execute("UPDATE x SET w = 5, b = 'b' WHERE k = 1 AND c = 1");
      var row = t.cql.execute("SELECT v, w, a, b FROM x WHERE k = 1").one().orElseThrow();
      assertThat(row.getString("v")).isEqualTo("old");
      assertThat(row.getInt("w")).isEqualTo(5);
      assertThat(row.get("a")).isNull();
      t.db.table("x").flush();
      assertUpdated(t.cql.execute("ALTER TABLE x DROP v"), "x");
      assertUpdated(t.cql.execute("ALTER TABLE x DROP (a, b)"), "x");
      assertUpdated(t.cql.execute("ALTER TABLE x DROP IF EXISTS nothing"), "x");
      assertThatThrownBy(() -> t.cql.execute("SELECT v FROM x WHERE k = 1"))
          .isInstanceOf(CqlInvalidRequestException.class);
      t.cql.execute("ALTER TABLE x ADD v text");
      assertThat(t.cql.execute("SELECT v, w FROM x WHERE k = 1").one().orElseThrow().get("v"))
          .isNull();
    }
  }

  @Test
  void renameKeyColumnsAndChangeOptions() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute("CREATE TABLE x (k int, c int, v text, PRIMARY KEY (k, c))");
      t.cql.execute("INSERT INTO x (k, c, v) VALUES (1, 2, 'a')");
      assertUpdated(t.cql.execute("ALTER TABLE x RENAME k TO id AND c TO seq"), "x");
      assertThat(
              t.cql.execute("SELECT seq, v FROM x WHERE id = 1").one().orElseThrow().getInt("seq"))
          .isEqualTo(2);
      assertUpdated(
          t.cql.execute(
              "ALTER TABLE x WITH gc_grace_seconds = 3600 AND default_time_to_live = 60"
                  + " AND compaction = {'class': 'LeveledCompactionStrategy'}"),
          "x");
      var s = t.db.table("x").schema();
      assertThat(s.gcGrace()).isEqualTo(Duration.ofHours(1));
      assertThat(s.defaultTimeToLive()).isEqualTo(Duration.ofMinutes(1));
      assertThat(s.compaction().strategy()).isEqualTo(CompactionOptions.Strategy.LEVELED);
      assertThatThrownBy(() -> t.cql.execute("ALTER TABLE x WITH gc_grace_seconds = -1"))
          .isInstanceOf(CqlConfigurationException.class);
    }
  }

  @Test
  void whatCassandraRefusesIsRefused() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute("CREATE TABLE x (k int, c int, v text, PRIMARY KEY (k, c))");
      assertThatThrownBy(() -> t.cql.execute("ALTER TABLE x DROP k"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("Cannot drop PRIMARY KEY column k");
      assertThatThrownBy(() -> t.cql.execute("ALTER TABLE x RENAME v TO w"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("Cannot rename non PRIMARY KEY column v");
      assertThatThrownBy(() -> t.cql.execute("ALTER TABLE x ADD v int"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("Column with name 'v' already exists");
      assertThatThrownBy(() -> t.cql.execute("ALTER TABLE x DROP nope"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("Column nope was not found in table x");
      assertThatThrownBy(() -> t.cql.execute("ALTER TABLE x DROP v USING TIMESTAMP 10"))
          .isInstanceOf(CqlUnsupportedException.class)
          .hasMessageContaining("removes the column's data whole");
      assertThatThrownBy(() -> t.cql.execute("ALTER TABLE nope ADD w int"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("table nope does not exist");
      assertThat(t.cql.execute("ALTER TABLE IF EXISTS nope ADD w int").kind())
          .isEqualTo(CqlResult.Kind.VOID);
      assertThat(t.db.table("x").schema().columns()).hasSize(3);
    }
  }

  @Test
  void dropTableAndTruncate() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute("CREATE TABLE x (k int PRIMARY KEY, v text)");
      t.cql.execute("INSERT INTO x (k, v) VALUES (1, 'a')");
      assertThat(t.cql.execute("TRUNCATE x").kind()).isEqualTo(CqlResult.Kind.VOID);
      assertThat(t.cql.execute("SELECT * FROM x WHERE k = 1").isEmpty()).isTrue();
      t.cql.execute("INSERT INTO x (k, v) VALUES (2, 'b')");
      t.cql.execute("TRUNCATE TABLE x");
      assertThat(t.cql.execute("SELECT * FROM x WHERE k = 2").isEmpty()).isTrue();
      CqlResult dropped = t.cql.execute("DROP TABLE x");
      assertThat(dropped.schemaChange().orElseThrow().change())
          .isEqualTo(SchemaChange.Change.DROPPED);
      assertThat(t.db.findTable("x")).isEmpty();
      assertThat(t.cql.execute("DROP TABLE IF EXISTS x").kind()).isEqualTo(CqlResult.Kind.VOID);
      assertThatThrownBy(() -> t.cql.execute("DROP TABLE x"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("Table 'talus.x' doesn't exist");
      assertThatThrownBy(() -> t.cql.execute("TRUNCATE x"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("doesn't exist");
      assertThatThrownBy(() -> t.cql.execute("DROP TABLE nokeyspace.x"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("Keyspace 'nokeyspace' doesn't exist");
      t.cql.execute("CREATE TABLE x (k int PRIMARY KEY, v text)");
      assertThat(t.cql.execute("SELECT * FROM x WHERE k = 1").isEmpty()).isTrue();
    }
  }
}
