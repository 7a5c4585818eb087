package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.ClusteringOrder;
import dev.talus.CompactionOptions;
import dev.talus.Compression;
import dev.talus.DataType;
import dev.talus.TableSchema;
import dev.talus.cql.CqlAlreadyExistsException;
import dev.talus.cql.CqlConfigurationException;
import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlSyntaxException;
import dev.talus.cql.CqlUnsupportedException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CREATE TABLE: columns, keys, clustering order and every option Talus has. */
class TableDdlTest {
  @TempDir Path dir;

  @Test
  void everyOptionTalusHasMapsOntoTheSchema() {
    try (CqlDb t = new CqlDb(dir)) {
      CqlResult r =
          t.cql.execute(
              "CREATE TABLE events (tenant text, day date, ts timestamp, id timeuuid, payload blob,"
                  + " n varint, PRIMARY KEY ((tenant, day), ts, id))"
                  + " WITH CLUSTERING ORDER BY (ts DESC, id ASC)"
                  + " AND default_time_to_live = 3600 AND gc_grace_seconds = 60"
                  + " AND bloom_filter_fp_chance = 0.05"
                  + " AND compaction = {'class': 'org.apache.cassandra.db.compaction."
                  + "TimeWindowCompactionStrategy', 'compaction_window_unit': 'HOURS',"
                  + " 'compaction_window_size': '6', 'min_threshold': 3, 'tombstone_threshold': 0.3}"
                  + " AND compression = {'class': 'ZstdCompressor', 'chunk_length_in_kb': 4}"
                  + " AND extensions = {'talus.tombstone_warn_threshold': '500',"
                  + " 'talus.partition_rows_fail': '9000'}");
      assertThat(r.kind()).isEqualTo(CqlResult.Kind.SCHEMA_CHANGE);
      TableSchema s = t.db.table("events").schema();
      assertThat(s.partitionKey()).extracting(c -> c.name()).containsExactly("tenant", "day");
      assertThat(s.clustering())
          .extracting(c -> c.name() + " " + c.order())
          .containsExactly("ts DESC", "id ASC");
      assertThat(s.column("n").orElseThrow().type()).isEqualTo(DataType.VARINT);
      assertThat(s.defaultTimeToLive()).isEqualTo(Duration.ofHours(1));
      assertThat(s.gcGrace()).isEqualTo(Duration.ofMinutes(1));
      assertThat(s.bloomFilterFpChance()).isEqualTo(0.05);
      assertThat(s.compaction())
          .isEqualTo(
              CompactionOptions.timeWindow()
                  .windowUnit(ChronoUnit.HOURS)
                  .windowSize(6)
                  .minThreshold(3)
                  .tombstoneThreshold(0.3)
                  .build());
      assertThat(s.compression()).isEqualTo(Compression.ZSTD);
      assertThat(s.chunkLengthKb()).isEqualTo(4);
      assertThat(r.warnings()).noneSatisfy(w -> assertThat(w).contains("chunk"));
      assertThat(s.tombstoneWarnThreshold()).isEqualTo(500);
      assertThat(s.partitionRowsFail()).isEqualTo(9000L);
    }
  }

