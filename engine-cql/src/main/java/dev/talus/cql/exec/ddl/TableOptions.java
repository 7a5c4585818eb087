package dev.talus.cql.exec.ddl;

import dev.talus.CompactionOptions;
import dev.talus.Compression;
import dev.talus.InvalidSchemaException;
import dev.talus.TableSchema;
import dev.talus.cql.exec.meta.CqlOptions;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.parse.ast.Properties;
import dev.talus.cql.parse.ast.Property;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The {@code WITH} options of {@code CREATE TABLE}, mapped onto a Talus schema. Honoured: {@code
 * bloom_filter_fp_chance}, {@code compaction} (Cassandra's class names, short or under {@code
 * org.apache.cassandra.db.compaction}, and option keys), {@code compression}, {@code
 * default_time_to_live}, {@code gc_grace_seconds}, and Talus's thresholds under {@code extensions}.
 * Accepted with one warning, so that Cassandra schema files load: the tuning options Talus has no
 * counterpart for ({@code caching}, {@code comment}, {@code speculative_retry}, ...). Anything else
 * is Cassandra's syntax error {@code Unknown property}. Static, thread-safe.
 */
final class TableOptions {
  /** Cassandra 5.0 table options Talus accepts and ignores (with a warning). */
  private static final Set<String> IGNORED =
      Set.of(
          "caching",
          "comment",
          "speculative_retry",
          "additional_write_policy",
          "read_repair",
          "crc_check_chance",
          "memtable_flush_period_in_ms",
          "min_index_interval",
          "max_index_interval",
          "cdc",
          "memtable",
          "allow_auto_snapshot",
          "incremental_backups",
          "id",
          "dclocal_read_repair_chance",
          "read_repair_chance");

  private static final Set<String> IGNORED_COMPACTION =
      Set.of(
          "enabled",
          "only_purge_repaired_tombstones",
          "log_all",
          "provide_overlapping_tombstones",
          "single_sstable_uplevel",
          "timestamp_resolution",
          "expired_sstable_check_frequency_seconds",
          "unsafe_aggressive_sstable_expiration");

  private TableOptions() {}

  /** Applies {@code props} to {@code b}; what was ignored goes to the warnings. */
  static void apply(Properties props, TableSchema.Builder b, PrepareContext pc) {
    Source src = pc.source();
    List<String> ignored = new ArrayList<>();
    for (Property p : props.properties()) {
      String name = p.name().name();
      try {
        switch (name) {
          case "bloom_filter_fp_chance" -> {
            double v = PropertyValues.decimal(p, src);
            if (!(v > 0 && v <= 1)) {
              throw config(
                  p,
                  "bloom_filter_fp_chance must be larger than 0.0 and less than or equal to 1.0"
                      + " (got "
                      + v
                      + ")",
                  pc);
            }
            b.bloomFilterFpChance(v);
          }
          case "default_time_to_live" -> {
            int v = PropertyValues.integer(p, src);
            long max = TableSchema.MAX_TTL.getSeconds();
            if (v < 0 || v > max) {
              throw config(
                  p,
                  "default_time_to_live must be "
                      + (v < 0 ? "greater than or equal to 0" : "less than or equal to " + max)
                      + " (got "
                      + v
                      + ")",
                  pc);
            }
            b.defaultTimeToLive(Duration.ofSeconds(v));
          }
          case "gc_grace_seconds" -> {
            int v = PropertyValues.integer(p, src);
            if (v < 0) {
              throw config(
                  p, "gc_grace_seconds must be greater than or equal to 0 (got " + v + ")", pc);
            }
            b.gcGrace(Duration.ofSeconds(v));
          }
          case "compaction" -> b.compaction(compaction(p, pc));
          case "compression" -> compression(p, b, pc);
          case "extensions" -> extensions(p, b, pc);
          default -> {
            if (!IGNORED.contains(name)) {
              throw src.syntax(p.position(), name, "Unknown property '" + name + "'");
            }
            ignored.add(name);
          }
        }
      } catch (InvalidSchemaException e) {
        if (e instanceof dev.talus.cql.CqlConfigurationException) {
          throw e;
        }
        throw config(p, e.getMessage(), pc);
      }
    }
    if (!ignored.isEmpty()) {
      pc.warn(
          "Talus ignored the table option(s) "
              + String.join(", ", ignored)
              + ": Cassandra tuning it has no counterpart for (accepted so that Cassandra schema"
              + " files load; they change nothing)");
    }
  }

  private static RuntimeException config(Property p, String reason, PrepareContext pc) {
    return pc.source().config(p.position(), p.name().name().length(), reason);
  }

