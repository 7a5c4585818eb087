package dev.talus;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A table's definition: its primary key (partition key columns, then clustering columns with their
 * order), its regular columns and its storage options. Design it from the query it serves: the
 * partition key is what every read must give in full, the clustering columns are the order rows
 * come back in.
 *
 * <p>Built with {@link #builder(String)}; validated at {@code build()}. Immutable and thread-safe.
 */
public final class TableSchema {
  /**
   * Maximum TTL, Cassandra's: 20 × 365 days = 630,720,000 seconds (no leap days), per write and as
   * a table default.
   */
  public static final Duration MAX_TTL = Duration.ofSeconds(20L * 365 * 24 * 60 * 60);

  /**
   * Chunk length of a table that sets none, in KiB: 16, Cassandra's (see {@link #chunkLengthKb}).
   */
  public static final int DEFAULT_CHUNK_LENGTH_KB = 16;

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_]{1,48}");

  private final String keyspace;
  private final String name;
  private final List<ColumnDef> partitionKey;
  private final List<ColumnDef> clustering;
  private final List<ColumnDef> regular;
  private final List<ColumnDef> statics;
  private final List<ColumnDef> nonKey;
  private final List<ColumnDef> all; // partition key, clustering, the others: built once

  private final Map<String, ColumnDef> byName;
  private final Duration defaultTimeToLive;
  private final Duration gcGrace;
  private final CompactionOptions compaction;
  private final Compression compression;
  private final int chunkLengthKb;
  private final double bloomFilterFpChance;
  private final int tombstoneWarnThreshold;
  private final int tombstoneFailureThreshold;
  private final Long partitionSizeWarnBytes;
  private final Long partitionSizeFailBytes;
  private final Long partitionRowsWarn;
  private final Long partitionRowsFail;

  private TableSchema(Builder b, List<ColumnDef> pk, List<ColumnDef> ck, List<ColumnDef> nonKey) {
    this.keyspace = b.keyspace;
    this.name = b.name;
    this.partitionKey = List.copyOf(pk);
    this.clustering = List.copyOf(ck);
    this.nonKey = List.copyOf(nonKey);
    this.all = List.copyOf(columns(pk, ck, nonKey));
    this.regular = nonKey.stream().filter(c -> c.kind() == ColumnDef.Kind.REGULAR).toList();
    this.statics = nonKey.stream().filter(ColumnDef::isStatic).toList();
    Map<String, ColumnDef> m = new HashMap<>();
    for (ColumnDef c : columns(pk, ck, nonKey)) {
      m.put(c.name(), c);
    }
    this.byName = Collections.unmodifiableMap(m);
    this.defaultTimeToLive = b.defaultTimeToLive;
    this.gcGrace = b.gcGrace;
    this.compaction = b.compaction;
    this.compression = b.compression;
    this.chunkLengthKb = b.chunkLengthKb;
    this.bloomFilterFpChance = b.bloomFilterFpChance;
    this.tombstoneWarnThreshold = b.tombstoneWarnThreshold;
    this.tombstoneFailureThreshold = b.tombstoneFailureThreshold;
    this.partitionSizeWarnBytes = b.partitionSizeWarnBytes;
    this.partitionSizeFailBytes = b.partitionSizeFailBytes;
    this.partitionRowsWarn = b.partitionRowsWarn;
    this.partitionRowsFail = b.partitionRowsFail;
  }

  private static List<ColumnDef> columns(
      List<ColumnDef> pk, List<ColumnDef> ck, List<ColumnDef> reg) {
    List<ColumnDef> all = new ArrayList<>(pk);
    all.addAll(ck);
    all.addAll(reg);
    return all;
  }

  /** Starts a schema for table {@code name} (letters, digits, underscore; 1–48 characters). */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** True if {@code name} is a valid table or column name. */
  public static boolean isValidName(String name) {
    return name != null && NAME.matcher(name).matches();
  }

  public String name() {
    return name;
  }

  /**
   * The keyspace the table belongs to; empty when the schema names none, in which case {@link
   * TalusDb#createTable} puts the table in the database's {@link TalusOptions#defaultKeyspace()
   * default keyspace}. The schema of a created table always names its keyspace.
   */
  public Optional<String> keyspace() {
    return Optional.ofNullable(keyspace);
  }

  /** A copy of this schema in keyspace {@code keyspaceName}. */
  public TableSchema withKeyspace(String keyspaceName) {
    return toBuilder().keyspace(keyspaceName).build();
  }

  public List<ColumnDef> partitionKey() {
    return partitionKey;
  }

  public List<ColumnDef> clustering() {
    return clustering;
  }

  /** The regular (non-key, non-static) columns, in declaration order. */
  public List<ColumnDef> regularColumns() {
    return regular;
  }

  /** The static columns (one value per partition), in declaration order. */
  public List<ColumnDef> staticColumns() {
    return statics;
  }

  /** The regular and static columns together, in declaration order. */
  public List<ColumnDef> nonKeyColumns() {
    return nonKey;
  }

  /** True if the table's non-key columns are counters (then all of them are). */
  public boolean isCounterTable() {
    return !nonKey.isEmpty() && nonKey.get(0).type().kind() == DataType.Kind.COUNTER;
  }

  /**
   * Every column: partition key, clustering, then regular and static columns in declaration order.
   */
  public List<ColumnDef> columns() {
    return all;
  }

  public Optional<ColumnDef> column(String columnName) {
    return Optional.ofNullable(byName.get(columnName));
  }

  /** TTL applied to writes that give none; {@link Duration#ZERO} means no expiry. */
  public Duration defaultTimeToLive() {
    return defaultTimeToLive;
  }

  /** How long tombstones are kept before compaction may purge them (default 10 days). */
  public Duration gcGrace() {
    return gcGrace;
  }

  public CompactionOptions compaction() {
    return compaction;
  }

  public Compression compression() {
    return compression;
  }

  /**
   * Uncompressed size of the SSTable data chunks written from now on, in KiB (Cassandra's {@code
   * chunk_length_in_kb}; default {@value #DEFAULT_CHUNK_LENGTH_KB}). SSTables keep the size they
   * were written with.
   */
  public int chunkLengthKb() {
    return chunkLengthKb;
  }

  public double bloomFilterFpChance() {
    return bloomFilterFpChance;
  }

  /** A read scanning more tombstones than this logs a warning (default 1,000). */
  public int tombstoneWarnThreshold() {
    return tombstoneWarnThreshold;
  }

  /** A read scanning more tombstones than this fails (default 100,000). */
  public int tombstoneFailureThreshold() {
    return tombstoneFailureThreshold;
  }

  /**
   * Partition size warning threshold in bytes for this table: null means the engine default ({@link
   * TalusOptions#partitionSizeWarnBytes()}), 0 means off. See docs/guardrails.md for where it is
   * checked (SSTable writes: flush and compaction).
   */
  public Long partitionSizeWarnBytes() {
    return partitionSizeWarnBytes;
  }

  /**
   * Partition size failure threshold in bytes: null means the engine default ({@link
   * TalusOptions#partitionSizeFailBytes()}), 0 means off. Checked on every write against the
   * partition's estimated size (memtable-resident bytes plus the largest size an SSTable write of
   * this open recorded for it); a write that would cross it fails with {@link
   * GuardrailViolationException}.
   */
  public Long partitionSizeFailBytes() {
    return partitionSizeFailBytes;
  }

  /** Partition rows warning threshold: null means the engine default, 0 means off. */
  public Long partitionRowsWarn() {
    return partitionRowsWarn;
  }

  /** Partition rows failure threshold: null means the engine default, 0 means off. */
  public Long partitionRowsFail() {
    return partitionRowsFail;
  }

  /**
   * Data-model warnings about this schema (a list to read, never an error): see {@link
   * SchemaLint#check(TableSchema)} for the rules. Empty when nothing looks wrong.
   */
  public List<String> lint() {
    return SchemaLint.check(this);
  }

  /** A copy of this schema with another compaction strategy. */
  public TableSchema withCompaction(CompactionOptions options) {
    return toBuilder().compaction(options).build();
  }

  /** A builder holding everything in this schema. */
  public Builder toBuilder() {
    Builder b = new Builder(name).keyspace(keyspace);
    for (ColumnDef c : columns()) {
      switch (c.kind()) {
        case PARTITION_KEY -> b.partitionKey(c.name(), c.type());
        case CLUSTERING -> b.clusteringColumn(c.name(), c.type(), c.order());
        case REGULAR -> b.column(c.name(), c.type());
        case STATIC -> b.staticColumn(c.name(), c.type());
      }
    }
    return b.defaultTimeToLive(defaultTimeToLive)
        .gcGrace(gcGrace)
        .compaction(compaction)
        .compression(compression)
        .chunkLengthKb(chunkLengthKb)
        .bloomFilterFpChance(bloomFilterFpChance)
        .tombstoneThresholds(tombstoneWarnThreshold, tombstoneFailureThreshold)
        .partitionSizeThresholds(partitionSizeWarnBytes, partitionSizeFailBytes)
        .partitionRowsThresholds(partitionRowsWarn, partitionRowsFail);
  }

  /**
   * Equal when the definitions are: name, columns and options. The keyspace takes no part (it says
   * where a table lives, not what it is), so the schema a table was created from equals {@link
   * Table#schema()} whether or not it named the keyspace.
   */
  @Override
  public boolean equals(Object o) {
    return o instanceof TableSchema t && t.toString().equals(toString());
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }

  /** Everything but the keyspace (see {@link #keyspace()}), for logs and messages. */
  @Override
  public String toString() {
    return "TableSchema{"
        + name
        + ", partitionKey="
        + partitionKey
        + ", clustering="
        + clustering
        + ", columns="
        + nonKey
        + ", defaultTimeToLive="
        + defaultTimeToLive
        + ", gcGrace="
        + gcGrace
        + ", compaction="
        + compaction
        + ", compression="
        + compression
        + ", chunkLengthKb="
        + chunkLengthKb
        + ", bloomFilterFpChance="
        + bloomFilterFpChance
        + ", tombstoneThresholds="
        + tombstoneWarnThreshold
        + "/"
        + tombstoneFailureThreshold
        + ", partitionSizeThresholds="
        + partitionSizeWarnBytes
        + "/"
        + partitionSizeFailBytes
        + ", partitionRowsThresholds="
        + partitionRowsWarn
        + "/"
        + partitionRowsFail
        + "}";
  }

  /** Collects a schema. Not thread-safe. */
  public static final class Builder {
    private final String name;
    private String keyspace;
    private final List<ColumnDef> pk = new ArrayList<>();
    private final List<ColumnDef> ck = new ArrayList<>();
    private final List<ColumnDef> nonKey = new ArrayList<>();
    private Duration defaultTimeToLive = Duration.ZERO;
    private Duration gcGrace = Duration.ofDays(10);
    private CompactionOptions compaction = CompactionOptions.defaults();
    private Compression compression = Compression.LZ4;
    private int chunkLengthKb = DEFAULT_CHUNK_LENGTH_KB;
    private double bloomFilterFpChance = 0.01;
    private int tombstoneWarnThreshold = 1_000;
    private int tombstoneFailureThreshold = 100_000;
    private Long partitionSizeWarnBytes;
    private Long partitionSizeFailBytes;
    private Long partitionRowsWarn;
    private Long partitionRowsFail;

    private Builder(String name) {
      this.name = name;
    }

    /**
     * The keyspace of the table (default: none, meaning the database's default keyspace). The
     * keyspace must exist when the table is created, unless it is the default one.
     */
    public Builder keyspace(String keyspaceName) {
      this.keyspace = keyspaceName;
      return this;
    }

    /** Adds a partition key column; several make a composite partition key, in this order. */
    public Builder partitionKey(String column, DataType type) {
      pk.add(new ColumnDef(column, type, ColumnDef.Kind.PARTITION_KEY, ClusteringOrder.ASC));
      return this;
    }

    /** Adds a clustering column in ascending order. */
    public Builder clusteringColumn(String column, DataType type) {
      return clusteringColumn(column, type, ClusteringOrder.ASC);
    }

    /** Adds a clustering column; rows are stored in this order within a partition. */
    public Builder clusteringColumn(String column, DataType type, ClusteringOrder order) {
      ck.add(new ColumnDef(column, type, ColumnDef.Kind.CLUSTERING, order));
      return this;
    }

    /** Adds a regular column. */
    public Builder column(String column, DataType type) {
      nonKey.add(new ColumnDef(column, type, ColumnDef.Kind.REGULAR, ClusteringOrder.ASC));
      return this;
    }

    /**
     * Adds a static column: one value per partition, shared by all its rows, written with or
     * without a clustering key. Row and range deletions leave it alone; a partition deletion
     * deletes it. Only a table with clustering columns can have static columns.
     */
    public Builder staticColumn(String column, DataType type) {
      nonKey.add(new ColumnDef(column, type, ColumnDef.Kind.STATIC, ClusteringOrder.ASC));
      return this;
    }

    public Builder defaultTimeToLive(Duration ttl) {
      this.defaultTimeToLive = Objects.requireNonNull(ttl, "ttl");
      return this;
    }

    public Builder gcGrace(Duration grace) {
      this.gcGrace = Objects.requireNonNull(grace, "grace");
      return this;
    }

    public Builder compaction(CompactionOptions options) {
      this.compaction = Objects.requireNonNull(options, "options");
      return this;
    }

    public Builder compression(Compression compression) {
      this.compression = Objects.requireNonNull(compression, "compression");
      return this;
    }

    /**
     * Uncompressed SSTable chunk size in KiB, a power of two from 1 to 1,024 (default {@value
     * #DEFAULT_CHUNK_LENGTH_KB}); 4 suits point reads of data larger than the chunk cache.
     */
    public Builder chunkLengthKb(int kib) {
      this.chunkLengthKb = kib;
      return this;
    }

    /** Bloom filter false-positive chance in (0, 1]; 1.0 disables the filter. */
    public Builder bloomFilterFpChance(double chance) {
      this.bloomFilterFpChance = chance;
      return this;
    }

    public Builder tombstoneThresholds(int warn, int fail) {
      this.tombstoneWarnThreshold = warn;
      this.tombstoneFailureThreshold = fail;
      return this;
    }

    /**
     * Partition size guardrail for this table, in bytes: null takes the engine default ({@link
     * TalusOptions}), 0 turns the threshold off. When both are positive, warn must not exceed fail.
     */
    public Builder partitionSizeThresholds(Long warnBytes, Long failBytes) {
      this.partitionSizeWarnBytes = warnBytes;
      this.partitionSizeFailBytes = failBytes;
      return this;
    }

    /**
     * Partition rows guardrail for this table: null takes the engine default ({@link
     * TalusOptions}), 0 turns the threshold off. When both are positive, warn must not exceed fail.
     */
    public Builder partitionRowsThresholds(Long warnRows, Long failRows) {
      this.partitionRowsWarn = warnRows;
      this.partitionRowsFail = failRows;
      return this;
    }

    public TableSchema build() {
      if (!isValidName(name)) {
        throw new InvalidSchemaException(
            "invalid table name '"
                + name
                + "': use 1 to 48 letters, digits or underscores (no paths, no dots)");
      }
      if (keyspace != null && !isValidName(keyspace)) {
        throw new InvalidSchemaException(
            "invalid keyspace name '"
                + keyspace
                + "' for table "
                + name
                + ": use 1 to 48 letters, digits or underscores");
      }
      if (pk.isEmpty()) {
        throw new InvalidSchemaException(
            "table " + name + " has no partition key: add at least one partitionKey(...) column");
      }
      java.util.Set<String> seen = new java.util.HashSet<>();
      for (ColumnDef c : columns(pk, ck, nonKey)) {
        if (!isValidName(c.name())) {
          throw new InvalidSchemaException(
              "invalid column name '"
                  + c.name()
                  + "' in table "
                  + name
                  + ": use 1 to 48 letters, digits or underscores");
        }
        if (!seen.add(c.name())) {
          throw new InvalidSchemaException(
              "column " + c.name() + " is declared twice in table " + name);
        }
        if (c.isPrimaryKey() && !c.type().canBeKey()) {
          throw new InvalidSchemaException(SchemaRules.notAKey(name, c));
        }
      }
      SchemaRules.checkValueKinds(name, ck, nonKey, defaultTimeToLive);
      SchemaRules.checkTimes(defaultTimeToLive, gcGrace);
      SchemaRules.checkStorage(chunkLengthKb, bloomFilterFpChance);
      if (tombstoneWarnThreshold < 1 || tombstoneFailureThreshold < tombstoneWarnThreshold) {
        throw new InvalidSchemaException(
            "tombstone thresholds need 1 <= warn <= fail, got warn="
                + tombstoneWarnThreshold
                + ", fail="
                + tombstoneFailureThreshold);
      }
      SchemaRules.checkGuardrail(
          "partitionSizeThresholds", partitionSizeWarnBytes, partitionSizeFailBytes);
      SchemaRules.checkGuardrail("partitionRowsThresholds", partitionRowsWarn, partitionRowsFail);
      return new TableSchema(this, pk, ck, nonKey);
    }
  }
}