  @Test
  void cassandrasClassNamesAndOptionKeysForEachStrategy() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute(
          "CREATE TABLE a (k int PRIMARY KEY) WITH compaction = {'class':"
              + " 'SizeTieredCompactionStrategy', 'min_threshold': 6, 'max_threshold': 12,"
              + " 'bucket_low': 0.4, 'bucket_high': 2, 'min_sstable_size': 1048576,"
              + " 'unchecked_tombstone_compaction': 'true', 'tombstone_compaction_interval': 600}");
      assertThat(t.db.table("a").schema().compaction())
          .isEqualTo(
              CompactionOptions.sizeTiered()
                  .minThreshold(6)
                  .maxThreshold(12)
                  .bucketLow(0.4)
                  .bucketHigh(2)
                  .minSSTableSizeBytes(1 << 20)
                  .uncheckedTombstoneCompaction(true)
                  .tombstoneCompactionInterval(Duration.ofMinutes(10))
                  .build());
      t.cql.execute(
          "CREATE TABLE b (k int PRIMARY KEY) WITH compaction = {'class':"
              + " 'org.apache.cassandra.db.compaction.LeveledCompactionStrategy',"
              + " 'sstable_size_in_mb': 80, 'fanout_size': 5} AND compression = {'enabled': false}");
      assertThat(t.db.table("b").schema().compaction())
          .isEqualTo(CompactionOptions.leveled().sstableSizeBytes(80L << 20).fanout(5).build());
      assertThat(t.db.table("b").schema().compression()).isEqualTo(Compression.NONE);
      CqlResult ucs =
          t.cql.execute(
              "CREATE TABLE c (k int PRIMARY KEY) WITH compaction = {'class':"
                  + " 'UnifiedCompactionStrategy'} AND compression = {'class': 'SnappyCompressor'}");
      assertThat(ucs.warnings())
          .anySatisfy(w -> assertThat(w).contains("UnifiedCompactionStrategy) is not supported"))
          .anySatisfy(w -> assertThat(w).contains("Talus has no SnappyCompressor"));
      assertThat(t.db.table("c").schema().compaction()).isEqualTo(CompactionOptions.defaults());
    }
  }

  @Test
  void chunkLengthIsTheTablesAndAMapWithoutOneGetsTheDefault() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute("CREATE TABLE d (k int PRIMARY KEY, v text)");
      assertThat(t.db.table("d").schema().chunkLengthKb())
          .isEqualTo(TableSchema.DEFAULT_CHUNK_LENGTH_KB);
      t.cql.execute(
          "ALTER TABLE d WITH compression = {'class': 'LZ4Compressor', 'chunk_length_kb': 64}");
      assertThat(t.db.table("d").schema().chunkLengthKb()).isEqualTo(64);
      // as in Cassandra, the compression map is replaced whole: no length means the default
      t.cql.execute("ALTER TABLE d WITH compression = {'class': 'ZstdCompressor'}");
      assertThat(t.db.table("d").schema().chunkLengthKb())
          .isEqualTo(TableSchema.DEFAULT_CHUNK_LENGTH_KB);
      assertThat(t.db.table("d").schema().compression()).isEqualTo(Compression.ZSTD);
      for (String bad : new String[] {"3", "0", "-8", "2048", "sixteen"}) {
        assertThatThrownBy(
                () ->
                    t.cql.execute(
                        "ALTER TABLE d WITH compression = {'class': 'LZ4Compressor',"
                            + " 'chunk_length_in_kb': '"
                            + bad
                            + "'}"))
            .as(bad)
            .isInstanceOf(CqlConfigurationException.class)
            .hasMessageContaining("chunk_length_in_kb")
            .hasMessageContaining(bad);
      }
      assertThat(t.db.table("d").schema().compression()).isEqualTo(Compression.ZSTD);
    }
  }

  @Test
  void badOptionsAreRefusedWithTheOptionNamed() {
    try (CqlDb t = new CqlDb(dir)) {
      assertThatThrownBy(
              () ->
                  t.cql.execute(
                      "CREATE TABLE x (k int PRIMARY KEY) WITH compaction = {'class':"
                          + " 'DateTieredCompactionStrategy'}"))
          .isInstanceOf(CqlConfigurationException.class)
          .hasMessageContaining(
              "Unable to find compaction strategy class"
                  + " 'org.apache.cassandra.db.compaction.DateTieredCompactionStrategy'");
      assertThatThrownBy(
              () ->
                  t.cql.execute(
                      "CREATE TABLE x (k int PRIMARY KEY) WITH compaction = {'class':"
                          + " 'SizeTieredCompactionStrategy', 'sstable_size_in_mb': 1}"))
          .isInstanceOf(CqlConfigurationException.class)
          .hasMessageContaining(
              "Properties specified [sstable_size_in_mb] are not understood by"
                  + " SizeTieredCompactionStrategy");
      assertThatThrownBy(
              () ->
                  t.cql.execute(
                      "CREATE TABLE x (k int PRIMARY KEY) WITH compaction = {'class':"
                          + " 'SizeTieredCompactionStrategy', 'min_threshold': 1}"))
          .isInstanceOfSatisfying(
              CqlConfigurationException.class,
              e -> {
                assertThat(e.reason()).contains("min_threshold must be at least 2");
                assertThat(e.column()).isEqualTo(41);
              });
      assertThatThrownBy(
              () -> t.cql.execute("CREATE TABLE x (k int PRIMARY KEY) WITH gc_grace_seconds = -1"))
          .isInstanceOf(CqlConfigurationException.class)
          .hasMessageContaining("gc_grace_seconds must be greater than or equal to 0 (got -1)");
      assertThatThrownBy(
              () -> t.cql.execute("CREATE TABLE x (k int PRIMARY KEY) WITH gc_grace_seconds = 'a'"))
          .isInstanceOf(CqlSyntaxException.class)
          .hasMessageContaining("Invalid integer value a for 'gc_grace_seconds'");
      assertThatThrownBy(
              () ->
                  t.cql.execute(
                      "CREATE TABLE x (k int PRIMARY KEY) WITH bloom_filter_fp_chance = 0"))
          .hasMessageContaining("bloom_filter_fp_chance must be larger than 0.0");
      assertThatThrownBy(
              () -> t.cql.execute("CREATE TABLE x (k int PRIMARY KEY) WITH colour = 'red'"))
          .isInstanceOf(CqlSyntaxException.class)
          .hasMessageContaining("Unknown property 'colour'");
      assertThat(t.db.findTable("x")).isEmpty();
    }
  }

  @Test
  void harmlessCassandraOptionsAreAcceptedWithOneWarning() {
    try (CqlDb t = new CqlDb(dir)) {
      CqlResult r =
          t.cql.execute(
              "CREATE TABLE x (k int PRIMARY KEY, v text) WITH caching = {'keys': 'ALL',"
                  + " 'rows_per_partition': 'NONE'} AND comment = 'hello' AND speculative_retry ="
                  + " '99p' AND read_repair = 'BLOCKING' AND crc_check_chance = 1.0 AND"
                  + " memtable_flush_period_in_ms = 0 AND cdc = false AND additional_write_policy ="
                  + " '99p' AND min_index_interval = 128 AND max_index_interval = 2048");
      assertThat(r.warnings())
          .singleElement()
          .asString()
          .startsWith("Talus ignored the table option(s) caching, comment, speculative_retry");
      assertThat(t.db.findTable("x")).isPresent();
    }
  }

  @Test
  void keysAndClusteringOrderAreCheckedWithCassandrasMessages() {
    try (CqlDb t = new CqlDb(dir)) {
      String[][] cases = {
        {
          "CREATE TABLE x (k int, v int)",
          "No PRIMARY KEY specifed for table 'x' (exactly one required)"
        },
        {
          "CREATE TABLE x (k int PRIMARY KEY, v int, PRIMARY KEY (v))",
          "Multiple PRIMARY KEY specified"
        },
        {
          "CREATE TABLE x (k int, v int, PRIMARY KEY (z))",
          "Unknown column 'z' referenced in PRIMARY KEY for table 'x'"
        },
        {
          "CREATE TABLE x (k int, k text, PRIMARY KEY (k))",
          "Duplicate column 'k' declaration for table 'x'"
        },
        {
          "CREATE TABLE x (k int, c int, PRIMARY KEY (k, k))",
          "Duplicate column 'k' in PRIMARY KEY clause"
        },
        {
          "CREATE TABLE x (k duration PRIMARY KEY)",
          "duration type is not supported for PRIMARY KEY column 'k'"
        },
        {
          "CREATE TABLE x (k int, a int, b int, PRIMARY KEY (k, a, b)) WITH CLUSTERING ORDER BY (b DESC, a ASC)",
          "The order of columns in the CLUSTERING ORDER directive must match that of the clustering columns (a must appear before b)"
        },
        {
          "CREATE TABLE x (k int, a int, b int, PRIMARY KEY (k, a, b)) WITH CLUSTERING ORDER BY (b DESC)",
          "Missing CLUSTERING ORDER for column a"
        },
        {
          "CREATE TABLE x (k int, a int, PRIMARY KEY (k, a)) WITH CLUSTERING ORDER BY (a ASC, k DESC)",
          "Only clustering columns can be defined in CLUSTERING ORDER directive"
        },
        {
          "CREATE TABLE x (k int PRIMARY KEY) WITH COMPACT STORAGE",
          "COMPACT STORAGE tables are not allowed"
        },
        {"CREATE TABLE \"a b\" (k int PRIMARY KEY)", "Table name must not be empty"},
        {
          "CREATE TABLE x (\"first name\" int PRIMARY KEY)",
          "Talus column names are 1 to 48 letters"
        },
      };
      for (String[] c : cases) {
        assertThatThrownBy(() -> t.cql.execute(c[0])).as(c[0]).hasMessageContaining(c[1]);
      }
      t.cql.execute(
          "CREATE TABLE x (k int, a int, b int, PRIMARY KEY (k, a, b)) WITH CLUSTERING ORDER BY (a DESC)");
      assertThat(t.db.table("x").schema().clustering())
          .extracting(c -> c.order())
          .containsExactly(ClusteringOrder.DESC, ClusteringOrder.ASC);
    }
  }

  @Test
  void everyCassandraTypeButCustomOnesIsStored() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute("CREATE TYPE address (street text, city text)");
      String[][] cases = {
        {"list<text>", "list<text>"},
        {"set<int>", "set<int>"},
        {"map<text, int>", "map<text, int>"},
        {"frozen<list<int>>", "frozen<list<int>>"},
        {"tuple<int, text>", "tuple<int, text>"},
        {"vector<float, 3>", "vector<float, 3>"},
        {"address", "address"},
        {"frozen<address>", "frozen<address>"},
        {"counter", "counter"}
      };
      int n = 0;
      for (String[] c : cases) {
        String table = "x" + n++;
        t.cql.execute("CREATE TABLE " + table + " (k int PRIMARY KEY, v " + c[0] + ")");
        assertThat(t.db.table(table).schema().column("v").orElseThrow().type().cqlName())
            .as(c[0])
            .isEqualTo(c[1]);
      }
      assertThatThrownBy(
              () ->
                  t.cql.execute(
                      "CREATE TABLE x (k int PRIMARY KEY, v 'org.apache.cassandra.db.marshal.BytesType')"))
          .isInstanceOfSatisfying(
              CqlUnsupportedException.class, e -> assertThat(e.planned()).isFalse());
      t.cql.execute("CREATE TABLE s (k int, c int, s text STATIC, PRIMARY KEY (k, c))");
      assertThat(t.db.table("s").schema().staticColumns())
          .extracting(c -> c.name())
          .containsExactly("s");
    }
  }

  @Test
  void existingTablesAndTheStatementsTalusCannotRunYet() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute("CREATE TABLE x (k int PRIMARY KEY, v text)");
      assertThatThrownBy(() -> t.cql.execute("CREATE TABLE x (k int PRIMARY KEY)"))
          .isInstanceOf(CqlAlreadyExistsException.class)
          .hasMessageContaining("Cannot add already existing table \"x\" to keyspace \"talus\"");
      // IF NOT EXISTS does not compare schemas, as in Cassandra
      assertThat(t.cql.execute("CREATE TABLE IF NOT EXISTS x (k text PRIMARY KEY)").kind())
          .isEqualTo(CqlResult.Kind.VOID);
      assertThatThrownBy(() -> t.cql.execute("CREATE INDEX ON x (v) USING 'x'"))
          .isInstanceOf(CqlUnsupportedException.class)
          .hasMessageContaining("not supported yet by Talus");
      assertThatThrownBy(() -> t.cql.execute("CREATE INDEX ON x (keys(v))"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("Non-collection columns only support simple indexes");
      assertThatThrownBy(() -> t.cql.execute("ALTER TABLE x ALTER v TYPE blob"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("Altering column types is no longer supported");
      assertThatThrownBy(() -> t.cql.execute("CREATE ROLE r"))
          .isInstanceOfSatisfying(
              CqlUnsupportedException.class, e -> assertThat(e.planned()).isFalse())
          .hasMessageContaining("CREATE ROLE is not supported by Talus");
    }
  }

  @Test
  void alterTableWithCompactionSwitchesTheStrategy() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute("CREATE TABLE x (k int PRIMARY KEY, v text)");
      CqlResult r =
          t.cql.execute("ALTER TABLE x WITH compaction = {'class': 'LeveledCompactionStrategy'}");
      assertThat(r.kind()).isEqualTo(CqlResult.Kind.SCHEMA_CHANGE);
      assertThat(t.db.table("x").schema().compaction().strategy())
          .isEqualTo(CompactionOptions.Strategy.LEVELED);
    }
  }
}
