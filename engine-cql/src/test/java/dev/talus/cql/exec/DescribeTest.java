package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.ClusteringOrder;
import dev.talus.CompactionOptions;
import dev.talus.Compression;
import dev.talus.DataType;
import dev.talus.KeyspaceSchema;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.cql.CqlResult;
import dev.talus.cql.parse.CqlScript;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DESCRIBE prints CQL that re-creates the same schema: DESCRIBE → parse → execute → same. */
class DescribeTest {
  @TempDir Path first;
  @TempDir Path second;

  private static final String SCHEMA =
      """
      CREATE KEYSPACE chat WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 1, 'eu': 2}
        AND durable_writes = false;
      CREATE KEYSPACE "Mixed" WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
      CREATE TABLE chat.messages_by_room (
        room_id uuid, bucket text, sent_at timestamp, message_id timeuuid, sender text, body text,
        PRIMARY KEY ((room_id, bucket), sent_at, message_id)
      ) WITH CLUSTERING ORDER BY (sent_at DESC, message_id ASC)
        AND default_time_to_live = 604800 AND gc_grace_seconds = 3600
        AND compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': 'HOURS',
                          'compaction_window_size': 12}
        AND compression = {'class': 'ZstdCompressor', 'chunk_length_in_kb': 64};
      CREATE TABLE chat.kv (k bigint PRIMARY KEY, v blob, d decimal, i inet, du duration)
        WITH compaction = {'class': 'LeveledCompactionStrategy', 'sstable_size_in_mb': 64, 'fanout_size': 8,
                           'tombstone_threshold': 0.5, 'unchecked_tombstone_compaction': true}
        AND bloom_filter_fp_chance = 0.1 AND compression = {'enabled': 'false', 'chunk_length_in_kb': 1}
        AND extensions = {'talus.tombstone_warn_threshold': '50', 'talus.tombstone_failure_threshold': '500',
                          'talus.partition_size_fail_bytes': '1000000'};
      CREATE TABLE "Mixed"."Events" ("Key" text, "When" date, value float, PRIMARY KEY ("Key", "When"))
        WITH compaction = {'class': 'SizeTieredCompactionStrategy', 'min_threshold': 8, 'max_threshold': 64,
                           'bucket_low': 0.25, 'min_sstable_size': 1000};
      """;

  @Test
  void describeSchemaRecreatesTheSameSchema() {
    String ddl;
    List<KeyspaceSchema> keyspaces;
    List<TableSchema> tables;
    try (CqlDb a = new CqlDb(first)) {
      a.cql.executeScript(SCHEMA);
      ddl = a.cql.describe();
      keyspaces = a.db.keyspaces();
      tables = a.db.tables().stream().map(Table::schema).toList();
    }
    assertThat(tables).extracting(TableSchema::chunkLengthKb).contains(64, 1, 16);
    // it is valid CQL, one statement per keyspace and table
    assertThat(CqlScript.parse(ddl)).hasSize(5);
    try (CqlDb b = new CqlDb(second)) {
      b.cql.executeScript(ddl);
      assertThat(b.db.keyspaces()).isEqualTo(keyspaces);
      List<TableSchema> again = b.db.tables().stream().map(Table::schema).toList();
      assertThat(again).isEqualTo(tables);
      assertThat(again.stream().map(s -> s.keyspace().orElseThrow()))
          .containsExactlyElementsOf(tables.stream().map(s -> s.keyspace().orElseThrow()).toList());
      assertThat(b.cql.describe()).isEqualTo(ddl);
    }
  }

