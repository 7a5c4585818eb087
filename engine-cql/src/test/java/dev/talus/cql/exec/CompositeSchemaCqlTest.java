package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.UserType;
import dev.talus.cql.CqlRow;
import dev.talus.cql.SchemaChange;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Schemas with collections, frozen values, tuples, user types, vectors, statics and counters:
 * DESCRIBE re-creates them, system_schema shows them as Cassandra writes them, and user types are
 * created and dropped through CQL.
 */
class CompositeSchemaCqlTest {
  @TempDir Path first;
  @TempDir Path second;

  private static final String SCHEMA =
      """
      CREATE KEYSPACE video WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
      CREATE TYPE video.address (street text, city text);
      CREATE TYPE video.person (name text, home frozen<address>, phones set<text>);
      CREATE TABLE video.videos (
        user text, added timeuuid, tags set<text>, meta map<text, frozen<list<int>>>,
        chapters list<text>, size tuple<int, int>, owner person, origin frozen<address>,
        emb vector<float, 4>, user_name text STATIC,
        PRIMARY KEY (user, added)) WITH CLUSTERING ORDER BY (added DESC);
      CREATE TABLE video.by_origin (origin frozen<address>, k frozen<set<int>>, v int,
        PRIMARY KEY (origin, k));
      CREATE TABLE video.views (video text PRIMARY KEY, n counter);
      """;

  @Test
  void describeRecreatesTheSameSchema() {
    String ddl;
    List<TableSchema> tables;
    List<UserType> types;
    try (CqlDb a = new CqlDb(first)) {
      a.cql.executeScript(SCHEMA);
      ddl = a.cql.describe();
      tables = a.db.tables().stream().map(Table::schema).toList();
      types = a.db.types();
    }
    assertThat(ddl)
        .contains("CREATE TYPE IF NOT EXISTS video.address (\n    street text,\n    city text\n);")
        .contains("user_name text static")
        .contains("meta map<text, frozen<list<int>>>")
        .contains("owner person")
        .contains("origin frozen<address>")
        .contains("emb vector<float, 4>")
        .contains("n counter");
    try (CqlDb b = new CqlDb(second)) {
      b.cql.executeScript(ddl);
      assertThat(b.db.types()).isEqualTo(types);
      assertThat(b.db.tables().stream().map(Table::schema).toList()).isEqualTo(tables);
      assertThat(b.cql.describe()).isEqualTo(ddl);
    }
  }

  @Test
  void systemSchemaShowsTheTypesAsCassandraWritesThem() {
    try (CqlDb a = new CqlDb(first)) {
      a.cql.executeScript(SCHEMA);
      List<CqlRow> columns =
          a.cql
              .execute(
                  "SELECT column_name, kind, type FROM system_schema.columns"
                      + " WHERE keyspace_name = 'video' AND table_name = 'videos'")
              .rows();
      assertThat(columns)
          .extracting(r -> r.getString(0) + " " + r.getString(1) + " " + r.getString(2))
          .contains(
              "tags regular set<text>",
              "meta regular map<text, frozen<list<int>>>",
              "size regular tuple<int, int>",
              "owner regular person",
              "origin regular frozen<address>",
              "emb regular vector<float, 4>",
              "user_name static text");
      List<CqlRow> types =
          a.cql
              .execute(
                  "SELECT type_name, field_names, field_types FROM system_schema.types"
                      + " WHERE keyspace_name = 'video'")
              .rows();
      assertThat(types).extracting(r -> r.getString(0)).containsExactly("address", "person");
      assertThat(types.get(1).get(1)).isEqualTo(List.of("name", "home", "phones"));
      assertThat(types.get(1).get(2))
          .isEqualTo(List.of("text", "frozen<address>", "frozen<set<text>>"));
    }
  }

  @Test
  void createTypeReportsAChangeAndDropTypeDropsIt() {
    try (CqlDb a = new CqlDb(first)) {
      SchemaChange c =
          a.cql.execute("CREATE TYPE point (x int, y int)").schemaChange().orElseThrow();
      assertThat(c.target()).isEqualTo(SchemaChange.Target.TYPE);
      assertThat(c.name()).isEqualTo("point");
      assertThat(a.cql.execute("CREATE TYPE IF NOT EXISTS point (x int)").schemaChange()).isEmpty();
      assertThatThrownBy(() -> a.cql.execute("CREATE TYPE point (x int)"))
          .hasMessageContaining("already existing");
      assertThatThrownBy(() -> a.cql.execute("CREATE TYPE bad (x int, x text)"))
          .hasMessageContaining("Duplicate field name x");
      assertThatThrownBy(() -> a.cql.execute("CREATE TYPE bad (n counter)"))
          .hasMessageContaining("A user type cannot contain counters");
      assertThatThrownBy(() -> a.cql.execute("DROP TYPE nope"))
          .hasMessageContaining("doesn't exist");
      a.cql.execute("DROP TYPE IF EXISTS nope");
      assertThat(a.cql.execute("DESCRIBE TYPE talus.point").one().orElseThrow().getString(3))
          .isEqualTo("CREATE TYPE IF NOT EXISTS talus.point (\n    x int,\n    y int\n);");
      SchemaChange d = a.cql.execute("DROP TYPE point").schemaChange().orElseThrow();
      assertThat(d.change()).isEqualTo(SchemaChange.Change.DROPPED);
      assertThat(a.db.type("point")).isEmpty();
    }
  }
}
