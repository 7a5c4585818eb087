package dev.talus.data;

import java.util.Arrays;

/**
 * One column value of one row, with its history: the write timestamp (microseconds by convention),
 * an optional TTL (seconds) and a local deletion time (seconds since the epoch).
 *
 * <ul>
 *   <li>live cell: {@code ttl == 0}, {@code localDeletionTime == NO_DELETION_TIME};
 *   <li>expiring cell: {@code ttl > 0}, {@code localDeletionTime} is its expiry time;
 *   <li>tombstone: {@code ttl == 0}, {@code localDeletionTime} is when it was deleted, no value.
 * </ul>
 *
 * <p>Immutable and thread-safe; the value array is owned by the cell and never modified.
 */
public final class Cell {
  public static final long NO_DELETION_TIME = Long.MAX_VALUE;
  public static final byte[] EMPTY = new byte[0];

  private final int column;
  private final long timestamp;
  private final int ttl;
  private final long localDeletionTime;
  private final byte[] value;

  public Cell(int column, long timestamp, int ttl, long localDeletionTime, byte[] value) {
    this.column = column;
    this.timestamp = timestamp;
    this.ttl = ttl;
    this.localDeletionTime = localDeletionTime;
    this.value = value;
  }

  public static Cell live(int column, long timestamp, byte[] value) {
    return new Cell(column, timestamp, 0, NO_DELETION_TIME, value);
  }

  public static Cell expiring(int column, long timestamp, int ttl, long nowSec, byte[] value) {
    return new Cell(column, timestamp, ttl, nowSec + ttl, value);
  }

  public static Cell tombstone(int column, long timestamp, long nowSec) {
    return new Cell(column, timestamp, 0, nowSec, EMPTY);
  }

  public int column() {
    return column;
  }

  public long timestamp() {
    return timestamp;
  }

  public int ttl() {
    return ttl;
  }

  public long localDeletionTime() {
    return localDeletionTime;
  }

  public byte[] value() {
    return value;
  }

  public boolean isTombstone() {
    return ttl == 0 && localDeletionTime != NO_DELETION_TIME;
  }

  public boolean isExpiring() {
    return ttl > 0;
  }

  /** Live at {@code nowSec}: an expiring cell dies at exactly its expiry second. */
  public boolean isLive(long nowSec) {
    return localDeletionTime == NO_DELETION_TIME || (ttl > 0 && nowSec < localDeletionTime);
  }

  /**
   * An expired expiring cell turned into the tombstone that stands for it: deleted at its write
   * time (expiry − ttl), so it becomes purgeable gc_grace after it was written, not after it
   * expired — Cassandra's rule, which lets TTL data with ttl ≥ gc_grace go at once.
   */
  public Cell asTombstone() {
    return new Cell(column, timestamp, 0, localDeletionTime - ttl, EMPTY);
  }

  /**
   * Last-write-wins with Cassandra's deterministic tie-breaks: higher timestamp; then a cell with a
   * deletion time (tombstone or expiring) over a plain live cell; then a tombstone over an expiring
   * cell; then the later deletion time; then the smaller TTL; then the greater value.
   */
  public static Cell reconcile(Cell a, Cell b) {
    if (a.timestamp != b.timestamp) {
      return a.timestamp > b.timestamp ? a : b;
    }
    boolean aHas = a.localDeletionTime != NO_DELETION_TIME;
    boolean bHas = b.localDeletionTime != NO_DELETION_TIME;
    if (aHas != bHas) {
      return aHas ? a : b;
    }
    if (aHas) {
      boolean aTomb = a.ttl == 0;
      boolean bTomb = b.ttl == 0;
      if (aTomb != bTomb) {
        return aTomb ? a : b;
      }
      if (a.localDeletionTime != b.localDeletionTime) {
        return a.localDeletionTime > b.localDeletionTime ? a : b;
      }
      if (a.ttl != b.ttl) {
        return a.ttl < b.ttl ? a : b;
      }
    }
    return Arrays.compareUnsigned(a.value, b.value) >= 0 ? a : b;
  }

  /** Approximate heap footprint, for memtable accounting. */
  public long heapSize() {
    return 56L + value.length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Cell c
        && c.column == column
        && c.timestamp == timestamp
        && c.ttl == ttl
        && c.localDeletionTime == localDeletionTime
        && Arrays.equals(c.value, value);
  }

  @Override
  public int hashCode() {
    return (column * 31 + Long.hashCode(timestamp)) * 31 + Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    String kind = isTombstone() ? "tombstone" : isExpiring() ? "expiring" : "live";
    return "Cell{col="
        + column
        + ", "
        + kind
        + ", ts="
        + timestamp
        + (ttl > 0 ? ", ttl=" + ttl : "")
        + (localDeletionTime != NO_DELETION_TIME ? ", ldt=" + localDeletionTime : "")
        + ", len="
        + value.length
        + "}";
  }
}
