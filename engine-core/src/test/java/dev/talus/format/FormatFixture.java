package dev.talus.format;

import dev.talus.ClusteringOrder;
import dev.talus.ColumnDef;
import dev.talus.CompactionOptions;
import dev.talus.Compression;
import dev.talus.DataType;
import dev.talus.ResultRow;
import dev.talus.SSTableSummary;
import dev.talus.StoredPartition;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.List;

/**
 * What the checked-in on-disk format fixture holds, shared by the program that wrote it ({@link
 * FormatFixtureWriter}, run once against the code of commit 024cd05) and the test that reads it
 * ({@link OnDiskFormatFixtureTest}): the tables, the partitions written, the instants of the manual
 * clock, and a canonical text rendering of everything a user can read back.
 */
final class FormatFixture {
  /** The classpath folder of the data directory (LOCK left out). */
  static final String RESOURCE = "/fixtures/format-024cd05/data";

  /** The canonical rendering the writer produced with the old code, read at {@link #READ_AT}. */
  static final String EXPECTED = "/fixtures/format-024cd05/expected.txt";

  /** The manual clock of the writer starts here. */
  static final Instant WRITE_START = Instant.parse("2026-03-01T00:00:00Z");

  /** The manual clock of every read of the fixture: some TTLs have run out by then, some not. */
  static final Instant READ_AT = Instant.parse("2026-03-01T06:30:00Z");

  static final List<String> TENANTS = List.of("acme", "globex", "initech", "umbrella");
  static final List<LocalDate> DAYS =
      List.of(LocalDate.parse("2026-02-28"), LocalDate.parse("2026-03-01"));
  static final List<String> HOSTS = List.of("db-1", "db-2", "web-1");
  static final List<String> SENSORS = List.of("s-1", "s-2", "s-3");
  static final List<Integer> BUCKETS = List.of(0, 1);
  static final List<Long> KEYS = List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
  static final List<String> QUEUES = List.of("q-a", "q-b");

  private FormatFixture() {}

  /** Size-tiered, LZ4, composite partition key, DESC then ASC clustering. */
  static TableSchema events() {
    return TableSchema.builder("events")
        .partitionKey("tenant", DataType.TEXT)
        .partitionKey("day", DataType.DATE)
        .clusteringColumn("ts", DataType.TIMESTAMP, ClusteringOrder.DESC)
        .clusteringColumn("seq", DataType.INT)
        .column("kind", DataType.TEXT)
        .column("payload", DataType.BLOB)
        .column("amount", DataType.DECIMAL)
        .column("flag", DataType.BOOLEAN)
        .column("id", DataType.UUID)
        .gcGrace(Duration.ofDays(1))
        .build();
  }

  /** Leveled, ZSTD, ASC then DESC clustering. */
  static TableSchema metrics() {
    return TableSchema.builder("metrics")
        .partitionKey("host", DataType.TEXT)
        .clusteringColumn("metric", DataType.ASCII)
        .clusteringColumn("at", DataType.BIGINT, ClusteringOrder.DESC)
        .column("value", DataType.DOUBLE)
        .column("count", DataType.INT)
        .column("unit", DataType.TEXT)
        .compaction(CompactionOptions.leveled().sstableSizeBytes(1 << 16).fanout(4).build())
        .compression(Compression.ZSTD)
        .build();
  }

  /** Time-window (hourly), default TTL, no compression. */
  static TableSchema readings() {
    return TableSchema.builder("readings")
        .partitionKey("sensor", DataType.TEXT)
        .partitionKey("bucket", DataType.INT)
        .clusteringColumn("ts", DataType.TIMESTAMP)
        .column("value", DataType.FLOAT)
        .column("note", DataType.TEXT)
        .defaultTimeToLive(Duration.ofHours(5))
        .gcGrace(Duration.ofHours(1))
        .compaction(
            CompactionOptions.timeWindow().windowUnit(ChronoUnit.HOURS).windowSize(1).build())
        .compression(Compression.NONE)
        .build();
  }

  /** No clustering: one row per partition, every remaining type. */
  static TableSchema kv() {
    return TableSchema.builder("kv")
        .partitionKey("k", DataType.BIGINT)
        .column("v", DataType.TEXT)
        .column("n", DataType.VARINT)
        .column("t", DataType.TIME)
        .column("d", DataType.DURATION)
        .column("ip", DataType.INET)
        .column("tu", DataType.TIMEUUID)
        .column("tiny", DataType.TINYINT)
        .column("small", DataType.SMALLINT)
        .column("f", DataType.FLOAT)
        .column("on", DataType.DATE)
        .build();
  }

