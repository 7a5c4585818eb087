package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.db.StorageHook;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keyspaces: namespaces of tables, their replication options and durable writes. */
class KeyspaceTest {
  @TempDir Path dir;

  private TalusDb open() {
    return TalusDb.open(
        TalusOptions.builder(dir)
            .clock(ManualClock.startingAtDefault())
            .backgroundCompaction(false)
            .build());
  }

  private static TableSchema kv(String keyspace, String name) {
    TableSchema.Builder b = TableSchema.builder(name);
    if (keyspace != null) {
      b.keyspace(keyspace);
    }
    return b.partitionKey("k", DataType.INT).column("v", DataType.TEXT).build();
  }

  private static Map<String, String> map(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  private static KeyspaceSchema replication(String name, String... kv) {
    return KeyspaceSchema.builder(name).replication(map(kv)).build();
  }

  @Test
  void aTableWithoutKeyspaceGoesToTheDefaultKeyspaceCreatedOnFirstUse() {
    try (TalusDb db = open()) {
      assertThat(db.keyspaces()).isEmpty();
      Table t = db.createTable(kv(null, "t"));
      assertThat(t.keyspace()).isEqualTo("talus");
      assertThat(t.schema().keyspace()).contains("talus");
      assertThat(db.keyspaces()).extracting(KeyspaceSchema::name).containsExactly("talus");
      assertThat(db.keyspace("talus").orElseThrow().replication())
          .isEqualTo(map("class", KeyspaceSchema.SIMPLE_STRATEGY, "replication_factor", "1"));
      assertThat(db.table("t")).isSameAs(t);
      assertThat(db.table("talus.t")).isSameAs(t);
      assertThat(db.table("talus", "t")).isSameAs(t);
      // the same schema, with or without the default keyspace named, is the same table
      assertThat(db.createTableIfNotExists(kv(null, "t"))).isSameAs(t);
      assertThat(db.createTableIfNotExists(kv("talus", "t"))).isSameAs(t);
    }
  }

  @Test
  void theDefaultKeyspaceComesFromAnOption() {
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).defaultKeyspace("app").build())) {
      assertThat(db.createTable(kv(null, "t")).keyspace()).isEqualTo("app");
      assertThat(db.table("t").keyspace()).isEqualTo("app");
    }
    assertThatThrownBy(() -> TalusOptions.builder(dir).defaultKeyspace("system").build())
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("defaultKeyspace");
    assertThatThrownBy(() -> TalusOptions.builder(dir).defaultKeyspace("a.b").build())
        .isInstanceOf(InvalidSchemaException.class);
  }

  @Test
  void tablesOfTheSameNameInTwoKeyspacesAreTwoTables() {
    try (TalusDb db = open()) {
      db.createKeyspace(KeyspaceSchema.builder("a").build());
      db.createKeyspace(KeyspaceSchema.builder("b").build());
      Table ta = db.createTable(kv("a", "t"));
      Table tb = db.createTable(kv("b", "t"));
      ta.insert().value("k", 1).value("v", "in a").execute();
      tb.insert().value("k", 1).value("v", "in b").execute();
      assertThat(db.table("a.t").select().eq("k", 1).one().orElseThrow().getString("v"))
          .isEqualTo("in a");
      assertThat(db.table("b", "t").select().eq("k", 1).one().orElseThrow().getString("v"))
          .isEqualTo("in b");
      assertThat(db.findTable("t")).isEmpty(); // not in the default keyspace
      assertThat(db.tables())
          .extracting(Table::toString)
          .containsExactly("Table{a.t}", "Table{b.t}");
    }
    try (TalusDb db = open()) {
      assertThat(db.keyspaces()).extracting(KeyspaceSchema::name).containsExactly("a", "b");
      assertThat(db.table("b.t").select().eq("k", 1).one().orElseThrow().getString("v"))
          .isEqualTo("in b");
    }
  }

  @Test
  void aTableNeedsItsKeyspaceToExist() {
    try (TalusDb db = open()) {
      assertThatThrownBy(() -> db.createTable(kv("chat", "t")))
          .isInstanceOf(InvalidSchemaException.class)
          .hasMessageContaining("keyspace chat of table t does not exist")
          .hasMessageContaining("Fix: create it first");
    }
  }

  @Test
  void creatingAKeyspaceTwiceFailsUnlessIfNotExists() {
    try (TalusDb db = open()) {
      KeyspaceSchema ks = replication("chat", "class", "SimpleStrategy", "replication_factor", "1");
      db.createKeyspace(ks);
      assertThatThrownBy(() -> db.createKeyspace(ks))
          .isInstanceOf(InvalidSchemaException.class)
          .hasMessageContaining("already exists");
      KeyspaceSchema other = KeyspaceSchema.builder("chat").durableWrites(false).build();
      assertThat(db.createKeyspaceIfNotExists(other)).isEqualTo(ks);
    }
  }

  @Test
  void replicationIsNormalisedAsCassandraStoresIt() {
    assertThat(
            replication("k", "class", "SimpleStrategy", "replication_factor", "03").replication())
        .containsExactly(
            Map.entry("class", KeyspaceSchema.SIMPLE_STRATEGY),
            Map.entry("replication_factor", "3"));
    assertThat(
            replication(
                    "k",
                    "class",
                    "org.apache.cassandra.locator.NetworkTopologyStrategy",
                    "replication_factor",
                    "2",
                    "dc2",
                    "1")
                .replication())
        .containsExactly(
            Map.entry("class", KeyspaceSchema.NETWORK_TOPOLOGY_STRATEGY),
            Map.entry("datacenter1", "2"),
            Map.entry("dc2", "1"));
    // a datacenter given by name keeps its own factor
    assertThat(
            replication(
                    "k",
                    "class",
                    "NetworkTopologyStrategy",
                    "datacenter1",
                    "1",
                    "replication_factor",
                    "3")
                .replication())
        .containsEntry("datacenter1", "1");
    assertThat(
            KeyspaceSchema.builder("k").networkTopologyStrategy(Map.of("datacenter1", 1)).build())
        .isEqualTo(replication("k", "class", "NetworkTopologyStrategy", "datacenter1", "1"));
  }

  @Test
  void replicationIsValidatedWithCassandrasRules() {
    String[][] bad = {
      {"replication_factor", "1"},
      {"class", "SimpleStrategy"},
      {"class", "SimpleStrategy", "replication_factor", "1", "dc1", "2"},
      {"class", "SimpleStrategy", "replication_factor", "-1"},
      {"class", "SimpleStrategy", "replication_factor", "three"},
      {"class", "SimpleStrategy", "replication_factor", "3/1"},
      {"class", "NetworkTopologyStrategy"},
      {"class", "LocalStrategy"},
      {"class", "OldNetworkTopologyStrategy", "replication_factor", "1"},
    };
    String[] messages = {
      "Missing replication strategy class",
      "SimpleStrategy requires a replication_factor strategy option.",
      "Unrecognized strategy option {dc1} passed to SimpleStrategy for keyspace k",
      "Replication factor must be non-negative; found -1",
      "Replication factor must be numeric; found three",
      "Transient replication",
      "Configuration for at least one datacenter must be present",
      "LocalStrategy is reserved for internal use",
      "Unable to find replication strategy class"
          + " 'org.apache.cassandra.locator.OldNetworkTopologyStrategy'",
    };
    for (int i = 0; i < bad.length; i++) {
      String[] options = bad[i];
      assertThatThrownBy(() -> replication("k", options))
          .isInstanceOf(InvalidSchemaException.class)
          .hasMessageContaining(messages[i]);
    }
  }

  @Test
  void namesAreValidatedAndSystemKeyspacesReserved() {
    assertThatThrownBy(() -> KeyspaceSchema.builder("my-ks").build())
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("Keyspace name must not be empty, more than 48 characters long");
    for (String name : List.of("system", "system_schema", "SYSTEM_AUTH", "system_views")) {
      assertThatThrownBy(() -> KeyspaceSchema.builder(name).build())
          .isInstanceOf(InvalidSchemaException.class)
          .hasMessageContaining("keyspace is not user-modifiable");
    }
  }

  @Test
  void lintSaysWhatASingleProcessCannotHonour() {
    assertThat(KeyspaceSchema.builder("k").simpleStrategy(1).build().lint()).isEmpty();
    assertThat(KeyspaceSchema.builder("k").simpleStrategy(3).build().lint())
        .singleElement()
        .asString()
        .contains("Your replication factor 3 for keyspace k is higher than the number of nodes 1");
    assertThat(
            KeyspaceSchema.builder("k")
                .networkTopologyStrategy(Map.of("datacenter1", 3, "eu", 2))
                .build()
                .lint())
        .hasSize(2)
        .anySatisfy(w -> assertThat(w).contains("for datacenter datacenter1"))
        .anySatisfy(w -> assertThat(w).contains("datacenter eu of keyspace k is not"));
  }

  @Test
  void alterKeyspaceIsStoredAndDropTakesOnlyAnEmptyKeyspace() {
    try (TalusDb db = open()) {
      db.createKeyspace(KeyspaceSchema.builder("a").build());
      db.createKeyspace(KeyspaceSchema.builder("b").build());
      db.createTable(kv("b", "t"));
      db.alterKeyspace(KeyspaceSchema.builder("a").simpleStrategy(3).durableWrites(false).build());
      assertThatThrownBy(() -> db.alterKeyspace(KeyspaceSchema.builder("zz").build()))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("keyspace zz does not exist");
      assertThatThrownBy(() -> db.dropKeyspace("b"))
          .isInstanceOf(InvalidSchemaException.class)
          .hasMessageContaining("keyspace b holds tables [t]")
          .hasMessageContaining("not supported yet by Talus");
      assertThat(db.dropKeyspace("zz")).isFalse();
    }
    try (TalusDb db = open()) {
      KeyspaceSchema a = db.keyspace("a").orElseThrow();
      assertThat(a.replication()).containsEntry("replication_factor", "3");
      assertThat(a.durableWrites()).isFalse();
      assertThat(db.dropKeyspace("a")).isTrue();
      assertThat(db.keyspace("a")).isEmpty();
    }
    try (TalusDb db = open()) {
      assertThat(db.keyspaces()).extracting(KeyspaceSchema::name).containsExactly("b");
    }
  }

  @Test
  void withoutDurableWritesACrashLosesWhatWasNotFlushedAndCloseFlushes() {
    try (TalusDb db = open()) {
      db.createKeyspace(KeyspaceSchema.builder("fast").durableWrites(false).build());
      db.createKeyspace(KeyspaceSchema.builder("safe").build());
      db.createTable(kv("fast", "t"));
      db.createTable(kv("safe", "t"));
    }
    TalusDb db = open();
    db.table("fast.t").insert().value("k", 1).value("v", "flushed").execute();
    db.table("fast.t").flush();
    db.table("fast.t").insert().value("k", 2).value("v", "memtable only").execute();
    db.batch()
        .add(db.table("fast.t").insert().value("k", 3).value("v", "batched"))
        .add(db.table("safe.t").insert().value("k", 3).value("v", "batched"))
        .execute();
    StorageHook.crash(TalusDb.class, db);
    try (TalusDb reopened = open()) {
      Table fast = reopened.table("fast.t");
      assertThat(fast.select().eq("k", 1).one()).isPresent();
      assertThat(fast.select().eq("k", 2).one()).isEmpty();
      assertThat(fast.select().eq("k", 3).one()).isEmpty();
      assertThat(reopened.table("safe.t").select().eq("k", 3).one()).isPresent();
      fast.insert().value("k", 4).value("v", "kept by close").execute();
    }
    try (TalusDb reopened = open()) {
      assertThat(reopened.table("fast.t").select().eq("k", 4).one()).isPresent();
      // durable again: from now on the writes are logged
      reopened.alterKeyspace(KeyspaceSchema.builder("fast").build());
      reopened.table("fast.t").insert().value("k", 5).value("v", "logged").execute();
      StorageHook.crash(TalusDb.class, reopened);
    }
    try (TalusDb reopened = open()) {
      assertThat(reopened.table("fast.t").select().eq("k", 5).one()).isPresent();
    }
  }
}
