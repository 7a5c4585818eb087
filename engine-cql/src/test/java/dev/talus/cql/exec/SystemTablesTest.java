package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.cql.CqlColumn;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlRow;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The system tables have Cassandra 5.0's columns and types (the definitions below are copied from
 * the CQL of Cassandra's SchemaKeyspace and SystemKeyspace, not from Talus), and answer the queries
 * the Java driver sends at connect and for its schema metadata.
 */
class SystemTablesTest {
  @TempDir Path dir;

  /** Cassandra 5.0's definitions: name, then columns as "name type", key columns first. */
  private static final Map<String, String> CASSANDRA =
      Map.ofEntries(
          Map.entry(
              "system_schema.keyspaces",
              "keyspace_name text, durable_writes boolean, replication frozen<map<text, text>>"),
          Map.entry(
              "system_schema.tables",
              "keyspace_name text, table_name text, allow_auto_snapshot boolean,"
                  + " bloom_filter_fp_chance double, caching frozen<map<text, text>>, comment text,"
                  + " compaction frozen<map<text, text>>, compression frozen<map<text, text>>,"
                  + " memtable text, crc_check_chance double, dclocal_read_repair_chance double,"
                  + " default_time_to_live int, extensions frozen<map<text, blob>>,"
                  + " flags frozen<set<text>>, gc_grace_seconds int, incremental_backups boolean,"
                  + " id uuid, max_index_interval int, memtable_flush_period_in_ms int,"
                  + " min_index_interval int, read_repair_chance double, speculative_retry text,"
                  + " additional_write_policy text, cdc boolean, read_repair text"),
          Map.entry(
              "system_schema.columns",
              "keyspace_name text, table_name text, column_name text, clustering_order text,"
                  + " column_name_bytes blob, kind text, position int, type text"),
          Map.entry(
              "system_schema.dropped_columns",
              "keyspace_name text, table_name text, column_name text, dropped_time timestamp,"
                  + " kind text, type text"),
          Map.entry(
              "system_schema.types",
              "keyspace_name text, type_name text, field_names frozen<list<text>>,"
                  + " field_types frozen<list<text>>"),
          Map.entry(
              "system_schema.indexes",
              "keyspace_name text, table_name text, index_name text, kind text,"
                  + " options frozen<map<text, text>>"),
          Map.entry(
              "system_schema.functions",
              "keyspace_name text, function_name text, argument_types frozen<list<text>>,"
                  + " argument_names frozen<list<text>>, body text, language text,"
                  + " return_type text, called_on_null_input boolean"),
          Map.entry(
              "system_schema.aggregates",
              "keyspace_name text, aggregate_name text, argument_types frozen<list<text>>,"
                  + " final_func text, initcond text, return_type text, state_func text,"
                  + " state_type text"),
          Map.entry(
              "system_schema.triggers",
              "keyspace_name text, table_name text, trigger_name text,"
                  + " options frozen<map<text, text>>"),
          Map.entry(
              "system.local",
              "key text, bootstrapped text, broadcast_address inet, broadcast_port int,"
                  + " cluster_name text, cql_version text, data_center text,"
                  + " gossip_generation int, host_id uuid, listen_address inet, listen_port int,"
                  + " native_protocol_version text, partitioner text, rack text,"
                  + " release_version text, rpc_address inet, rpc_port int, schema_version uuid,"
                  + " tokens set<text>, truncated_at map<uuid, blob>"),
          Map.entry(
              "system.peers_v2",
              "peer inet, peer_port int, data_center text, host_id uuid, preferred_ip inet,"
                  + " preferred_port int, rack text, release_version text, native_address inet,"
                  + " native_port int, schema_version uuid, tokens set<text>"));