  @Test
  void aTableCreatedThroughTheJavaApiDescribesToo() {
    TableSchema schema =
        TableSchema.builder("readings")
            .partitionKey("sensor", DataType.TEXT)
            .clusteringColumn("ts", DataType.TIMESTAMP, ClusteringOrder.DESC)
            .column("value", DataType.DOUBLE)
            .column("note", DataType.ASCII)
            .defaultTimeToLive(Duration.ofDays(30))
            .compaction(
                CompactionOptions.timeWindow().windowUnit(ChronoUnit.DAYS).windowSize(2).build())
            .compression(Compression.LZ4)
            .partitionRowsThresholds(10L, null)
            .build();
    String ddl;
    try (CqlDb a = new CqlDb(first)) {
      a.db.createTable(schema);
      ddl = a.cql.describeTable("talus", "readings");
      assertThat(ddl)
          .startsWith("CREATE TABLE talus.readings (\n    sensor text,\n    ts timestamp,")
          .contains("WITH CLUSTERING ORDER BY (ts DESC)")
          .contains("'talus.partition_rows_warn': '10'")
          .endsWith(";\n");
    }
    try (CqlDb b = new CqlDb(second)) {
      b.cql.executeScript(ddl);
      assertThat(b.db.table("readings").schema()).isEqualTo(schema);
    }
  }

  @Test
  void theFormsOfDescribe() {
    try (CqlDb a = new CqlDb(first)) {
      a.cql.executeScript(SCHEMA);
      CqlResult keyspaces = a.cql.execute("DESCRIBE KEYSPACES");
      assertThat(keyspaces.columns())
          .extracting(c -> c.name())
          .containsExactly("keyspace_name", "type", "name");
      assertThat(keyspaces.rows())
          .extracting(r -> r.getString("name"))
          .containsExactly("Mixed", "chat", "system", "system_schema", "system_virtual_schema");
      assertThat(a.cql.execute("DESCRIBE TABLES").rows())
          .extracting(r -> r.getString("keyspace_name") + "." + r.getString("name"))
          .contains("chat.kv", "chat.messages_by_room", "Mixed.Events", "system_schema.tables");
      CqlResult ks = a.cql.execute("DESC KEYSPACE chat");
      assertThat(ks.columns())
          .extracting(c -> c.name())
          .containsExactly("keyspace_name", "type", "name", "create_statement");
      assertThat(ks.rows())
          .extracting(r -> r.getString("type"))
          .containsExactly("keyspace", "table", "table");
      assertThat(a.cql.execute("DESCRIBE ONLY KEYSPACE chat").size()).isEqualTo(1);
      a.cql.execute("USE chat");
      assertThat(a.cql.execute("DESCRIBE kv").one().orElseThrow().getString("create_statement"))
          .startsWith("CREATE TABLE chat.kv (\n    k bigint PRIMARY KEY,");
      assertThat(a.cql.execute("DESCRIBE chat").size()).isEqualTo(3);
      assertThat(a.cql.execute("DESCRIBE KEYSPACE").size()).isEqualTo(3);
      assertThat(
              a.cql.execute("DESCRIBE TABLE system_schema.tables").one().orElseThrow().getString(3))
          .startsWith("/*\nWarning: Table system_schema.tables is a system table")
          .contains("compaction frozen<map<text, text>>")
          .endsWith(";\n*/");
      assertThat(a.cql.execute("DESCRIBE TYPES").isEmpty()).isTrue();
      assertThat(a.cql.execute("DESCRIBE CLUSTER").one().orElseThrow().getString("partitioner"))
          .isEqualTo("org.apache.cassandra.dht.Murmur3Partitioner");
      assertThatThrownBy(() -> a.cql.execute("DESCRIBE TABLE nope"))
          .hasMessageContaining("'nope' not found in keyspace 'chat'");
      assertThatThrownBy(() -> a.cql.execute("DESCRIBE TYPE address"))
          .hasMessageContaining("Type 'address' not found in keyspace 'chat'");
      assertThatThrownBy(() -> a.cql.execute("DESCRIBE KEYSPACE nope"))
          .hasMessageContaining("'nope' not found in keyspaces");
      assertThat(a.cql.describeKeyspace("Mixed")).contains("CREATE TABLE \"Mixed\".\"Events\"");
      assertThat(Map.of("full", a.cql.execute("DESCRIBE FULL SCHEMA").size()).get("full"))
          .isGreaterThan(a.cql.execute("DESCRIBE SCHEMA").size());
    }
  }
}
