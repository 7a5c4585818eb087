package dev.talus;

import java.util.List;

/**
 * What one source (a memtable or an SSTable) holds for one partition, exactly as stored: live data,
 * tombstones and data they shadow, before any merge — like {@code sstabledump} for one partition.
 * For inspecting tombstone and TTL behaviour in tests. Immutable.
 *
 * @param source "memtable", "memtable (flushing)" or "sstable N" (N its generation)
 * @param sstableGeneration the SSTable generation, or -1 for a memtable
 * @param partitionDeletion the partition deletion, or null
 * @param rangeTombstones range deletions, in clustering order
 * @param rows rows in clustering order, with every cell version this source holds
 */
public record StoredPartition(
    String source,
    long sstableGeneration,
    Deletion partitionDeletion,
    List<RangeDeletion> rangeTombstones,
    List<StoredRow> rows) {
  public StoredPartition {
    rangeTombstones = List.copyOf(rangeTombstones);
    rows = List.copyOf(rows);
  }

  /** A deletion: shadows data written at or before {@code timestampMicros}. */
  public record Deletion(long timestampMicros, long localDeletionTimeSeconds) {}

  /** A range tombstone; bounds are described as text, e.g. {@code "c1 = 3, c2 >= 'b'"}. */
  public record RangeDeletion(String start, String end, Deletion deletion) {}

  /**
   * One stored row.
   *
   * @param clustering the clustering column values (empty for the static row)
   * @param markerTimestampMicros the row marker's timestamp (INSERT), or null if none
   * @param markerExpirySeconds when the row marker expires, or null if it does not
   * @param rowDeletion the row deletion, or null
   * @param cells every stored cell, tombstones included
   * @param isStatic true for the partition's static row (its static columns)
   * @param collectionDeletions deletions of whole collections and user types (an overwrite leaves
   *     one behind at its timestamp − 1), by column
   */
  public record StoredRow(
      List<Object> clustering,
      Long markerTimestampMicros,
      Long markerExpirySeconds,
      Deletion rowDeletion,
      List<StoredCell> cells,
      boolean isStatic,
      List<CollectionDeletion> collectionDeletions) {
    public StoredRow {
      clustering = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(clustering));
      cells = List.copyOf(cells);
      collectionDeletions = List.copyOf(collectionDeletions);
    }

    /** A clustering row without collection deletions. */
    public StoredRow(
        List<Object> clustering,
        Long markerTimestampMicros,
        Long markerExpirySeconds,
        Deletion rowDeletion,
        List<StoredCell> cells) {
      this(
          clustering,
          markerTimestampMicros,
          markerExpirySeconds,
          rowDeletion,
          cells,
          false,
          List.of());
    }
  }

  /** The deletion of a whole collection or user-type column in one row. */
  public record CollectionDeletion(String column, Deletion deletion) {}

  /** What a stored cell is. */
  public enum CellKind {
    LIVE,
    EXPIRING,
    TOMBSTONE
  }

  /**
   * One stored cell.
   *
   * @param column the column name
   * @param value the value (null for a tombstone; null for a set element, whose cell has none)
   * @param timestampMicros its write timestamp
   * @param ttlSeconds its TTL (0 if none)
   * @param localDeletionTimeSeconds expiry (EXPIRING) or deletion time (TOMBSTONE); null if LIVE
   * @param kind live, expiring or tombstone
   * @param element for an element of a non-frozen collection or user type, the element its path
   *     names (a set element, a map key, a list element's timeuuid, a field name); null otherwise
   */
  public record StoredCell(
      String column,
      Object value,
      long timestampMicros,
      int ttlSeconds,
      Long localDeletionTimeSeconds,
      CellKind kind,
      Object element) {
    /** A cell of a simple column. */
    public StoredCell(
        String column,
        Object value,
        long timestampMicros,
        int ttlSeconds,
        Long localDeletionTimeSeconds,
        CellKind kind) {
      this(column, value, timestampMicros, ttlSeconds, localDeletionTimeSeconds, kind, null);
    }
  }
}
