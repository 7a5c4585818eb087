package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.KeyspaceSchema;
import dev.talus.cql.CqlAlreadyExistsException;
import dev.talus.cql.CqlConfigurationException;
import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlSyntaxException;
import dev.talus.cql.SchemaChange;
import dev.talus.cql.TalusSession;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CREATE / ALTER / DROP KEYSPACE and USE through CQL. */
class KeyspaceCqlTest {
  @TempDir Path dir;

  private static final String SIMPLE = "{'class': 'SimpleStrategy', 'replication_factor': 1}";

  @Test
  void createKeyspaceRecordsReplicationAndDurableWrites() {
    try (CqlDb t = new CqlDb(dir)) {
      CqlResult r =
          t.cql.execute(
              "CREATE KEYSPACE chat WITH replication = {'class': 'NetworkTopologyStrategy',"
                  + " 'datacenter1': 3} AND durable_writes = false");
      assertThat(r.kind()).isEqualTo(CqlResult.Kind.SCHEMA_CHANGE);
      assertThat(r.schemaChange())
          .contains(
              new SchemaChange(
                  SchemaChange.Change.CREATED, SchemaChange.Target.KEYSPACE, "chat", ""));
      assertThat(r.warnings())
          .singleElement()
          .asString()
          .contains(
              "Your replication factor 3 for keyspace chat is higher than the number of nodes 1");
      KeyspaceSchema ks = t.db.keyspace("chat").orElseThrow();
      assertThat(ks.durableWrites()).isFalse();
      assertThat(ks.replication())
          .isEqualTo(Map.of("class", KeyspaceSchema.NETWORK_TOPOLOGY_STRATEGY, "datacenter1", "3"));
      var row =
          t.cql
              .execute("SELECT * FROM system_schema.keyspaces WHERE keyspace_name = 'chat'")
              .one()
              .orElseThrow();
      assertThat(row.getBoolean("durable_writes")).isFalse();
      assertThat(row.getMap("replication", String.class, String.class))
          .containsEntry("datacenter1", "3");
    }
  }

