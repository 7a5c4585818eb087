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
 * <p>A cell of a <em>complex</em> column (a non-frozen collection or user type, where every element
 * is its own cell) carries a <b>path</b>: the byte-comparable key of its element (a set element, a
 * map key, a list position, a field number). Cells of one row are ordered by column, then path
 * (unsigned bytes); a simple column has one cell and no path ({@code path() == null}), so scalar
 * cells pay nothing for paths.
 *
 * <p>A <b>counter</b> cell holds a counter's running total. It reconciles like any cell (last write
 * wins): the engine writes each new total under a per-counter lock with a timestamp above the one
 * it read, so the latest total always wins and replaying a logged total twice changes nothing. The
 * flag only says what the value means (for inspection); a deleted counter staying deleted is the
 * write path's rule, not reconciliation's, so the merge stays independent of source order.
 *
 * <p>Immutable and thread-safe; the value and path arrays are owned by the cell and never modified.
 */
public final class Cell {
  public static final long NO_DELETION_TIME = Long.MAX_VALUE;
  public static final byte[] EMPTY = new byte[0];

  private final int column;
  private final long timestamp;
  private final int ttl;
  private final long localDeletionTime;
  private final byte[] value;
  private final byte[] path;
  private final boolean counter;

  /** A simple (path-less, non-counter) cell. */
  public Cell(int column, long timestamp, int ttl, long localDeletionTime, byte[] value) {
    this(column, null, timestamp, ttl, localDeletionTime, value, false);
  }

  /**
   * Any cell. {@code path} is null for a simple column; {@code counter} marks a counter's total.
   */
  public Cell(
      int column,
      byte[] path,
      long timestamp,
      int ttl,
      long localDeletionTime,
      byte[] value,
      boolean counter) {
    this.column = column;
    this.path = path;
    this.timestamp = timestamp;
    this.ttl = ttl;
    this.localDeletionTime = localDeletionTime;
    this.value = value;
    this.counter = counter;
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

  /** An element cell of a complex column: live, or expiring when {@code ttl > 0}. */
  public static Cell element(
      int column, byte[] path, long timestamp, int ttl, long nowSec, byte[] value) {
    return ttl > 0
        ? new Cell(column, path, timestamp, ttl, nowSec + ttl, value, false)
        : new Cell(column, path, timestamp, 0, NO_DELETION_TIME, value, false);
  }

  /** The tombstone of one element of a complex column. */
  public static Cell elementTombstone(int column, byte[] path, long timestamp, long nowSec) {
    return new Cell(column, path, timestamp, 0, nowSec, EMPTY, false);
  }

  /** A counter's running total. */
  public static Cell counter(int column, long timestamp, byte[] total) {
    return new Cell(column, null, timestamp, 0, NO_DELETION_TIME, total, true);
  }

  /** The tombstone of a deleted counter. */
  public static Cell counterTombstone(int column, long timestamp, long nowSec) {
    return new Cell(column, null, timestamp, 0, nowSec, EMPTY, true);
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

  /** The element path of a complex column's cell, or null for a simple column's cell. */
  public byte[] path() {
    return path;
  }

  public boolean hasPath() {
    return path != null;
  }

  public boolean isCounter() {
    return counter;
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
    return new Cell(column, path, timestamp, 0, localDeletionTime - ttl, EMPTY, counter);
  }

  /** Orders cells of one row: by column, then by path (a simple cell has none and comes first). */
  public static int compareKeys(Cell a, Cell b) {
    int c = Integer.compare(a.column, b.column);
    if (c != 0 || a.path == b.path) {
      return c;
    }
    if (a.path == null || b.path == null) {
      return a.path == null ? -1 : 1;
    }
    return Arrays.compareUnsigned(a.path, b.path);
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
    return 56L + value.length + (path == null ? 0 : 16L + path.length);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Cell c
        && c.column == column
        && c.timestamp == timestamp
        && c.ttl == ttl
        && c.localDeletionTime == localDeletionTime
        && c.counter == counter
        && Arrays.equals(c.value, value)
        && Arrays.equals(c.path, path);
  }

  @Override
  public int hashCode() {
    return ((column * 31 + Long.hashCode(timestamp)) * 31 + Arrays.hashCode(value)) * 31
        + Arrays.hashCode(path);
  }

  @Override
  public String toString() {
    String kind = isTombstone() ? "tombstone" : isExpiring() ? "expiring" : "live";
    return "Cell{col="
        + column
        + (path != null ? ", path=" + java.util.HexFormat.of().formatHex(path) : "")
        + (counter ? ", counter" : "")
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
