package dev.talus.testkit;

import dev.talus.StoredPartition;
import dev.talus.StoredPartition.CellKind;
import dev.talus.StoredPartition.Deletion;
import dev.talus.StoredPartition.RangeDeletion;
import dev.talus.StoredPartition.StoredCell;
import dev.talus.StoredPartition.StoredRow;
import java.util.ArrayList;
import java.util.List;

/**
 * One tombstone or piece of expired data as it sits in one source (memtable or SSTable), with the
 * second from which the purge rule's gc_grace half lets a compaction drop it. Immutable.
 *
 * @param source "memtable", "sstable 3", ... as {@link StoredPartition#source()} says
 * @param sstableGeneration the SSTable generation, -1 for a memtable
 * @param kind what it is
 * @param where the clustering it applies to, or the range, or "" for the partition
 * @param column the column of a cell or of a collection tombstone, or null
 * @param element for an element cell of a non-frozen collection or user type, the element its path
 *     names (set element, map key, list element's timeuuid, field name) as text; else null
 * @param timestampMicros the write timestamp (what it shadows: data written at or before it)
 * @param deletedAtSeconds its local deletion time: when the delete ran; for an expired cell its
 *     write second (expiry − TTL), for an expired row marker its expiry
 * @param expiredAtSeconds for expired TTL data, when it expired; else equal to deletedAtSeconds
 * @param purgeableFromSeconds the first second at which gc_grace no longer protects it
 */
public record StoredTombstone(
    String source,
    long sstableGeneration,
    Kind kind,
    String where,
    String column,
    String element,
    long timestampMicros,
    long deletedAtSeconds,
    long expiredAtSeconds,
    long purgeableFromSeconds) {

  /** The kinds of tombstone and expired data of docs/tombstones.md. */
  public enum Kind {
    PARTITION_DELETION("partition deletion"),
    RANGE_TOMBSTONE("range tombstone"),
    ROW_DELETION("row deletion"),
    /**
     * The deletion of a whole non-frozen collection or user type in one row: left by deleting the
     * column, and by every write that replaces its whole value (an INSERT included), at that
     * write's timestamp − 1, as in Cassandra.
     */
    COLLECTION_TOMBSTONE("collection tombstone"),
    /** A deleted cell; for a collection, one deleted element (a removed set element or map key). */
    CELL_TOMBSTONE("cell tombstone"),
    EXPIRED_CELL("expired TTL cell"),
    EXPIRED_ROW_MARKER("expired row marker");

    private final String text;

    Kind(String text) {
      this.text = text;
    }

    @Override
    public String toString() {
      return text;
    }
  }

  public boolean inMemtable() {
    return sstableGeneration < 0;
  }

  /**
   * A short description such as {@code "row deletion (seq=3)"} or {@code "cell tombstone tags['a']
   * (seq=3)"}.
   */
  public String describe() {
    StringBuilder b = new StringBuilder(kind.toString());
    if (column != null) {
      b.append(' ').append(column);
    }
    if (element != null) {
      b.append('[').append(element).append(']');
    }
    if (!where.isEmpty()) {
      b.append(" (").append(where).append(')');
    }
    return b.toString();
  }

  /**
   * Every tombstone and piece of expired data in {@code partition} at {@code nowSeconds}, for a
   * table with {@code gcGraceSeconds}.
   */
  static List<StoredTombstone> of(
      StoredPartition p, List<String> clusteringNames, long nowSeconds, long gcGraceSeconds) {
    List<StoredTombstone> out = new ArrayList<>();
    Deletion pd = p.partitionDeletion();
    if (pd != null) {
      out.add(deletion(p, Kind.PARTITION_DELETION, "", pd, gcGraceSeconds));
    }
    for (RangeDeletion rt : p.rangeTombstones()) {
      out.add(
          deletion(
              p,
              Kind.RANGE_TOMBSTONE,
              "from " + rt.start() + " to " + rt.end(),
              rt.deletion(),
              gcGraceSeconds));
    }
    for (StoredRow r : p.rows()) {
      String where = clustering(clusteringNames, r.clustering());
      if (r.rowDeletion() != null) {
        out.add(deletion(p, Kind.ROW_DELETION, where, r.rowDeletion(), gcGraceSeconds));
      }
      for (StoredPartition.CollectionDeletion cd : r.collectionDeletions()) {
        Deletion d = cd.deletion();
        out.add(
            new StoredTombstone(
                p.source(),
                p.sstableGeneration(),
                Kind.COLLECTION_TOMBSTONE,
                where,
                cd.column(),
                null,
                d.timestampMicros(),
                d.localDeletionTimeSeconds(),
                d.localDeletionTimeSeconds(),
                d.localDeletionTimeSeconds() + gcGraceSeconds + 1));
      }
      Long markerExpiry = r.markerExpirySeconds();
      if (r.markerTimestampMicros() != null && markerExpiry != null && markerExpiry <= nowSeconds) {
        out.add(
            new StoredTombstone(
                p.source(),
                p.sstableGeneration(),
                Kind.EXPIRED_ROW_MARKER,
                where,
                null,
                null,
                r.markerTimestampMicros(),
                markerExpiry,
                markerExpiry,
                markerExpiry + gcGraceSeconds + 1));
      }
      for (StoredCell c : r.cells()) {
        if (c.kind() == CellKind.TOMBSTONE) {
          long ldt = c.localDeletionTimeSeconds();
          out.add(
              new StoredTombstone(
                  p.source(),
                  p.sstableGeneration(),
                  Kind.CELL_TOMBSTONE,
                  where,
                  c.column(),
                  element(c),
                  c.timestampMicros(),
                  ldt,
                  ldt,
                  ldt + gcGraceSeconds + 1));
        } else if (c.kind() == CellKind.EXPIRING && c.localDeletionTimeSeconds() <= nowSeconds) {
          long expiry = c.localDeletionTimeSeconds();
          long written = expiry - c.ttlSeconds();
          out.add(
              new StoredTombstone(
                  p.source(),
                  p.sstableGeneration(),
                  Kind.EXPIRED_CELL,
                  where,
                  c.column(),
                  element(c),
                  c.timestampMicros(),
                  written,
                  expiry,
                  Math.max(expiry, written + gcGraceSeconds + 1)));
        }
      }
    }
    return out;
  }

  private static StoredTombstone deletion(
      StoredPartition p, Kind kind, String where, Deletion d, long gcGraceSeconds) {
    return new StoredTombstone(
        p.source(),
        p.sstableGeneration(),
        kind,
        where,
        null,
        null,
        d.timestampMicros(),
        d.localDeletionTimeSeconds(),
        d.localDeletionTimeSeconds(),
        d.localDeletionTimeSeconds() + gcGraceSeconds + 1);
  }

  /** An element cell's element as text (text values quoted, as in CQL), or null. */
  static String element(StoredCell c) {
    Object e = c.element();
    if (e == null) {
      return null;
    }
    return e instanceof CharSequence ? "'" + e + "'" : String.valueOf(e);
  }

  static String clustering(List<String> names, List<Object> values) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        b.append(", ");
      }
      b.append(i < names.size() ? names.get(i) : "c" + i).append('=').append(values.get(i));
    }
    return b.toString();
  }
}
