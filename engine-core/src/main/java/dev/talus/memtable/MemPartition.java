package dev.talus.memtable;

import dev.talus.data.DeletionTime;
import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.data.RowVisitor;
import dev.talus.data.Slice;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/**
 * One partition in a memtable. Rows are held encoded ({@link RowCodec}) in chunks of consecutive
 * rows ({@link RowChunk}, {@link RowChunks}). Writers of rows take turns on the partition's monitor
 * (each row is replaced atomically by its reconciled version); readers take no lock and read a
 * weakly consistent view, which is fine because every version they might see is a reconciled state
 * that was once current. Every write reports the heap bytes it added or freed ({@link HeapLayout}),
 * counted once even when concurrent writers retry.
 *
 * <p>Thread-safe.
 */
public final class MemPartition implements PartitionData {
  private static final RangeTombstone[] NO_RANGE_TOMBSTONES = new RangeTombstone[0];
  private static final VarHandle DELETION;
  private static final VarHandle TOMBSTONES;
  private static final VarHandle MAX_TS;
  private static final VarHandle ESTIMATED;

  static {
    try {
      MethodHandles.Lookup l = MethodHandles.lookup();
      DELETION = l.findVarHandle(MemPartition.class, "partitionDeletion", DeletionTime.class);
      TOMBSTONES = l.findVarHandle(MemPartition.class, "rangeTombstones", RangeTombstone[].class);
      MAX_TS = l.findVarHandle(MemPartition.class, "maxTimestamp", long.class);
      ESTIMATED = l.findVarHandle(MemPartition.class, "estimatedBytes", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** This object: four references (key, chunks, deletion, tombstones), two longs and an int. */
  static final long SELF = HeapLayout.object(4L * HeapLayout.REF + 16 + 4);

  private final PartitionKey key;

  /**
   * Runs of rows in clustering order ({@link RowChunks}): a write replaces one element, a split
   * publishes a new array.
   */
  private volatile RowChunk[] chunks = RowChunks.NONE;

  private volatile DeletionTime partitionDeletion = DeletionTime.LIVE;
  private volatile RangeTombstone[] rangeTombstones = NO_RANGE_TOMBSTONES;
  private volatile long maxTimestamp = Long.MIN_VALUE;
  private volatile long estimatedBytes;
  private volatile int rowCount;

  MemPartition(PartitionKey key) {
    this.key = key;
  }

  /**
   * Applies one update's parts; returns the heap bytes this partition grew by (may be negative).
   */
  long apply(DeletionTime deletion, List<RangeTombstone> rts, List<Row> newRows, long updateMaxTs) {
    // Raise the newest timestamp first: a concurrent read skips this source when its newest
    // timestamp is older than a partition deletion, and must not skip a write half applied.
    long ts;
    do {
      ts = maxTimestamp;
    } while (updateMaxTs > ts && !MAX_TS.compareAndSet(this, ts, updateMaxTs));
    long delta = 0;
    if (!deletion.isLive()) {
      delta += applyDeletion(deletion);
    }
    if (!rts.isEmpty()) {
      delta += addRangeTombstones(rts);
    }
    for (Row r : newRows) {
      delta += applyRow(r);
    }
    return delta;
  }

  private long applyDeletion(DeletionTime deletion) {
    for (; ; ) {
      DeletionTime old = partitionDeletion;
      DeletionTime winner = old.max(deletion);
      if (winner == old) {
        return 0;
      }
      if (DELETION.compareAndSet(this, old, winner)) {
        return HeapLayout.DELETION_TIME - (old == DeletionTime.LIVE ? 0 : HeapLayout.DELETION_TIME);
      }
    }
  }

  private long addRangeTombstones(List<RangeTombstone> rts) {
    for (; ; ) {
      RangeTombstone[] old = rangeTombstones;
      RangeTombstone[] next = Arrays.copyOf(old, old.length + rts.size());
      for (int i = 0; i < rts.size(); i++) {
        next[old.length + i] = rts.get(i);
      }
      if (TOMBSTONES.compareAndSet(this, old, next)) {
        long oldArray = old.length == 0 ? 0 : HeapLayout.refArray(old.length);
        return HeapLayout.refArray(next.length) - oldArray + tombstonesSize(next, old.length);
      }
    }
  }

  /**
   * The range tombstones from index {@code from} on: each with its bounds, and its deletion unless
   * the tombstone before it shares that deletion object (one update's tombstones usually do).
   */
  private static long tombstonesSize(RangeTombstone[] rts, int from) {
    long s = 0;
    for (int i = from; i < rts.length; i++) {
      RangeTombstone t = rts[i];
      s += HeapLayout.RANGE_TOMBSTONE;
      s += HeapLayout.byteArray(t.start().length) + HeapLayout.byteArray(t.end().length);
      if (t.deletion() != DeletionTime.LIVE && (i == 0 || rts[i - 1].deletion() != t.deletion())) {
        s += HeapLayout.DELETION_TIME;
      }
    }
    return s;
  }

  /** Writers of one partition take turns here; readers never wait. */
  private synchronized long applyRow(Row r) {
    byte[] clustering = r.clustering();
    RowChunk[] d = chunks;
    if (d.length == 0) {
      RowChunk first = RowChunk.of(r);
      chunks = new RowChunk[] {first};
      rowCount = 1;
      return HeapLayout.refArray(1) + first.heapSize();
    }
    int at = RowChunks.floor(d, clustering);
    RowChunk old = d[at];
    int i = old.search(clustering);
    RowChunk next;
    if (i >= 0) {
      next = old.replace(i, clustering, RowCodec.encode(Row.merge(old.row(i), r)));
    } else {
      next = old.insert(-i - 1, clustering, RowCodec.encode(r));
      rowCount++;
    }
    if (!next.full()) {
      RowChunks.set(d, at, next);
      return next.heapSize() - old.heapSize();
    }
    // Both halves are published at once, in a new array; a reader keeps the array it started on.
    int half = next.size() / 2;
    RowChunk lower = next.range(0, half);
    RowChunk upper = next.range(half, next.size());
    chunks = RowChunks.split(d, at, lower, upper);
    return HeapLayout.refArray(d.length + 1)
        - HeapLayout.refArray(d.length)
        + lower.heapSize()
        + upper.heapSize()
        - old.heapSize();
  }

  /** The heap this partition holds, recounted from its content (what the writes added up to). */
  long recount() {
    long s = SELF + HeapLayout.PARTITION_KEY + HeapLayout.byteArray(key.bytes().length);
    s += partitionDeletion == DeletionTime.LIVE ? 0 : HeapLayout.DELETION_TIME;
    RangeTombstone[] rts = rangeTombstones;
    if (rts.length > 0) {
      s += HeapLayout.refArray(rts.length) + tombstonesSize(rts, 0);
    }
    RowChunk[] d = chunks;
    s += d.length == 0 ? 0 : HeapLayout.refArray(d.length);
    for (RowChunk c : d) {
      s += c.heapSize();
    }
    return s;
  }

  @Override
  public PartitionKey key() {
    return key;
  }

  @Override
  public DeletionTime partitionDeletion() {
    return partitionDeletion;
  }

  @Override
  public List<RangeTombstone> rangeTombstones(Slice slice) {
    return allRangeTombstones();
  }

  /** Every range tombstone of this partition, in insertion order. */
  public List<RangeTombstone> allRangeTombstones() {
    RangeTombstone[] rts = rangeTombstones;
    return rts.length == 0 ? List.of() : Collections.unmodifiableList(Arrays.asList(rts));
  }

  @Override
  public Iterator<Row> rows(Slice slice, boolean reversed) {
    return new ChunkRows(chunks, slice, reversed);
  }

  /**
   * Streams the rows of {@code slice} to {@code visitor} from the chunks' bytes: simple rows and
   * bare row deletions without building {@link Row}s ({@link ChunkRows#visit}); refused (false)
   * when the partition is deleted or a range tombstone meets the slice, as an SSTable partition
   * refuses.
   */
  @Override
  public boolean visit(Slice slice, RowVisitor visitor) {
    if (!partitionDeletion.isLive()) {
      return false;
    }
    for (RangeTombstone t : rangeTombstones) {
      if (slice.intersects(t.start(), t.end())) {
        return false;
      }
    }
    new ChunkRows(chunks, slice, false).visit(visitor);
    return true;
  }

  /**
   * Heap-size estimate of every update applied to this partition (overwrites count again); what the
   * partition size guardrail checks writes against.
   */
  public long estimatedBytes() {
    return estimatedBytes;
  }

  void addEstimatedBytes(long bytes) {
    ESTIMATED.getAndAdd(this, bytes);
  }

  /** The row (live or deleted) at {@code clustering}, decoded, or null. */
  public Row row(byte[] clustering) {
    RowChunk[] d = chunks;
    if (d.length == 0) {
      return null;
    }
    RowChunk c = RowChunks.get(d, RowChunks.floor(d, clustering));
    int i = c.search(clustering);
    return i >= 0 ? c.row(i) : null;
  }

  /** Whether this partition already holds a row (live or deleted) at {@code clustering}. */
  public boolean hasRow(byte[] clustering) {
    RowChunk[] d = chunks;
    return d.length > 0 && RowChunks.get(d, RowChunks.floor(d, clustering)).search(clustering) >= 0;
  }

  public int rowCount() {
    return rowCount;
  }

  @Override
  public long maxTimestamp() {
    return maxTimestamp;
  }
}
