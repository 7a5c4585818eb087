package dev.talus.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Merges what any number of sources hold for one partition into one reconciled view: the strongest
 * partition deletion, the range deletions that are not already covered by it, and the rows in
 * clustering order (or reversed) with every version reconciled and everything shadowed by a
 * partition, range or row deletion removed. Tombstones themselves are kept, so the same merge
 * serves reads (which then keep what is live) and compaction (which then purges what it may).
 *
 * <p>Stateless and thread-safe; each merged partition is used from one thread.
 */
public final class PartitionMerger {
  private PartitionMerger() {}

  /** The result of a merge. Its row iterator is lazy and single-use. */
  public record Merged(
      PartitionKey key,
      DeletionTime partitionDeletion,
      DeletionIntervals rangeDeletions,
      Iterator<Row> rows,
      int sourcesUsed) {}

  /**
   * Merges {@code sources}. Sources whose newest data is strictly older than the partition deletion
   * found in any source cannot change the result and are not read at all. (A source whose newest
   * timestamp ties with it is read: a tombstone there may carry a later deletion time, and the
   * result must not depend on which source it sits in.)
   */
  public static Merged merge(
      PartitionKey key, List<? extends PartitionData> sources, Slice slice, boolean reversed) {
    DeletionTime partitionDeletion = DeletionTime.LIVE;
    for (PartitionData s : sources) {
      partitionDeletion = partitionDeletion.max(s.partitionDeletion());
    }
    List<PartitionData> used = new ArrayList<>(sources.size());
    List<RangeTombstone> rts = new ArrayList<>();
    for (PartitionData s : sources) {
      if (!partitionDeletion.isLive() && s.maxTimestamp() < partitionDeletion.markedForDeleteAt()) {
        continue;
      }
      used.add(s);
      for (RangeTombstone t : s.rangeTombstones(slice)) {
        if (t.deletion().supersedes(partitionDeletion)) {
          rts.add(t);
        }
      }
    }
    DeletionIntervals intervals = DeletionIntervals.of(rts);
    Iterator<Row> rows =
        used.size() == 1
            ? new OneSource(used.get(0).rows(slice, reversed), partitionDeletion, intervals)
            : new MergingRows(used, slice, reversed, partitionDeletion, intervals);
    return new Merged(key, partitionDeletion, intervals, rows, used.size());
  }

  private static final class Cursor {
    final Iterator<Row> it;
    Row head;

    Cursor(Iterator<Row> it) {
      this.it = it;
      this.head = it.next();
    }

    boolean advance() {
      if (it.hasNext()) {
        head = it.next();
        return true;
      }
      head = null;
      return false;
    }
  }

  /**
   * The rows of a single source (the commonest read after compaction): nothing to reconcile, only
   * what its own deletions shadow to remove, without a queue of cursors.
   */
  private static final class OneSource extends LookAheadIterator<Row> {
    private final Iterator<Row> rows;
    private final DeletionTime partitionDeletion;
    private final DeletionIntervals intervals;

    OneSource(Iterator<Row> rows, DeletionTime partitionDeletion, DeletionIntervals intervals) {
      this.rows = rows;
      this.partitionDeletion = partitionDeletion;
      this.intervals = intervals.isEmpty() ? null : intervals;
    }

    @Override
    protected Row computeNext() {
      while (rows.hasNext()) {
        Row row = rows.next();
        DeletionTime active =
            intervals == null
                ? partitionDeletion
                : partitionDeletion.max(intervals.deletionAt(row.clustering()));
        Row kept = row.withoutShadowed(active);
        if (kept != null) {
          return kept;
        }
      }
      return null;
    }
  }

  private static final class MergingRows extends LookAheadIterator<Row> {
    private final PriorityQueue<Cursor> queue;
    private final Comparator<byte[]> order;
    private final DeletionTime partitionDeletion;
    private final DeletionIntervals intervals;

    MergingRows(
        List<PartitionData> sources,
        Slice slice,
        boolean reversed,
        DeletionTime partitionDeletion,
        DeletionIntervals intervals) {
      Comparator<byte[]> asc = Arrays::compareUnsigned;
      this.order = reversed ? asc.reversed() : asc;
      this.queue =
          new PriorityQueue<>(
              Math.max(1, sources.size()),
              (a, b) -> order.compare(a.head.clustering(), b.head.clustering()));
      this.partitionDeletion = partitionDeletion;
      this.intervals = intervals;
      for (PartitionData s : sources) {
        Iterator<Row> it = s.rows(slice, reversed);
        if (it.hasNext()) {
          queue.add(new Cursor(it));
        }
      }
    }

    @Override
    protected Row computeNext() {
      while (!queue.isEmpty()) {
        Cursor top = queue.poll();
        Row row = top.head;
        if (top.advance()) {
          queue.add(top);
        }
        while (!queue.isEmpty()
            && Arrays.equals(queue.peek().head.clustering(), row.clustering())) {
          Cursor same = queue.poll();
          row = Row.merge(row, same.head);
          if (same.advance()) {
            queue.add(same);
          }
        }
        DeletionTime active = partitionDeletion.max(intervals.deletionAt(row.clustering()));
        Row kept = row.withoutShadowed(active);
        if (kept != null) {
          return kept;
        }
      }
      return null;
    }
  }
}