  @Test
  void createTwiceIsAlreadyExistsUnlessIfNotExists() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute("CREATE KEYSPACE ks WITH replication = " + SIMPLE);
      assertThatThrownBy(() -> t.cql.execute("CREATE KEYSPACE ks WITH replication = " + SIMPLE))
          .isInstanceOfSatisfying(
              CqlAlreadyExistsException.class,
              e -> {
                assertThat(e.reason()).isEqualTo("Cannot add existing keyspace \"ks\"");
                assertThat(e.keyspace()).isEqualTo("ks");
                assertThat(e.column()).isEqualTo(17);
              });
      assertThat(
              t.cql.execute("CREATE KEYSPACE IF NOT EXISTS ks WITH replication = " + SIMPLE).kind())
          .isEqualTo(CqlResult.Kind.VOID);
    }
  }

  @Test
  void optionsAreCheckedAsCassandraChecksThem() {
    try (CqlDb t = new CqlDb(dir)) {
      assertThatThrownBy(() -> t.cql.execute("CREATE KEYSPACE k WITH durable_writes = true"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("Missing mandatory option 'replication'");
      assertThatThrownBy(
              () ->
                  t.cql.execute("CREATE KEYSPACE k WITH replication = " + SIMPLE + " AND foo = 1"))
          .isInstanceOf(CqlSyntaxException.class)
          .hasMessageContaining("Unknown property 'foo'");
      assertThatThrownBy(
              () ->
                  t.cql.execute("CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy'}"))
          .isInstanceOf(CqlConfigurationException.class)
          .hasMessageContaining("SimpleStrategy requires a replication_factor strategy option.");
      assertThatThrownBy(
              () -> t.cql.execute("CREATE KEYSPACE k WITH replication = {'class': 'Foo', 'x': 1}"))
          .isInstanceOf(CqlConfigurationException.class)
          .hasMessageContaining(
              "Unable to find replication strategy class 'org.apache.cassandra.locator.Foo'");
      assertThatThrownBy(
              () -> t.cql.execute("CREATE KEYSPACE system_schema WITH replication = " + SIMPLE))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("system_schema keyspace is not user-modifiable");
      assertThat(
              t.cql
                  .execute(
                      "CREATE KEYSPACE g WITH replication = "
                          + SIMPLE
                          + " AND graph_engine = 'Core'")
                  .warnings())
          .contains("The unsupported graph property 'graph_engine' was ignored.");
    }
  }

  @Test
  void alterChangesWhatIsGivenAndDropTakesAnEmptyKeyspace() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute("CREATE KEYSPACE ks WITH replication = " + SIMPLE);
      t.cql.execute("ALTER KEYSPACE ks WITH durable_writes = false");
      assertThat(t.db.keyspace("ks").orElseThrow().durableWrites()).isFalse();
      assertThat(t.db.keyspace("ks").orElseThrow().replication())
          .containsEntry("replication_factor", "1");
      t.cql.execute(
          "ALTER KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2}");
      assertThat(t.db.keyspace("ks").orElseThrow().durableWrites()).isFalse();
      assertThatThrownBy(() -> t.cql.execute("ALTER KEYSPACE nope WITH durable_writes = true"))
          .hasMessageContaining("Keyspace 'nope' doesn't exist");
      assertThat(t.cql.execute("ALTER KEYSPACE IF EXISTS nope WITH durable_writes = true").kind())
          .isEqualTo(CqlResult.Kind.VOID);
      t.cql.execute("CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
      t.cql.execute("CREATE TABLE ks.u (k int PRIMARY KEY)");
      t.cql.execute("CREATE KEYSPACE other WITH replication = " + SIMPLE);
      t.cql.execute("CREATE TABLE other.t (k int PRIMARY KEY, v text)");
      t.cql.execute("INSERT INTO ks.t (k, v) VALUES (1, 'a')");
      t.cql.execute("INSERT INTO other.t (k, v) VALUES (1, 'kept')");
      // a keyspace that holds tables drops them with it; another keyspace's tables stay
      assertThat(t.cql.execute("DROP KEYSPACE ks").schemaChange().orElseThrow().change())
          .isEqualTo(SchemaChange.Change.DROPPED);
      assertThat(t.db.keyspace("ks")).isEmpty();
      assertThat(t.db.tables())
          .extracting(x -> x.schema().keyspace().orElse("") + "." + x.schema().name())
          .containsExactly("other.t");
      assertThat(t.cql.execute("SELECT v FROM other.t WHERE k = 1").rows().get(0).get(0))
          .isEqualTo("kept");
      // the name is free again, and a table re-created under it starts empty
      t.cql.execute("CREATE KEYSPACE ks WITH replication = " + SIMPLE);
      t.cql.execute("CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
      assertThat(t.cql.execute("SELECT * FROM ks.t").rows()).isEmpty();
      t.cql.execute("CREATE KEYSPACE empty WITH replication = " + SIMPLE);
      assertThat(t.cql.execute("DROP KEYSPACE empty").schemaChange().orElseThrow().change())
          .isEqualTo(SchemaChange.Change.DROPPED);
      assertThat(t.db.keyspace("empty")).isEmpty();
      assertThatThrownBy(() -> t.cql.execute("DROP KEYSPACE empty"))
          .hasMessageContaining("Keyspace 'empty' doesn't exist");
      assertThat(t.cql.execute("DROP KEYSPACE IF EXISTS empty").kind())
          .isEqualTo(CqlResult.Kind.VOID);
    }
  }

  @Test
  void useSwitchesTheSessionKeyspaceAndUnqualifiedNamesFollowIt() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute("CREATE KEYSPACE a WITH replication = " + SIMPLE);
      t.cql.execute("CREATE KEYSPACE b WITH replication = " + SIMPLE);
      t.cql.execute("CREATE TABLE a.t (k int PRIMARY KEY, v text)");
      t.cql.execute("CREATE TABLE b.t (k int PRIMARY KEY, v text)");
      CqlResult use = t.cql.execute("USE a");
      assertThat(use.kind()).isEqualTo(CqlResult.Kind.SET_KEYSPACE);
      assertThat(use.keyspace()).contains("a");
      t.cql.execute("INSERT INTO t (k, v) VALUES (1, 'in a')");
      t.cql.execute("USE \"b\"");
      t.cql.execute("INSERT INTO t (k, v) VALUES (1, 'in b')");
      assertThat(t.cql.keyspace()).contains("b");
      assertThat(t.cql.execute("SELECT v FROM a.t WHERE k = 1").one().orElseThrow().getString("v"))
          .isEqualTo("in a");
      assertThat(t.cql.execute("SELECT v FROM t WHERE k = 1").one().orElseThrow().getString("v"))
          .isEqualTo("in b");
      assertThatThrownBy(() -> t.cql.execute("USE nope"))
          .hasMessageContaining("Keyspace 'nope' does not exist");
      TalusSession other = TalusSession.builder(t.db).keyspace("a").build();
      assertThat(other.execute("SELECT v FROM t WHERE k = 1").one().orElseThrow().getString("v"))
          .isEqualTo("in a");
    }
  }

  @Test
  void withoutUseUnqualifiedNamesMeanTheDefaultKeyspace() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute("CREATE TABLE t (k int PRIMARY KEY, v text)");
      assertThat(t.db.table("talus.t").keyspace()).isEqualTo("talus");
      t.cql.execute("INSERT INTO t (k, v) VALUES (1, 'x')");
      assertThat(t.db.table("t").select().eq("k", 1).one()).isPresent();
      assertThatThrownBy(() -> t.cql.execute("CREATE TABLE nope.t (k int PRIMARY KEY)"))
          .hasMessageContaining("Keyspace 'nope' doesn't exist");
      assertThatThrownBy(() -> t.cql.execute("SELECT * FROM nope.t WHERE k = 1"))
          .isInstanceOfSatisfying(
              CqlInvalidRequestException.class,
              e -> {
                assertThat(e.reason()).isEqualTo("keyspace nope does not exist");
                assertThat(e.line()).isEqualTo(1);
                assertThat(e.column()).isEqualTo(15);
              });
      assertThatThrownBy(() -> t.cql.execute("SELECT * FROM missing WHERE k = 1"))
          .hasMessageContaining("table missing does not exist");
    }
  }
}