  private static CompactionOptions compaction(Property p, PrepareContext pc) {
    Map<String, String> m = new LinkedHashMap<>(PropertyValues.map(p, pc.source()));
    String klass = m.remove("class");
    if (klass == null) {
      throw config(p, "Missing sub-option 'class' for the 'compaction' option.", pc);
    }
    String simple =
        klass.startsWith(CqlOptions.COMPACTION_PACKAGE)
            ? klass.substring(CqlOptions.COMPACTION_PACKAGE.length())
            : klass;
    CompactionOptions.Builder b;
    switch (simple) {
      case CqlOptions.STCS -> b = CompactionOptions.sizeTiered();
      case CqlOptions.LCS -> b = CompactionOptions.leveled();
      case CqlOptions.TWCS -> b = CompactionOptions.timeWindow();
      case "UnifiedCompactionStrategy" -> {
        pc.warn(
            "The given compaction strategy (UnifiedCompactionStrategy) is not supported by Talus."
                + " The compaction strategy parameter was overridden with the default"
                + " (org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy). Inspect"
                + " your schema and adjust other table properties if needed.");
        return CompactionOptions.defaults();
      }
      default -> {
        String full = klass.indexOf('.') < 0 ? CqlOptions.COMPACTION_PACKAGE + klass : klass;
        throw config(
            p,
            "Unable to find compaction strategy class '"
                + full
                + "' (Talus runs SizeTieredCompactionStrategy, LeveledCompactionStrategy and"
                + " TimeWindowCompactionStrategy)",
            pc);
      }
    }
    List<String> unknown = new ArrayList<>();
    List<String> ignored = new ArrayList<>();
    boolean leveled = simple.equals(CqlOptions.LCS);
    boolean sizeTiered = simple.equals(CqlOptions.STCS);
    boolean window = simple.equals(CqlOptions.TWCS);
    for (Map.Entry<String, String> e : m.entrySet()) {
      String v = e.getValue().trim();
      String key = e.getKey();
      try {
        switch (key) {
          case "min_threshold" -> {
            if (leveled) {
              ignored.add(key);
            } else {
              b.minThreshold(Integer.parseInt(v));
            }
          }
          case "max_threshold" -> {
            if (leveled) {
              ignored.add(key);
            } else {
              b.maxThreshold(Integer.parseInt(v));
            }
          }
          case "tombstone_threshold" -> b.tombstoneThreshold(Double.parseDouble(v));
          case "tombstone_compaction_interval" ->
              b.tombstoneCompactionInterval(Duration.ofSeconds(Long.parseLong(v)));
          case "unchecked_tombstone_compaction" ->
              b.uncheckedTombstoneCompaction(PropertyValues.bool(v));
          default -> {
            if (sizeTiered && key.equals("bucket_low")) {
              b.bucketLow(Double.parseDouble(v));
            } else if (sizeTiered && key.equals("bucket_high")) {
              b.bucketHigh(Double.parseDouble(v));
            } else if (sizeTiered && key.equals("min_sstable_size")) {
              b.minSSTableSizeBytes(Long.parseLong(v));
            } else if (leveled && key.equals("sstable_size_in_mb")) {
              b.sstableSizeBytes(Long.parseLong(v) << 20);
            } else if (leveled && key.equals("fanout_size")) {
              b.fanout(Integer.parseInt(v));
            } else if (window && key.equals("compaction_window_unit")) {
              b.windowUnit(unit(v, p, pc));
            } else if (window && key.equals("compaction_window_size")) {
              b.windowSize(Integer.parseInt(v));
            } else if (IGNORED_COMPACTION.contains(key)) {
              ignored.add(key);
            } else {
              unknown.add(key);
            }
          }
        }
      } catch (NumberFormatException ex) {
        throw config(p, "Invalid value '" + v + "' for the compaction option '" + key + "'", pc);
      }
    }
    if (!unknown.isEmpty()) {
      throw config(p, "Properties specified " + unknown + " are not understood by " + simple, pc);
    }
    if (!ignored.isEmpty()) {
      pc.warn(
          "Talus ignored the compaction option(s) "
              + String.join(", ", ignored)
              + " of "
              + simple
              + ": Talus has no counterpart for them (compaction cannot be switched off per"
              + " table; use TalusOptions.backgroundCompaction)");
    }
    return b.build();
  }

  private static ChronoUnit unit(String v, Property p, PrepareContext pc) {
    return switch (v.toUpperCase(Locale.ROOT)) {
      case "MINUTES" -> ChronoUnit.MINUTES;
      case "HOURS" -> ChronoUnit.HOURS;
      case "DAYS" -> ChronoUnit.DAYS;
      default ->
          throw config(
              p, v + " is not valid for compaction_window_unit: use MINUTES, HOURS or DAYS", pc);
    };
  }

