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
      assertThatThrownBy(() -> t.cql.execute("CREATE INDEX ON m (entries(s))"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("Cannot create index on entries of column s with non-map type");
      assertThatThrownBy(
              () ->
                  t.cql.execute(
                      "CREATE INDEX ON m (v) WITH OPTIONS = {'case_sensitive': 'perhaps'}"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("Illegal value for boolean option 'case_sensitive'");
      assertThatThrownBy(() -> t.cql.execute("CREATE INDEX ON nope (v)"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("Table 'talus.nope' doesn't exist");
      assertThat(t.db.table("m").indexes()).isEmpty();
    }
  }

  @Test
  void collectionAndAnalyzedIndexesInEveryDdlFormServeTheirQueriesAndRoundTrip(
      @TempDir Path other) {
    String ddl;
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute(
          "CREATE TABLE c (k int, n int, tags set<text>, l list<int>, m map<text, int>,"
              + " fz frozen<list<int>>, name text, PRIMARY KEY (k, n))");
      t.cql.execute("CREATE INDEX ON c (tags)");
      t.cql.execute("CREATE INDEX c_l ON c (values(l)) USING 'sai'");
      t.cql.execute("CREATE INDEX c_mk ON c (keys(m)) USING 'sai'");
      t.cql.execute("CREATE INDEX c_mv ON c (values(m))");
      t.cql.execute("CREATE CUSTOM INDEX c_fz ON c (full(fz)) USING 'StorageAttachedIndex'");
      t.cql.execute(
          "CREATE INDEX c_name ON c (name) USING 'sai'"
              + " WITH OPTIONS = {'case_sensitive': false, 'normalize': 'true'}");
      assertThat(t.db.table("c").indexes())
          .extracting(IndexDef::name, IndexDef::target)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("c_tags_idx", IndexDef.Target.VALUES),
              org.assertj.core.groups.Tuple.tuple("c_l", IndexDef.Target.VALUES),
              org.assertj.core.groups.Tuple.tuple("c_mk", IndexDef.Target.KEYS),
              org.assertj.core.groups.Tuple.tuple("c_mv", IndexDef.Target.VALUES),
              org.assertj.core.groups.Tuple.tuple("c_fz", IndexDef.Target.FULL),
              org.assertj.core.groups.Tuple.tuple("c_name", IndexDef.Target.SIMPLE));
      assertThat(t.db.table("c").indexes().get(5).options())
          .containsExactly(
              java.util.Map.entry("case_sensitive", "false"),
              java.util.Map.entry("normalize", "true"));
      for (int i = 0; i < 12; i++) {
        t.cql.execute(
            "INSERT INTO c (k, n, tags, l, m, fz, name) VALUES (?, ?, ?, ?, ?, ?, ?)",
            i % 4,
            i,
            java.util.Set.of("t" + (i % 3)),
            List.of(i % 5),
            java.util.Map.of("k" + (i % 2), i % 3),
            List.of(i % 2, 7),
            i % 2 == 0 ? "Ada" : "ADA");
        if (i == 5) {
          t.db.table("c").flush();
        }
      }
      assertThat(t.cql.execute("SELECT n FROM c WHERE tags CONTAINS 't1'").rows()).hasSize(4);
      assertThat(t.cql.execute("SELECT n FROM c WHERE l CONTAINS 4").rows()).hasSize(2);
      assertThat(t.cql.execute("SELECT n FROM c WHERE m CONTAINS KEY 'k1'").rows()).hasSize(6);
      assertThat(t.cql.execute("SELECT n FROM c WHERE m CONTAINS 2").rows()).hasSize(4);
      assertThat(t.cql.execute("SELECT n FROM c WHERE fz = [1, 7]").rows()).hasSize(6);
      assertThat(t.cql.execute("SELECT n FROM c WHERE name = 'ada'").rows()).hasSize(12);
      assertThat(
              t.cql
                  .execute("SELECT n FROM c WHERE k = 1 AND tags CONTAINS 't1' AND m CONTAINS 1")
                  .rows())
          .extracting(r -> r.getInt("n"))
          .containsExactly(1);
      t.cql.execute("UPDATE c SET tags = tags - {'t1'} WHERE k = 1 AND n = 1");
      assertThat(t.cql.execute("SELECT n FROM c WHERE tags CONTAINS 't1'").rows()).hasSize(3);
      List<dev.talus.cql.CqlRow> described = t.cql.execute("DESCRIBE TABLE c").rows();
      assertThat(described)
          .extracting(r -> r.getString("create_statement"))
          .contains(
              "CREATE CUSTOM INDEX c_tags_idx ON talus.c (values(tags)) USING"
                  + " 'StorageAttachedIndex';",
              "CREATE CUSTOM INDEX c_mk ON talus.c (keys(m)) USING 'StorageAttachedIndex';",
              "CREATE CUSTOM INDEX c_fz ON talus.c (full(fz)) USING 'StorageAttachedIndex';",
              "CREATE CUSTOM INDEX c_name ON talus.c (name) USING 'StorageAttachedIndex' WITH"
                  + " OPTIONS = {'case_sensitive': 'false', 'normalize': 'true'};");
      List<dev.talus.cql.CqlRow> meta =
          t.cql
              .execute(
                  "SELECT index_name, kind, options FROM system_schema.indexes"
                      + " WHERE keyspace_name = 'talus' AND table_name = 'c'")
              .rows();
      assertThat(meta)
          .extracting(r -> r.getString("index_name"))
          .containsExactly("c_fz", "c_l", "c_mk", "c_mv", "c_name", "c_tags_idx");
      assertThat(meta.get(2).getString("kind")).isEqualTo("CUSTOM");
      assertThat(meta.get(2).getMap("options", String.class, String.class))
          .isEqualTo(
              java.util.Map.of(
                  "class_name",
                  "org.apache.cassandra.index.sai.StorageAttachedIndex",
                  "target",
                  "keys(m)"));
      ddl = t.cql.describe();
    }
    try (CqlDb b = new CqlDb(other)) {
      b.cql.executeScript(ddl);
      assertThat(b.cql.describe()).isEqualTo(ddl);
      assertThat(b.db.table("c").indexes()).hasSize(6);
    }
  }

  @Test
  void analysisOptionsOnCollectionElementsServeContainsAndRoundTrip(@TempDir Path other) {
    String ddl;
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute(
          "CREATE TABLE a (k int PRIMARY KEY, tags set<text>, words list<text>,"
              + " attrs map<text, int>, nums set<int>)");
      t.cql.execute(
          "CREATE INDEX ON a (tags) USING 'sai' WITH OPTIONS = {'case_sensitive': 'false'}");
      t.cql.execute("CREATE INDEX ON a (values(words)) WITH OPTIONS = {'ascii': 'true'}");
      t.cql.execute(
          "CREATE INDEX a_keys ON a (keys(attrs)) WITH OPTIONS = {'case_sensitive': 'false'}");
      t.cql.execute(
          "INSERT INTO a (k, tags, words, attrs) VALUES (1, {'Ada'}, ['café'], {'X': 1})");
      t.cql.execute(
          "INSERT INTO a (k, tags, words, attrs) VALUES (2, {'ADA'}, ['cafe'], {'x': 2})");
      t.cql.execute("INSERT INTO a (k, tags, words, attrs) VALUES (3, {'adam'}, ['cafes'], {})");
      for (int pass = 0; pass < 2; pass++) {
        assertThat(t.cql.execute("SELECT k FROM a WHERE tags CONTAINS 'ada'").rows())
            .extracting(r -> r.getInt("k"))
            .containsExactlyInAnyOrder(1, 2);
        assertThat(t.cql.execute("SELECT k FROM a WHERE words CONTAINS 'cafe'").rows())
            .extracting(r -> r.getInt("k"))
            .containsExactlyInAnyOrder(1, 2);
        assertThat(t.cql.execute("SELECT k FROM a WHERE attrs CONTAINS KEY 'x'").rows())
            .extracting(r -> r.getInt("k"))
            .containsExactlyInAnyOrder(1, 2);
        t.db.table("a").flush();
      }
      assertThatThrownBy(
              () ->
                  t.cql.execute(
                      "CREATE INDEX ON a (nums) WITH OPTIONS = {'case_sensitive': 'false'}"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("CQL type int cannot be analyzed.");
      assertThatThrownBy(
              () ->
                  t.cql.execute(
                      "CREATE INDEX ON a (entries(attrs)) WITH OPTIONS = {'ascii': 'true'}"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("cannot be analyzed.");
      assertThat(t.cql.execute("DESCRIBE TABLE a").rows())
          .extracting(r -> r.getString("create_statement"))
          .contains(
              "CREATE CUSTOM INDEX a_keys ON talus.a (keys(attrs)) USING 'StorageAttachedIndex'"
                  + " WITH OPTIONS = {'case_sensitive': 'false'};");
      ddl = t.cql.describe();
    }
    try (CqlDb b = new CqlDb(other)) {
      b.cql.executeScript(ddl);
      assertThat(b.cql.describe()).isEqualTo(ddl);
      assertThat(b.db.table("a").indexes()).hasSize(3);
    }
  }

  @Test
  void cassandrasTargetRulesAreItsMessages() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute("CREATE TABLE f (k int PRIMARY KEY, fz frozen<set<int>>, v int)");
      assertThatThrownBy(() -> t.cql.execute("CREATE INDEX ON f (fz)"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining(
              "Cannot create values() index on frozen column fz. Frozen collections are"
                  + " immutable and must be fully indexed by using the 'full(fz)' modifier");
      assertThatThrownBy(() -> t.cql.execute("CREATE INDEX ON f (keys(v))"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("Non-collection columns only support simple indexes");
      assertThatThrownBy(() -> t.cql.execute("CREATE INDEX ON f (v) WITH OPTIONS = {'zz': 'x'}"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining(
              "Properties specified [zz] are not understood by StorageAttachedIndex");
      assertThatThrownBy(
              () -> t.cql.execute("CREATE INDEX ON f (v) WITH OPTIONS = {'ascii': 'true'}"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("CQL type int cannot be analyzed.");
      assertThat(t.db.table("f").indexes()).isEmpty();
    }
  }

  @Test
  void partitionKeyComponentAndClusteringIndexesServeQueriesWithoutThePartitionKey(
      @TempDir Path other) {
    String ddl;
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute(
          "CREATE TABLE pk (k1 int, k2 text, c int, v int, PRIMARY KEY ((k1, k2), c))"
              + " WITH CLUSTERING ORDER BY (c DESC)");
      t.cql.execute("CREATE INDEX ON pk (k1) USING 'sai'");
      t.cql.execute("CREATE INDEX pk_k2 ON pk (k2) USING 'sai'");
      t.cql.execute("CREATE INDEX pk_c ON pk (c) USING 'sai'");
      for (int i = 0; i < 24; i++) {
        t.cql.execute(
            "INSERT INTO pk (k1, k2, c, v) VALUES ("
                + (i % 6)
                + ", '"
                + (i % 2)
                + "', "
                + i
                + ", "
                + i
                + ")");
        if (i == 11) {
          t.db.table("pk").flush();
        }
      }
      assertThat(t.cql.execute("SELECT v FROM pk WHERE k1 = 2").rows())
          .extracting(r -> r.getInt("v"))
          .containsExactlyInAnyOrder(2, 8, 14, 20);
      assertThat(t.cql.execute("SELECT v FROM pk WHERE k1 > 3").rows()).hasSize(8);
      assertThat(t.cql.execute("SELECT v FROM pk WHERE k2 = '1' AND k1 <= 1").rows())
          .extracting(r -> r.getInt("v"))
          .containsExactlyInAnyOrder(1, 7, 13, 19);
      assertThat(t.cql.execute("SELECT v FROM pk WHERE c >= 20").rows()).hasSize(4);
      assertThat(t.cql.execute("SELECT v FROM pk WHERE c = 7 AND k2 = '1'").rows())
          .extracting(r -> r.getInt("v"))
          .containsExactly(7);
      // without an index a range on a partition key component stays Cassandra's refusal
      t.cql.execute("DROP INDEX pk_k1_idx");
      assertThatThrownBy(() -> t.cql.execute("SELECT v FROM pk WHERE k1 > 3"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("Only EQ and IN relation are supported on the partition key");
      t.cql.execute("CREATE INDEX pk_k1_idx ON pk (k1)");
      assertThat(t.cql.execute("DESCRIBE TABLE pk").rows())
          .extracting(r -> r.getString("create_statement"))
          .contains(
              "CREATE CUSTOM INDEX pk_k2 ON talus.pk (k2) USING 'StorageAttachedIndex';",
              "CREATE CUSTOM INDEX pk_c ON talus.pk (c) USING 'StorageAttachedIndex';");
      List<dev.talus.cql.CqlRow> meta =
          t.cql
              .execute(
                  "SELECT index_name, options FROM system_schema.indexes"
                      + " WHERE keyspace_name = 'talus' AND table_name = 'pk'")
              .rows();
      assertThat(meta)
          .extracting(r -> r.getString("index_name"))
          .containsExactly("pk_c", "pk_k1_idx", "pk_k2");
      assertThat(meta.get(0).getMap("options", String.class, String.class))
          .isEqualTo(
              java.util.Map.of(
                  "class_name", "org.apache.cassandra.index.sai.StorageAttachedIndex",
                  "target", "c"));
      t.cql.execute("CREATE TABLE one (k int PRIMARY KEY, v int)");
      assertThatThrownBy(() -> t.cql.execute("CREATE INDEX ON one (k)"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("Cannot create secondary index on the only partition key column k");
      assertThatThrownBy(
              () -> t.cql.execute("CREATE INDEX ON pk (k2) WITH OPTIONS = {'ascii': 'true'}"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("Cannot specify index analyzer on primary key column: k2");
      ddl = t.cql.describe();
    }
    try (CqlDb b = new CqlDb(other)) {
      b.cql.executeScript(ddl);
      assertThat(b.cql.describe()).isEqualTo(ddl);
      assertThat(b.db.table("pk").indexes()).hasSize(3);
    }
  }

  @Test
  void anEntriesIndexServesMapEntryEqualityAndAnUnindexedMapNeedsAllowFiltering() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute(
          "CREATE TABLE e (k int, c int, m map<text, int>, u map<text, int>,"
              + " fm frozen<map<text, int>>, PRIMARY KEY (k, c))");
      t.cql.execute("CREATE INDEX e_me ON e (entries(m)) USING 'sai'");
      for (int i = 0; i < 12; i++) {
        t.cql.execute(
            "UPDATE e SET m['a"
                + (i % 3)
                + "'] = "
                + (i % 2)
                + ", u['a"
                + (i % 3)
                + "'] = "
                + (i % 2)
                + " WHERE k = "
                + (i % 4)
                + " AND c = "
                + i);
      }
      t.db.table("e").flush();
      t.cql.execute("UPDATE e SET m['a1'] = 7, u['a1'] = 7 WHERE k = 1 AND c = 1");
      assertThat(t.cql.execute("SELECT c FROM e WHERE m['a1'] = 1").rows())
          .extracting(r -> r.getInt("c"))
          .containsExactlyInAnyOrder(7);
      assertThat(t.cql.execute("SELECT c FROM e WHERE m['a1'] = 7").rows())
          .extracting(r -> r.getInt("c"))
          .containsExactly(1);
      assertThat(t.cql.execute("SELECT c FROM e WHERE u['a1'] = 7 ALLOW FILTERING").rows())
          .extracting(r -> r.getInt("c"))
          .containsExactly(1);
      assertThatThrownBy(() -> t.cql.execute("SELECT c FROM e WHERE u['a1'] = 7"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("ALLOW FILTERING");
      assertThatThrownBy(() -> t.cql.execute("SELECT c FROM e WHERE fm['a1'] = 7 ALLOW FILTERING"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining(
              "Map-entry equality predicates on frozen map column fm are not supported");
      assertThatThrownBy(() -> t.cql.execute("SELECT c FROM e WHERE c['a1'] = 7 ALLOW FILTERING"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("Column c cannot be used as a map");
      // Cassandra 5.0 has no ranges on map entries, with an entries() index or without
      assertThatThrownBy(() -> t.cql.execute("SELECT c FROM e WHERE m['a1'] > 1"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("Only EQ relations are supported on map entries");
      assertThatThrownBy(() -> t.cql.execute("SELECT c FROM e WHERE u['a1'] <= 1 ALLOW FILTERING"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("Only EQ relations are supported on map entries");
      assertThat(t.cql.execute("DESCRIBE TABLE e").rows())
          .extracting(r -> r.getString("create_statement"))
          .contains(
              "CREATE CUSTOM INDEX e_me ON talus.e (entries(m)) USING 'StorageAttachedIndex';");
      assertThat(
              t.cql
                  .execute(
                      "SELECT options FROM system_schema.indexes WHERE keyspace_name = 'talus'"
                          + " AND table_name = 'e'")
                  .rows()
                  .get(0)
                  .getMap("options", String.class, String.class))
          .containsEntry("target", "entries(m)");
    }
  }
}
