package dev.talus.cql.exec.meta;

import dev.talus.CompactionOptions;
import dev.talus.Compression;
import dev.talus.TableSchema;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A Talus table's options as Cassandra writes them — the {@code compaction} and {@code compression}
 * maps with Cassandra's class names and option keys, and Talus's own thresholds under {@code
 * extensions} — for {@code DESCRIBE} and {@code system_schema.tables}. The reverse mapping (CQL to
 * a schema) is in {@code CREATE TABLE}'s preparation, which uses the names below. Static,
 * thread-safe.
 */
public final class CqlOptions {
  public static final String COMPACTION_PACKAGE = "org.apache.cassandra.db.compaction.";
  public static final String COMPRESSION_PACKAGE = "org.apache.cassandra.io.compress.";
  public static final String STCS = "SizeTieredCompactionStrategy";
  public static final String LCS = "LeveledCompactionStrategy";
  public static final String TWCS = "TimeWindowCompactionStrategy";
  public static final String LZ4 = "LZ4Compressor";
  public static final String ZSTD = "ZstdCompressor";

  /** Talus's per-table options that Cassandra has no place for, kept in {@code extensions}. */
  public static final String TOMBSTONE_WARN = "talus.tombstone_warn_threshold";

  public static final String TOMBSTONE_FAIL = "talus.tombstone_failure_threshold";
  public static final String PARTITION_SIZE_WARN = "talus.partition_size_warn_bytes";
  public static final String PARTITION_SIZE_FAIL = "talus.partition_size_fail_bytes";
  public static final String PARTITION_ROWS_WARN = "talus.partition_rows_warn";
  public static final String PARTITION_ROWS_FAIL = "talus.partition_rows_fail";

  private static final CompactionOptions STCS_DEFAULTS = CompactionOptions.sizeTiered().build();
  private static final CompactionOptions LCS_DEFAULTS = CompactionOptions.leveled().build();
  private static final CompactionOptions TWCS_DEFAULTS = CompactionOptions.timeWindow().build();
  private static final TableSchema DEFAULTS =
      TableSchema.builder("d").partitionKey("k", dev.talus.DataType.INT).build();

  private CqlOptions() {}

  /** The {@code compaction} map: {@code class} first, then the options, by name. */
  public static Map<String, String> compaction(CompactionOptions c) {
    Map<String, String> out = new LinkedHashMap<>();
    TreeMap<String, String> options = new TreeMap<>();
    CompactionOptions d;
    switch (c.strategy()) {
      case SIZE_TIERED -> {
        d = STCS_DEFAULTS;
        out.put("class", COMPACTION_PACKAGE + STCS);
        options.put("max_threshold", Integer.toString(c.maxThreshold()));
        options.put("min_threshold", Integer.toString(c.minThreshold()));
        if (c.bucketLow() != d.bucketLow()) {
          options.put("bucket_low", Double.toString(c.bucketLow()));
        }
        if (c.bucketHigh() != d.bucketHigh()) {
          options.put("bucket_high", Double.toString(c.bucketHigh()));
        }
        if (c.minSSTableSizeBytes() != d.minSSTableSizeBytes()) {
          options.put("min_sstable_size", Long.toString(c.minSSTableSizeBytes()));
        }
      }
      case LEVELED -> {
        d = LCS_DEFAULTS;
        out.put("class", COMPACTION_PACKAGE + LCS);
        if (c.sstableSizeBytes() != d.sstableSizeBytes()) {
          // Cassandra takes whole MiB; a size set through the Java API rounds up
          options.put(
              "sstable_size_in_mb",
              Long.toString(Math.max(1, (c.sstableSizeBytes() + (1 << 20) - 1) >> 20)));
        }
        if (c.fanout() != d.fanout()) {
          options.put("fanout_size", Integer.toString(c.fanout()));
        }
      }
      default -> {
        d = TWCS_DEFAULTS;
        out.put("class", COMPACTION_PACKAGE + TWCS);
        options.put("compaction_window_size", Integer.toString(c.windowSize()));
        options.put("compaction_window_unit", c.windowUnit().name().toUpperCase(Locale.ROOT));
        options.put("max_threshold", Integer.toString(c.maxThreshold()));
        options.put("min_threshold", Integer.toString(c.minThreshold()));
      }
    }
    if (c.tombstoneThreshold() != d.tombstoneThreshold()) {
      options.put("tombstone_threshold", Double.toString(c.tombstoneThreshold()));
    }
    if (!c.tombstoneCompactionInterval().equals(d.tombstoneCompactionInterval())) {
      options.put(
          "tombstone_compaction_interval",
          Long.toString(c.tombstoneCompactionInterval().getSeconds()));
    }
    if (c.uncheckedTombstoneCompaction() != d.uncheckedTombstoneCompaction()) {
      options.put(
          "unchecked_tombstone_compaction", Boolean.toString(c.uncheckedTombstoneCompaction()));
    }
    out.putAll(options);
    return out;
  }

  /** The {@code compression} map. */
  public static Map<String, String> compression(Compression c, int chunkLengthKb) {
    Map<String, String> out = new LinkedHashMap<>();
    if (c == Compression.NONE) {
      if (chunkLengthKb != TableSchema.DEFAULT_CHUNK_LENGTH_KB) {
        out.put("chunk_length_in_kb", Integer.toString(chunkLengthKb)); // chunks are still written
      }
      out.put("enabled", "false");
      return out;
    }
    out.put("chunk_length_in_kb", Integer.toString(chunkLengthKb));
    out.put("class", COMPRESSION_PACKAGE + (c == Compression.LZ4 ? LZ4 : ZSTD));
    return out;
  }

  /** Talus's own options that differ from their defaults, as {@code extensions} entries. */
  public static Map<String, String> extensions(TableSchema s) {
    Map<String, String> out = new TreeMap<>();
    if (s.tombstoneWarnThreshold() != DEFAULTS.tombstoneWarnThreshold()) {
      out.put(TOMBSTONE_WARN, Integer.toString(s.tombstoneWarnThreshold()));
    }
    if (s.tombstoneFailureThreshold() != DEFAULTS.tombstoneFailureThreshold()) {
      out.put(TOMBSTONE_FAIL, Integer.toString(s.tombstoneFailureThreshold()));
    }
    put(out, PARTITION_SIZE_WARN, s.partitionSizeWarnBytes());
    put(out, PARTITION_SIZE_FAIL, s.partitionSizeFailBytes());
    put(out, PARTITION_ROWS_WARN, s.partitionRowsWarn());
    put(out, PARTITION_ROWS_FAIL, s.partitionRowsFail());
    return out;
  }

  private static void put(Map<String, String> out, String key, Long value) {
    if (value != null) {
      out.put(key, Long.toString(value));
    }
  }
}
