package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Schema validation at build(), persistence across reopen, and create-table semantics. */
class SchemaTest {
  @TempDir Path dir;

  private static TableSchema.Builder minimal(String name) {
    return TableSchema.builder(name).partitionKey("id", DataType.TEXT);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "../x",
        "a.b",
        "a/b",
        "",
        "with space",
        "tablé",
        "x23456789012345678901234567890123456789012345678y" // 49 characters
      })
  void invalidTableNamesAreRejectedNamingTheTableName(String name) {
    assertThatThrownBy(() -> minimal(name).build())
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("table name")
        .hasMessageContaining("'" + name + "'");
  }

  @Test
  void nullTableNameIsRejected() {
    assertThatThrownBy(() -> minimal(null).build())
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("table name");
  }

  @Test
  void fortyEightCharacterNameIsTheLongestAccepted() {
    String name = "x".repeat(48);
    assertThat(minimal(name).build().name()).isEqualTo(name);
  }

  @Test
  void invalidColumnNameIsRejectedNamingTheColumn() {
    assertThatThrownBy(() -> minimal("t").column("a.b", DataType.INT).build())
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("column name 'a.b'");
  }

  @Test
  void tableWithoutPartitionKeyIsRejected() {
    assertThatThrownBy(() -> TableSchema.builder("t").column("v", DataType.INT).build())
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("partition key");
  }

  static Stream<Arguments> duplicates() {
    return Stream.of(
        Arguments.of(minimal("t").partitionKey("id", DataType.INT)),
        Arguments.of(minimal("t").clusteringColumn("id", DataType.INT)),
        Arguments.of(minimal("t").column("v", DataType.INT).column("v", DataType.TEXT)),
        Arguments.of(minimal("t").clusteringColumn("v", DataType.INT).column("v", DataType.INT)));
  }

  @ParameterizedTest
  @MethodSource("duplicates")
  void duplicateColumnsAreRejectedNamingTheColumn(TableSchema.Builder b) {
    assertThatThrownBy(b::build)
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("declared twice")
        .hasMessageMatching("column (id|v) .*");
  }

  @Test
  void durationCannotBeAPartitionKeyColumn() {
    assertThatThrownBy(() -> TableSchema.builder("t").partitionKey("d", DataType.DURATION).build())
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("column d")
        .hasMessageContaining("duration")
        .hasMessageContaining("primary key");
  }

  @Test
  void durationCannotBeAClusteringColumn() {
    assertThatThrownBy(() -> minimal("t").clusteringColumn("d", DataType.DURATION).build())
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("column d")
        .hasMessageContaining("primary key");
  }

  @Test
  void durationIsFineAsARegularColumn() {
    assertThat(minimal("t").column("d", DataType.DURATION).build().column("d")).isPresent();
  }

  @Test
  void negativeDefaultTtlIsRejected() {
    assertThatThrownBy(() -> minimal("t").defaultTimeToLive(Duration.ofSeconds(-1)).build())
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("defaultTimeToLive");
  }

  @Test
  void defaultTtlAboveTwentyYearsIsRejected() {
    assertThatThrownBy(
            () -> minimal("t").defaultTimeToLive(TableSchema.MAX_TTL.plusSeconds(1)).build())
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("defaultTimeToLive");
  }

  @Test
  void negativeGcGraceIsRejected() {
    assertThatThrownBy(() -> minimal("t").gcGrace(Duration.ofSeconds(-1)).build())
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("gcGrace");
  }

  @Test
  void subSecondDefaultTtlIsRejected() {
    // TTLs are whole seconds; a table default of 1.5 s would make every write fail later.
    assertThatThrownBy(() -> minimal("t").defaultTimeToLive(Duration.ofMillis(1500)).build())
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("defaultTimeToLive");
  }

  @Test
  void subSecondGcGraceIsRejected() {
    // Persisted in whole seconds; a fraction would silently change on reopen.
    assertThatThrownBy(() -> minimal("t").gcGrace(Duration.ofMillis(10)).build())
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("gcGrace");
  }

  @ParameterizedTest
  @ValueSource(doubles = {0.0, -0.1, 1.0001, Double.NaN})
  void bloomFilterChanceOutOfRangeIsRejected(double chance) {
    assertThatThrownBy(() -> minimal("t").bloomFilterFpChance(chance).build())
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("bloomFilterFpChance");
  }

  @ParameterizedTest
  @ValueSource(ints = {0, -4, 3, 48, 2048})
  void chunkLengthMustBeAPowerOfTwoFromOneTo1024(int kib) {
    assertThatThrownBy(() -> minimal("t").chunkLengthKb(kib).build())
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("chunk_length_in_kb must be a power of 2 from 1 to 1024")
        .hasMessageContaining(Integer.toString(kib));
  }

  @Test
  void chunkLengthDefaultsToCassandrasSixteenKibAndAcceptsTheRange() {
    assertThat(minimal("t").build().chunkLengthKb()).isEqualTo(16);
    assertThat(minimal("t").chunkLengthKb(1).build().chunkLengthKb()).isEqualTo(1);
    assertThat(minimal("t").chunkLengthKb(1024).build().chunkLengthKb()).isEqualTo(1024);
  }

  @Test
  void bloomFilterChanceOfOneIsAccepted() {
    assertThat(minimal("t").bloomFilterFpChance(1.0).build().bloomFilterFpChance()).isEqualTo(1.0);
  }

  @Test
  void tombstoneThresholdsMustBeOrdered() {
    assertThatThrownBy(() -> minimal("t").tombstoneThresholds(10, 5).build())
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("tombstone thresholds");
  }

  static Stream<Arguments> badCompaction() {
    return Stream.<Arguments>of(
        Arguments.of(
            (Supplier<CompactionOptions>) () -> CompactionOptions.sizeTiered().fanout(5).build(),
            "fanout_size"),
        Arguments.of(
            (Supplier<CompactionOptions>)
                () -> CompactionOptions.sizeTiered().windowSize(2).build(),
            "compaction_window_size"),
        Arguments.of(
            (Supplier<CompactionOptions>) () -> CompactionOptions.leveled().minThreshold(4).build(),
            "min_threshold"),
        Arguments.of(
            (Supplier<CompactionOptions>) () -> CompactionOptions.leveled().bucketLow(0.3).build(),
            "bucket_low"),
        Arguments.of(
            (Supplier<CompactionOptions>)
                () -> CompactionOptions.timeWindow().sstableSizeBytes(1 << 20).build(),
            "sstable_size"),
        Arguments.of(
            (Supplier<CompactionOptions>)
                () -> CompactionOptions.sizeTiered().minThreshold(8).maxThreshold(4).build(),
            "max_threshold"),
        Arguments.of(
            (Supplier<CompactionOptions>)
                () -> CompactionOptions.timeWindow().minThreshold(8).maxThreshold(4).build(),
            "max_threshold"),
        Arguments.of(
            (Supplier<CompactionOptions>)
                () -> CompactionOptions.sizeTiered().minThreshold(1).build(),
            "min_threshold"),
        Arguments.of(
            (Supplier<CompactionOptions>)
                () -> CompactionOptions.sizeTiered().bucketLow(1.5).bucketHigh(1.5).build(),
            "bucket_high"),
        Arguments.of(
            (Supplier<CompactionOptions>)
                () -> CompactionOptions.sizeTiered().bucketLow(1.0).bucketHigh(0.5).build(),
            "bucket_high"),
        Arguments.of(
            (Supplier<CompactionOptions>) () -> CompactionOptions.sizeTiered().bucketLow(0).build(),
            "bucket_low"),
        Arguments.of(
            (Supplier<CompactionOptions>)
                () -> CompactionOptions.leveled().sstableSizeBytes(1000).build(),
            "sstable_size"),
        Arguments.of(
            (Supplier<CompactionOptions>) () -> CompactionOptions.leveled().fanout(1).build(),
            "fanout_size"),
        Arguments.of(
            (Supplier<CompactionOptions>)
                () -> CompactionOptions.timeWindow().windowUnit(ChronoUnit.SECONDS).build(),
            "compaction_window_unit"),
        Arguments.of(
            (Supplier<CompactionOptions>)
                () -> CompactionOptions.timeWindow().windowSize(0).build(),
            "compaction_window_size"),
        Arguments.of(
            (Supplier<CompactionOptions>)
                () -> CompactionOptions.sizeTiered().tombstoneThreshold(0).build(),
            "tombstone_threshold"),
        Arguments.of(
            (Supplier<CompactionOptions>)
                () ->
                    CompactionOptions.sizeTiered()
                        .tombstoneCompactionInterval(Duration.ofSeconds(-1))
                        .build(),
            "tombstone_compaction_interval"),
        Arguments.of(
            (Supplier<CompactionOptions>)
                () ->
                    CompactionOptions.sizeTiered()
                        .tombstoneCompactionInterval(Duration.ofMillis(1500))
                        .build(),
            "tombstone_compaction_interval"));
  }

  @ParameterizedTest
  @MethodSource("badCompaction")
  void invalidCompactionOptionsAreRejectedNamingTheOption(
      Supplier<CompactionOptions> build, String option) {
    assertThatThrownBy(build::get)
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining(option);
  }

  @Test
  void misplacedOptionMessageNamesTheStrategy() {
    assertThatThrownBy(() -> CompactionOptions.sizeTiered().fanout(5).build())
        .hasMessageContaining("size_tiered");
  }

  private static TableSchema everyField() {
    return TableSchema.builder("every_field")
        .partitionKey("p1", DataType.TEXT)
        .partitionKey("p2", DataType.INT)
        .clusteringColumn("c1", DataType.TIMESTAMP, ClusteringOrder.DESC)
        .clusteringColumn("c2", DataType.UUID, ClusteringOrder.ASC)
        .column("v1", DataType.BLOB)
        .column("v2", DataType.DURATION)
        .column("v3", DataType.DECIMAL)
        .defaultTimeToLive(Duration.ofHours(5))
        .gcGrace(Duration.ofSeconds(3600))
        .compaction(
            CompactionOptions.timeWindow()
                .windowUnit(ChronoUnit.HOURS)
                .windowSize(6)
                .minThreshold(3)
                .maxThreshold(17)
                .tombstoneThreshold(0.35)
                .tombstoneCompactionInterval(Duration.ofHours(7))
                .uncheckedTombstoneCompaction(true)
                .build())
        .compression(Compression.ZSTD)
        .chunkLengthKb(64)
        .bloomFilterFpChance(0.05)
        .tombstoneThresholds(123, 4567)
        .build();
  }

  private static void assertSameFields(TableSchema a, TableSchema e) {
    assertThat(a.name()).isEqualTo(e.name());
    assertThat(a.partitionKey()).isEqualTo(e.partitionKey());
    assertThat(a.clustering()).isEqualTo(e.clustering());
    assertThat(a.regularColumns()).isEqualTo(e.regularColumns());
    assertThat(a.defaultTimeToLive()).isEqualTo(e.defaultTimeToLive());
    assertThat(a.gcGrace()).isEqualTo(e.gcGrace());
    assertThat(a.compression()).isEqualTo(e.compression());
    assertThat(a.chunkLengthKb()).isEqualTo(e.chunkLengthKb());
    assertThat(a.bloomFilterFpChance()).isEqualTo(e.bloomFilterFpChance());
    assertThat(a.tombstoneWarnThreshold()).isEqualTo(e.tombstoneWarnThreshold());
    assertThat(a.tombstoneFailureThreshold()).isEqualTo(e.tombstoneFailureThreshold());
    CompactionOptions ac = a.compaction();
    CompactionOptions ec = e.compaction();
    assertThat(ac.strategy()).isEqualTo(ec.strategy());
    assertThat(ac.minThreshold()).isEqualTo(ec.minThreshold());
    assertThat(ac.maxThreshold()).isEqualTo(ec.maxThreshold());
    assertThat(ac.bucketLow()).isEqualTo(ec.bucketLow());
    assertThat(ac.bucketHigh()).isEqualTo(ec.bucketHigh());
    assertThat(ac.minSSTableSizeBytes()).isEqualTo(ec.minSSTableSizeBytes());
    assertThat(ac.sstableSizeBytes()).isEqualTo(ec.sstableSizeBytes());
    assertThat(ac.fanout()).isEqualTo(ec.fanout());
    assertThat(ac.windowUnit()).isEqualTo(ec.windowUnit());
    assertThat(ac.windowSize()).isEqualTo(ec.windowSize());
    assertThat(ac.tombstoneThreshold()).isEqualTo(ec.tombstoneThreshold());
    assertThat(ac.tombstoneCompactionInterval()).isEqualTo(ec.tombstoneCompactionInterval());
    assertThat(ac.uncheckedTombstoneCompaction()).isEqualTo(ec.uncheckedTombstoneCompaction());
    assertThat(ac).isEqualTo(ec);
    assertThat(a).isEqualTo(e);
  }

  @Test
  void everySchemaFieldPersistsAcrossCloseAndReopen() {
    TableSchema tw = everyField();
    TableSchema stcs =
        TableSchema.builder("stcs")
            .partitionKey("k", DataType.BIGINT)
            .column("v", DataType.TEXT)
            .compaction(
                CompactionOptions.sizeTiered()
                    .minThreshold(5)
                    .maxThreshold(40)
                    .bucketLow(0.25)
                    .bucketHigh(2.5)
                    .minSSTableSizeBytes(1234567)
                    .tombstoneThreshold(0.5)
                    .build())
            .compression(Compression.NONE)
            .build();
    TableSchema lcs =
        TableSchema.builder("lcs")
            .partitionKey("k", DataType.INET)
            .clusteringColumn("c", DataType.TIMEUUID, ClusteringOrder.DESC)
            .compaction(CompactionOptions.leveled().sstableSizeBytes(5L << 20).fanout(7).build())
            .build();
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).build())) {
      db.createTable(tw);
      db.createTable(stcs);
      db.createTable(lcs);
    }
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).build())) {
      assertThat(db.tables()).extracting(Table::name).containsExactly("every_field", "lcs", "stcs");
      assertSameFields(db.table("every_field").schema(), tw);
      assertSameFields(db.table("stcs").schema(), stcs);
      assertSameFields(db.table("lcs").schema(), lcs);
      // The restored table is usable and the same definition is accepted again.
      assertThat(db.createTableIfNotExists(tw)).isSameAs(db.table("every_field"));
    }
  }

  @Test
  void createTableTwiceFails() {
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).build())) {
      TableSchema s = minimal("t").column("v", DataType.INT).build();
      db.createTable(s);
      assertThatThrownBy(() -> db.createTable(s))
          .isInstanceOf(InvalidSchemaException.class)
          .hasMessageContaining("t already exists");
    }
  }

  @Test
  void createTableIfNotExistsReturnsTheSameTable() {
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).build())) {
      TableSchema s = minimal("t").column("v", DataType.INT).build();
      Table first = db.createTable(s);
      first.insert().value("id", "a").value("v", 1).execute();
      Table again = db.createTableIfNotExists(minimal("t").column("v", DataType.INT).build());
      assertThat(again).isSameAs(first);
      assertThat(again.select().eq("id", "a").one())
          .get()
          .extracting(r -> r.getInt("v"))
          .isEqualTo(1);
    }
  }

  @Test
  void createTableIfNotExistsWithADifferentSchemaFails() {
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).build())) {
      db.createTable(minimal("t").column("v", DataType.INT).build());
      assertThatThrownBy(
              () -> db.createTableIfNotExists(minimal("t").column("v", DataType.TEXT).build()))
          .isInstanceOf(InvalidSchemaException.class)
          .hasMessageContaining("different schema");
    }
  }

  @Test
  void unknownTableIsAnInvalidQuery() {
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).build())) {
      assertThatThrownBy(() -> db.table("nope"))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("nope");
      assertThat(db.findTable("nope")).isEmpty();
    }
  }
}