  /** Only ever written after the last flush: it lives in the commit log alone. */
  static TableSchema queue() {
    return TableSchema.builder("queue")
        .partitionKey("name", DataType.TEXT)
        .clusteringColumn("pos", DataType.TIMEUUID)
        .column("item", DataType.TEXT)
        .build();
  }

  /** Everything a user can read back from {@code db}, as text (no identity hashes, no clock). */
  static String canonical(TalusDb db) {
    StringBuilder b = new StringBuilder();
    for (Table t : db.tables()) {
      b.append("table ").append(t.name()).append('\n');
      b.append("  schema ").append(t.schema()).append('\n');
      for (SSTableSummary s : t.sstables()) {
        b.append("  sstable ").append(s).append('\n');
      }
      for (List<Object> pk : partitions(t.name())) {
        b.append("  partition ").append(pk).append('\n');
        var select = t.select();
        for (int i = 0; i < pk.size(); i++) {
          select.eq(t.schema().partitionKey().get(i).name(), pk.get(i));
        }
        for (ResultRow r : select.execute()) {
          b.append("    row ").append(row(t.schema(), r)).append('\n');
        }
        for (StoredPartition p : t.dump(pk.toArray())) {
          b.append("    stored ").append(stored(p)).append('\n');
        }
      }
    }
    return b.toString();
  }

  /** The partition keys written to {@code table}, in the order the writer wrote them. */
  static List<List<Object>> partitions(String table) {
    return switch (table) {
      case "events" ->
          TENANTS.stream().flatMap(t -> DAYS.stream().map(d -> List.<Object>of(t, d))).toList();
      case "metrics" -> HOSTS.stream().map(h -> List.<Object>of(h)).toList();
      case "readings" ->
          SENSORS.stream().flatMap(s -> BUCKETS.stream().map(k -> List.<Object>of(s, k))).toList();
      case "kv" -> KEYS.stream().map(k -> List.<Object>of(k)).toList();
      case "queue" -> QUEUES.stream().map(q -> List.<Object>of(q)).toList();
      default -> throw new IllegalArgumentException(table);
    };
  }

  /**
   * Key columns as {@code name=value}, then each regular column as {@code name=value@writetime}.
   */
  private static String row(TableSchema s, ResultRow r) {
    StringBuilder b = new StringBuilder();
    for (ColumnDef c : s.clustering()) {
      b.append(c.name()).append('=').append(value(r.get(c.name()))).append(' ');
    }
    b.append('|');
    for (ColumnDef c : s.regularColumns()) {
      Object v = r.get(c.name());
      if (v == null) {
        continue;
      }
      b.append(' ').append(c.name()).append('=').append(value(v)).append('@');
      b.append(r.writeTime(c.name()));
      Integer ttl = r.ttl(c.name());
      if (ttl != null) {
        b.append("~").append(ttl);
      }
    }
    return b.toString();
  }

  /**
   * A source's partition deletion, range tombstones, then per row its clustering, marker ({@code
   * m=timestamp/expiry}), deletion and cells ({@code column:KIND:value@timestamp/ttl/ldt}).
   */
  private static String stored(StoredPartition p) {
    StringBuilder b = new StringBuilder();
    b.append(p.source()).append(" pd=").append(deletion(p.partitionDeletion()));
    for (StoredPartition.RangeDeletion rt : p.rangeTombstones()) {
      b.append(" rt=[").append(rt.start()).append(" .. ").append(rt.end());
      b.append(' ').append(deletion(rt.deletion())).append(']');
    }
    for (StoredPartition.StoredRow r : p.rows()) {
      b.append("\n      ").append(r.clustering().stream().map(FormatFixture::value).toList());
      if (r.markerTimestampMicros() != null) {
        b.append(" m=").append(r.markerTimestampMicros()).append('/');
        b.append(r.markerExpirySeconds());
      }
      if (r.rowDeletion() != null) {
        b.append(" d=").append(deletion(r.rowDeletion()));
      }
      for (StoredPartition.StoredCell c : r.cells()) {
        b.append(' ').append(c.column()).append(':').append(c.kind().name().charAt(0));
        if (c.kind() != StoredPartition.CellKind.TOMBSTONE) {
          b.append(':').append(value(c.value()));
        }
        b.append('@').append(c.timestampMicros());
        if (c.kind() != StoredPartition.CellKind.LIVE) {
          b.append('/').append(c.ttlSeconds()).append('/').append(c.localDeletionTimeSeconds());
        }
      }
    }
    return b.toString();
  }

  private static String deletion(StoredPartition.Deletion d) {
    return d == null ? "-" : d.timestampMicros() + "/" + d.localDeletionTimeSeconds();
  }

  static String value(Object v) {
    if (v instanceof byte[] bytes) {
      return "0x" + HexFormat.of().formatHex(bytes);
    }
    return String.valueOf(v);
  }
}
