package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.IndexDef;
import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlUnsupportedException;
import dev.talus.cql.SchemaChange;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CREATE INDEX and DROP INDEX in CQL: every spelling of an SAI index, generated names, IF [NOT]
 * EXISTS, the schema change answered, what is refused, and WHERE on an indexed column without ALLOW
 * FILTERING.
 */
class IndexCqlTest {
  @TempDir Path dir;

  @Test
  void createIndexInEverySpellingThenQueryWithoutAllowFiltering() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute("CREATE TABLE m (k int, c int, v text, n bigint, PRIMARY KEY (k, c))");
      CqlResult r = t.cql.execute("CREATE INDEX ON m (v)");
      assertThat(r.schemaChange())
          .contains(
              new SchemaChange(
                  SchemaChange.Change.UPDATED, SchemaChange.Target.TABLE, "talus", "m"));
      t.cql.execute("CREATE CUSTOM INDEX IF NOT EXISTS m_n ON m (n) USING 'StorageAttachedIndex'");
      assertThat(t.db.table("m").indexes())
          .containsExactly(IndexDef.sai("m_v_idx", "v"), IndexDef.sai("m_n", "n"));
      assertThat(t.cql.execute("CREATE INDEX IF NOT EXISTS m_n ON m (n) USING 'sai'").kind())
          .isEqualTo(CqlResult.Kind.VOID);
      for (int i = 0; i < 20; i++) {
        t.cql.execute(
            "INSERT INTO m (k, c, v, n) VALUES ("
                + (i % 4)
                + ", "
                + i
                + ", 'v"
                + (i % 3)
                + "', "
                + i
                + ")");
      }
      t.db.table("m").flush();
      assertThat(t.cql.execute("SELECT c FROM m WHERE v = 'v1'").rows()).hasSize(7);
      assertThat(t.cql.execute("SELECT c FROM m WHERE n >= 5 AND n < 9").rows()).hasSize(4);
      assertThat(t.cql.execute("SELECT c FROM m WHERE k = 1 AND v = 'v1'").rows())
          .extracting(row -> row.getInt("c"))
          .containsExactly(1, 13);
      assertThat(t.cql.execute("DROP INDEX m_v_idx").schemaChange()).isPresent();
      assertThatThrownBy(() -> t.cql.execute("SELECT c FROM m WHERE v = 'v1'"))
          .isInstanceOf(CqlInvalidRequestException.class);
      assertThat(t.cql.execute("DROP INDEX IF EXISTS m_v_idx").kind())
          .isEqualTo(CqlResult.Kind.VOID);
      assertThatThrownBy(() -> t.cql.execute("DROP INDEX talus.m_v_idx"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining(
              "Index 'm_v_idx' could not be found in any of the tables of keyspace 'talus'");
      assertThat(t.db.table("m").indexes()).containsExactly(IndexDef.sai("m_n", "n"));
    }
  }

  @Test
  void describeShowsTheIndexesAndItsDdlRecreatesThem(@TempDir Path other) {
    String ddl;
    try (CqlDb a = new CqlDb(dir)) {
      a.cql.execute("CREATE TABLE m (k int PRIMARY KEY, v text, n bigint)");
      a.cql.execute("CREATE INDEX by_v ON m (v) USING 'sai'");
      List<dev.talus.cql.CqlRow> rows = a.cql.execute("DESCRIBE TABLE m").rows();
      assertThat(rows).hasSize(2);
      assertThat(rows.get(1).getString("type")).isEqualTo("index");
      assertThat(rows.get(1).getString("name")).isEqualTo("by_v");
      assertThat(rows.get(1).getString("create_statement"))
          .isEqualTo("CREATE CUSTOM INDEX by_v ON talus.m (v) USING 'StorageAttachedIndex';");
      ddl = a.cql.describe();
      assertThat(ddl).contains("CREATE CUSTOM INDEX by_v ON talus.m (v)");
    }
    try (CqlDb b = new CqlDb(other)) {
      b.cql.executeScript(ddl);
      assertThat(b.db.table("m").indexes()).containsExactly(IndexDef.sai("by_v", "v"));
      assertThat(b.cql.describe()).isEqualTo(ddl);
    }
  }

  @Test
  void whatTalusCannotIndexIsRefused() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute("CREATE TABLE m (k int PRIMARY KEY, v text, s set<int>)");
      assertThatThrownBy(() -> t.cql.execute("CREATE CUSTOM INDEX ON m (v)"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("CUSTOM index requires specifying the index class");
      assertThatThrownBy(() -> t.cql.execute("CREATE INDEX ON m (v) USING 'org.example.Other'"))
          .isInstanceOf(CqlUnsupportedException.class)
          .hasMessageContaining("not supported yet by Talus");
      assertThatThrownBy(
              () ->
                  t.cql.execute(
                      "CREATE INDEX ON m (v) USING 'sai' WITH OPTIONS = {'some_option': 1}"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("'some_option'");
      assertThatThrownBy(() -> t.cql.execute("CREATE INDEX ON m (v) WITH colour = 'red'"))
          .isInstanceOf(dev.talus.cql.CqlSyntaxException.class)
          .hasMessageContaining("Unknown property 'colour'");
      assertThatThrownBy(() -> t.cql.execute("CREATE INDEX ON m (s)"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("not yet supported by Talus");
      assertThatThrownBy(() -> t.cql.execute("CREATE INDEX ON nope (v)"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("Table 'talus.nope' doesn't exist");
      assertThat(t.db.table("m").indexes()).isEmpty();
    }
  }
}
