package dev.talus.memtable;

import dev.talus.data.DeletionTime;
import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * One partition in a memtable. Rows are held encoded ({@link RowCodec}), keyed by clustering.
 * Writers merge into it concurrently (each row is replaced atomically by its reconciled version);
 * readers iterate a weakly consistent view, which is fine because every version they might see is a
 * reconciled state that was once current. Every write reports the heap bytes it added or freed
 * ({@link HeapLayout}), counted once even when concurrent writers retry.
 *
 * <p>Thread-safe.
 */
public final class MemPartition implements PartitionData {
  private static final RangeTombstone[] NO_RANGE_TOMBSTONES = new RangeTombstone[0];
  private static final VarHandle DELETION;
  private static final VarHandle TOMBSTONES;
  private static final VarHandle MAX_TS;
  private static final VarHandle ESTIMATED;
  private static final VarHandle HAS_ROWS;

  static {
    try {
      MethodHandles.Lookup l = MethodHandles.lookup();
      DELETION = l.findVarHandle(MemPartition.class, "partitionDeletion", DeletionTime.class);
      TOMBSTONES = l.findVarHandle(MemPartition.class, "rangeTombstones", RangeTombstone[].class);
      MAX_TS = l.findVarHandle(MemPartition.class, "maxTimestamp", long.class);
      ESTIMATED = l.findVarHandle(MemPartition.class, "estimatedBytes", long.class);
      HAS_ROWS = l.findVarHandle(MemPartition.class, "hasRows", boolean.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** This object: four references (key, rows, deletion, tombstones), two longs and a flag. */
  static final long SELF = HeapLayout.object(4L * HeapLayout.REF + 16 + 1);

  private final PartitionKey key;
  private final ConcurrentSkipListMap<byte[], byte[]> rows =
      new ConcurrentSkipListMap<>(Arrays::compareUnsigned);
  private volatile DeletionTime partitionDeletion = DeletionTime.LIVE;
  private volatile RangeTombstone[] rangeTombstones = NO_RANGE_TOMBSTONES;
  private volatile long maxTimestamp = Long.MIN_VALUE;
  private volatile long estimatedBytes;
  private volatile boolean hasRows;

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
    long added = 0;
    DeletionTime previous = null;
    for (RangeTombstone t : rts) {
      added += HeapLayout.RANGE_TOMBSTONE;
      added += HeapLayout.byteArray(t.start().length) + HeapLayout.byteArray(t.end().length);
      if (t.deletion() != previous && t.deletion() != DeletionTime.LIVE) {
        added += HeapLayout.DELETION_TIME; // tombstones of one update usually share one deletion
      }
      previous = t.deletion();
    }
    for (; ; ) {
      RangeTombstone[] old = rangeTombstones;
      RangeTombstone[] next = Arrays.copyOf(old, old.length + rts.size());
      for (int i = 0; i < rts.size(); i++) {
        next[old.length + i] = rts.get(i);
      }
      if (TOMBSTONES.compareAndSet(this, old, next)) {
        long oldArray = old.length == 0 ? 0 : HeapLayout.refArray(old.length);
        return added + HeapLayout.refArray(next.length) - oldArray;
      }
    }
  }

  private long applyRow(Row r) {
    byte[] clustering = r.clustering();
    byte[] old = rows.get(clustering);
    for (; ; ) {
      if (old == null) {
        byte[] encoded = RowCodec.encode(r);
        old = rows.putIfAbsent(clustering, encoded);
        if (old == null) {
          long added =
              HeapLayout.SKIP_LIST_ENTRY
                  + HeapLayout.byteArray(clustering.length)
                  + HeapLayout.byteArray(encoded.length);
          if (!hasRows && HAS_ROWS.compareAndSet(this, false, true)) {
            added +=
                HeapLayout
                    .SKIP_LIST_FIRST_USE; // the map allocates its head and counter on first use
          }
          return added;
        }
      }
      byte[] merged = RowCodec.encode(Row.merge(RowCodec.decode(clustering, old), r));
      if (rows.replace(clustering, old, merged)) {
        return HeapLayout.byteArray(merged.length) - HeapLayout.byteArray(old.length);
      }
      old = rows.get(clustering);
    }
  }

  /** The heap this partition holds, recounted from its content (what the writes added up to). */
  long recount() {
    long s = SELF + HeapLayout.PARTITION_KEY + HeapLayout.byteArray(key.bytes().length);
    s += partitionDeletion == DeletionTime.LIVE ? 0 : HeapLayout.DELETION_TIME;
    RangeTombstone[] rts = rangeTombstones;
    if (rts.length > 0) {
      s += HeapLayout.refArray(rts.length);
      DeletionTime previous = null;
      for (RangeTombstone t : rts) {
        s += HeapLayout.RANGE_TOMBSTONE;
        s += HeapLayout.byteArray(t.start().length) + HeapLayout.byteArray(t.end().length);
        if (t.deletion() != previous && t.deletion() != DeletionTime.LIVE) {
          s += HeapLayout.DELETION_TIME;
        }
        previous = t.deletion();
      }
    }
    if (hasRows) {
      s += HeapLayout.SKIP_LIST_FIRST_USE;
    }
    for (var e : rows.entrySet()) {
      s += HeapLayout.SKIP_LIST_ENTRY;
      s += HeapLayout.byteArray(e.getKey().length) + HeapLayout.byteArray(e.getValue().length);
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
    ConcurrentNavigableMap<byte[], byte[]> sub = rows.subMap(slice.start(), slice.end());
    Iterator<java.util.Map.Entry<byte[], byte[]>> it =
        (reversed ? sub.descendingMap() : sub).entrySet().iterator();
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public Row next() {
        var e = it.next();
        return RowCodec.decode(e.getKey(), e.getValue());
      }
    };
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

  /** Whether this partition already holds a row (live or deleted) at {@code clustering}. */
  public boolean hasRow(byte[] clustering) {
    return rows.containsKey(clustering);
  }

  public int rowCount() {
    return rows.size();
  }

  @Override
  public long maxTimestamp() {
    return maxTimestamp;
  }
}
