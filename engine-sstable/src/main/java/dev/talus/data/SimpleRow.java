package dev.talus.data;

import java.util.Arrays;

/**
 * One row as a {@link RowVisitor} sees it when it is simple: its clustering and cells are ranges of
 * a byte array owned by the source. Reused from row to row; not thread-safe.
 */
public final class SimpleRow {
  private byte[] bytes;
  private int clusteringFrom;
  private int clusteringLength;
  private long markerTimestamp;
  private boolean marker;
  private static final int[] NO_INTS = {};
  private static final long[] NO_LONGS = {};

  private int cells;
  private int[] columns = NO_INTS;
  private long[] timestamps = NO_LONGS;
  private int[] valueFrom = NO_INTS;
  private int[] valueLength = NO_INTS;

  /** Starts a row whose clustering is {@code bytes[from..from+length)}. */
  public void start(byte[] bytes, int from, int length) {
    this.bytes = bytes;
    this.clusteringFrom = from;
    this.clusteringLength = length;
    this.marker = false;
    this.cells = 0;
  }

  public void marker(long timestamp) {
    this.marker = true;
    this.markerTimestamp = timestamp;
  }

  /**
   * Makes room for {@code n} cells in all: a parser that knows the row's cell count before its
   * cells calls it after {@link #start}, so a wide row costs one resize, not a doubling after every
   * eighth cell. The room is kept for the next rows.
   */
  public void reserve(int n) {
    if (n > columns.length) {
      grow(n);
    }
  }

  /** Adds a live cell of {@code column} whose value is {@code bytes[from..from+length)}. */
  public void cell(int column, long timestamp, int from, int length) {
    if (cells == columns.length) {
      grow(Math.max(8, cells * 2));
    }
    columns[cells] = column;
    timestamps[cells] = timestamp;
    valueFrom[cells] = from;
    valueLength[cells] = length;
    cells++;
  }

  private void grow(int n) {
    columns = Arrays.copyOf(columns, n);
    timestamps = Arrays.copyOf(timestamps, n);
    valueFrom = Arrays.copyOf(valueFrom, n);
    valueLength = Arrays.copyOf(valueLength, n);
  }

  /** A copy of the clustering, as {@link Row#clustering()} holds it. */
  public byte[] clustering() {
    return Arrays.copyOfRange(bytes, clusteringFrom, clusteringFrom + clusteringLength);
  }

  public boolean hasMarker() {
    return marker;
  }

  public long markerTimestamp() {
    return markerTimestamp;
  }

  public int cellCount() {
    return cells;
  }

  /** The index of the cell of {@code column}, or -1 (cells come in column order). */
  public int cellOf(int column) {
    for (int i = 0; i < cells; i++) {
      if (columns[i] == column) {
        return i;
      }
    }
    return -1;
  }

  public int column(int cell) {
    return columns[cell];
  }

  public long timestamp(int cell) {
    return timestamps[cell];
  }

  /** A copy of cell {@code cell}'s value. */
  public byte[] value(int cell) {
    int from = valueFrom[cell];
    return from < 0 ? Cell.EMPTY : Arrays.copyOfRange(bytes, from, from + valueLength[cell]);
  }

  /** True if the row has data that is live: a marker or a cell (simple cells never expire). */
  public boolean isLive() {
    return marker || cells > 0;
  }
}