  @Test
  void everyTableHasCassandrasColumnsAndTypes() {
    try (CqlDb t = new CqlDb(dir)) {
      for (Map.Entry<String, String> e : CASSANDRA.entrySet()) {
        String[] ksTable = e.getKey().split("\\.");
        List<String> expected = new ArrayList<>(Arrays.asList(e.getValue().split(", (?![^<]*>)")));
        List<String> got = new ArrayList<>();
        for (CqlRow r :
            t.cql.execute(
                "SELECT column_name, type FROM system_schema.columns WHERE keyspace_name = ?"
                    + " AND table_name = ?",
                ksTable[0],
                ksTable[1])) {
          got.add(r.getString("column_name") + " " + r.getString("type"));
        }
        Comparator<String> byName = Comparator.naturalOrder();
        expected.sort(byName);
        got.sort(byName);
        assertThat(got).as(e.getKey()).isEqualTo(expected);
        // and the result metadata of SELECT * says the same, frozen aside
        CqlResult star = t.cql.execute("SELECT * FROM " + e.getKey());
        List<String> meta = new ArrayList<>();
        for (CqlColumn c : star.columns()) {
          meta.add(c.name() + " " + c.type().cql());
        }
        meta.sort(byName);
        assertThat(meta)
            .as(e.getKey())
            .isEqualTo(
                expected.stream().map(s -> s.replaceAll("frozen<(.*)>", "$1")).sorted().toList());
      }
    }
  }

  @Test
  void theDriversQueriesAnswerAboutTheUsersSchema() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute(
          "CREATE KEYSPACE chat WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
      t.cql.execute(
          "CREATE TABLE chat.m (room text, at timestamp, body text, PRIMARY KEY (room, at))"
              + " WITH CLUSTERING ORDER BY (at DESC) AND default_time_to_live = 60");
      CqlRow local =
          t.cql.execute("SELECT * FROM system.local WHERE key = 'local'").one().orElseThrow();
      assertThat(local.getString("data_center")).isEqualTo("datacenter1");
      assertThat(local.getString("partitioner"))
          .isEqualTo("org.apache.cassandra.dht.Murmur3Partitioner");
      assertThat(local.getString("release_version")).startsWith("5.0");
      UUID before = local.getUuid("schema_version");
      assertThat(t.cql.execute("SELECT * FROM system.peers_v2").isEmpty()).isTrue();
      assertThat(t.cql.execute("SELECT * FROM system.peers").isEmpty()).isTrue();
      assertThat(t.cql.execute("SELECT keyspace_name FROM system_schema.keyspaces").rows())
          .extracting(r -> r.getString(0))
          .contains("chat", "system", "system_schema");
      CqlRow table =
          t.cql
              .execute("SELECT * FROM system_schema.tables WHERE keyspace_name IN ('chat')")
              .one()
              .orElseThrow();
      assertThat(table.getString("table_name")).isEqualTo("m");
      assertThat(table.getInt("default_time_to_live")).isEqualTo(60);
      assertThat(table.getMap("compaction", String.class, String.class))
          .containsEntry(
              "class", "org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy");
      List<String> columns = new ArrayList<>();
      for (CqlRow r :
          t.cql.execute("SELECT * FROM system_schema.columns WHERE keyspace_name = 'chat'")) {
        columns.add(
            r.getString("column_name")
                + " "
                + r.getString("kind")
                + " "
                + r.getInt("position")
                + " "
                + r.getString("clustering_order")
                + " "
                + r.getString("type"));
      }
      assertThat(columns)
          .containsExactly(
              "at clustering 0 desc timestamp",
              "body regular -1 none text",
              "room partition_key 0 none text");
      for (String empty :
          List.of("types", "functions", "aggregates", "indexes", "views", "triggers")) {
        assertThat(t.cql.execute("SELECT * FROM system_schema." + empty).isEmpty())
            .as(empty)
            .isTrue();
      }
      assertThat(t.cql.execute("SELECT * FROM system_virtual_schema.keyspaces").size())
          .isEqualTo(1);
      t.cql.execute("CREATE TABLE chat.n (k int PRIMARY KEY)");
      UUID after =
          t.cql.execute("SELECT schema_version FROM system.local").one().orElseThrow().getUuid(0);
      assertThat(after).isNotEqualTo(before);
    }
  }

  @Test
  void systemTablesPageAndLimitLikeOthers() {
    try (CqlDb t = new CqlDb(dir)) {
      var p = t.cql.prepare("SELECT column_name FROM system_schema.columns").bind().fetchSize(7);
      CqlResult page = p.execute();
      int total = 0;
      while (true) {
        assertThat(page.size()).isLessThanOrEqualTo(7);
        total += page.size();
        if (!page.hasMorePages()) {
          break;
        }
        page = page.fetchNextPage();
      }
      assertThat(total).isEqualTo(t.cql.execute("SELECT * FROM system_schema.columns").size());
      assertThat(t.cql.execute("SELECT * FROM system_schema.columns LIMIT 3").size()).isEqualTo(3);
    }
  }
}
