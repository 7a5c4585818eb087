package dev.talus;

/** The range checks of {@link TalusOptions.Builder#build()}. Stateless. */
final class OptionChecks {
  private OptionChecks() {}

  static void check(TalusOptions o) {
    if (!TableSchema.isValidName(o.defaultKeyspace())
        || KeyspaceSchema.isReserved(o.defaultKeyspace())) {
      throw new InvalidSchemaException(
          "defaultKeyspace must be 1 to 48 letters, digits or underscores and not a system"
              + " keyspace, got '"
              + o.defaultKeyspace()
              + "'");
    }
    if (o.commitLogTotalSpaceBytes() < o.commitLogSegmentBytes()) {
      throw new InvalidSchemaException(
          "commitLogTotalSpaceBytes must be at least one segment ("
              + o.commitLogSegmentBytes()
              + " bytes), got "
              + o.commitLogTotalSpaceBytes());
    }
    SchemaRules.checkGuardrail(
        "partitionSizeThresholds", o.partitionSizeWarnBytes(), o.partitionSizeFailBytes());
    SchemaRules.checkGuardrail(
        "partitionRowsThresholds", o.partitionRowsWarn(), o.partitionRowsFail());
    if (o.commitLogSegmentBytes() < 64 << 10 || o.commitLogSegmentBytes() > 1 << 30) {
      throw new InvalidSchemaException(
          "commitLogSegmentBytes must be between 64 KiB and 1 GiB, got "
              + o.commitLogSegmentBytes());
    }
    if (o.commitLogSyncPeriod().isNegative()
        || o.commitLogSyncPeriod().isZero()
        || o.commitLogGroupWindow().isNegative()) {
      throw new InvalidSchemaException(
          "commitLogSyncPeriod must be positive and commitLogGroupWindow not negative");
    }
    if (o.compactionThreads() < 1) {
      throw new InvalidSchemaException(
          "compactionThreads must be at least 1, got " + o.compactionThreads());
    }
    if (!(o.compactionThroughputMibPerSec() >= 0)) {
      throw new InvalidSchemaException(
          "compactionThroughputMibPerSec must be >= 0, got " + o.compactionThroughputMibPerSec());
    }
    if (o.indexWriteBufferBytes() < 1024) {
      throw new InvalidSchemaException(
          "indexWriteBufferBytes must be at least 1024 (1 KiB), got " + o.indexWriteBufferBytes());
    }
    if (o.chunkCacheBytes() < 0) {
      throw new InvalidSchemaException("chunkCacheBytes must not be negative");
    }
    if (o.writeStallTimeout().isNegative()) {
      throw new InvalidSchemaException("writeStallTimeout must not be negative");
    }
    if (o.writeTimeout().isNegative() || o.writeTimeout().isZero()) {
      throw new InvalidSchemaException("writeTimeout must be positive, got " + o.writeTimeout());
    }
    if (o.memtableSpaceBytes() < 1 << 20) {
      throw new InvalidSchemaException(
          "memtableSpaceBytes must be at least 1 MiB, got " + o.memtableSpaceBytes());
    }
    if (o.readThreads() < 1) {
      throw new InvalidSchemaException("readThreads must be at least 1, got " + o.readThreads());
    }
  }
}