  /**
   * The {@code compression} map: the compressor and the chunk length (a map without one gets
   * Talus's default, {@value TableSchema#DEFAULT_CHUNK_LENGTH_KB} KiB, as Cassandra's gets its
   * own).
   */
  private static void compression(Property p, TableSchema.Builder b, PrepareContext pc) {
    Map<String, String> m = new LinkedHashMap<>(PropertyValues.map(p, pc.source()));
    String enabled = m.remove("enabled");
    String klass = m.remove("class");
    if (klass == null) {
      klass = m.remove("sstable_compression");
    }
    List<String> ignored = new ArrayList<>();
    String chunk = m.remove("chunk_length_in_kb");
    if (chunk == null) {
      chunk = m.remove("chunk_length_kb");
    }
    b.chunkLengthKb(
        chunk == null ? TableSchema.DEFAULT_CHUNK_LENGTH_KB : chunkLength(chunk, p, pc));
    for (String k : List.of("crc_check_chance", "compression_level", "max_compressed_length")) {
      if (m.remove(k) != null) {
        ignored.add(k);
      }
    }
    if (!m.isEmpty()) {
      throw config(p, "Unknown compression options: " + m.keySet(), pc);
    }
    Compression result;
    if (enabled != null && !PropertyValues.bool(enabled)) {
      result = Compression.NONE;
    } else if (klass == null || klass.isEmpty()) {
      if (enabled == null) {
        throw config(p, "Missing sub-option 'class' for the 'compression' option.", pc);
      }
      result = Compression.LZ4;
    } else {
      String simple =
          klass.startsWith(CqlOptions.COMPRESSION_PACKAGE)
              ? klass.substring(CqlOptions.COMPRESSION_PACKAGE.length())
              : klass;
      result =
          switch (simple) {
            case CqlOptions.LZ4 -> Compression.LZ4;
            case CqlOptions.ZSTD -> Compression.ZSTD;
            case "NoopCompressor" -> Compression.NONE;
            case "SnappyCompressor", "DeflateCompressor" -> {
              pc.warn(
                  "Talus has no "
                      + simple
                      + "; the table is compressed with LZ4Compressor instead (compression changes"
                      + " only the size on disk)");
              yield Compression.LZ4;
            }
            default ->
                throw config(
                    p,
                    "Could not create Compression for type "
                        + (klass.indexOf('.') < 0 ? CqlOptions.COMPRESSION_PACKAGE + klass : klass)
                        + " (Talus has LZ4Compressor, ZstdCompressor and NoopCompressor)",
                    pc);
          };
    }
    if (!ignored.isEmpty()) {
      pc.warn("Talus ignored the compression option(s) " + String.join(", ", ignored));
    }
    b.compression(result);
  }

  private static int chunkLength(String v, Property p, PrepareContext pc) {
    int kib;
    try {
      kib = Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw config(p, "Invalid value for chunk_length_in_kb: " + v, pc);
    }
    if (kib <= 0 || Integer.bitCount(kib) != 1 || kib > 1024) {
      throw config(
          p,
          "chunk_length_in_kb must be a power of 2"
              + (kib > 1024 ? " of at most 1024 (Talus's largest chunk is 1 MiB)" : "")
              + ", got "
              + kib,
          pc);
    }
    return kib;
  }

  private static void extensions(Property p, TableSchema.Builder b, PrepareContext pc) {
    Map<String, String> m = PropertyValues.map(p, pc.source());
    TableSchema defaults =
        TableSchema.builder("d").partitionKey("k", dev.talus.DataType.INT).build();
    Integer warn = null;
    Integer fail = null;
    Long sizeWarn = null;
    Long sizeFail = null;
    Long rowsWarn = null;
    Long rowsFail = null;
    List<String> others = new ArrayList<>();
    for (Map.Entry<String, String> e : m.entrySet()) {
      String v = e.getValue().trim();
      try {
        switch (e.getKey()) {
          case CqlOptions.TOMBSTONE_WARN -> warn = Integer.parseInt(v);
          case CqlOptions.TOMBSTONE_FAIL -> fail = Integer.parseInt(v);
          case CqlOptions.PARTITION_SIZE_WARN -> sizeWarn = Long.parseLong(v);
          case CqlOptions.PARTITION_SIZE_FAIL -> sizeFail = Long.parseLong(v);
          case CqlOptions.PARTITION_ROWS_WARN -> rowsWarn = Long.parseLong(v);
          case CqlOptions.PARTITION_ROWS_FAIL -> rowsFail = Long.parseLong(v);
          default -> others.add(e.getKey());
        }
      } catch (NumberFormatException ex) {
        throw config(p, "Invalid value '" + v + "' for the extension '" + e.getKey() + "'", pc);
      }
    }
    if (warn != null || fail != null) {
      b.tombstoneThresholds(
          warn != null ? warn : defaults.tombstoneWarnThreshold(),
          fail != null ? fail : defaults.tombstoneFailureThreshold());
    }
    if (sizeWarn != null || sizeFail != null) {
      b.partitionSizeThresholds(sizeWarn, sizeFail);
    }
    if (rowsWarn != null || rowsFail != null) {
      b.partitionRowsThresholds(rowsWarn, rowsFail);
    }
    if (!others.isEmpty()) {
      pc.warn("Talus ignored the extension(s) " + String.join(", ", others));
    }
  }
}
