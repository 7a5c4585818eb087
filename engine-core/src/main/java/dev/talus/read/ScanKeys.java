package dev.talus.read;

import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import dev.talus.memtable.Memtable;
import dev.talus.sstable.SSTableKeys;
import dev.talus.sstable.SSTableReader;
import dev.talus.table.TableView;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * The partition keys of every memtable and SSTable of one view, merged into (token, key) order,
 * each once, from a starting key. SSTable keys come from their partition indexes; the caller holds
 * references on the view's SSTables while it iterates.
 *
 * <p>The merge knows which SSTables hold each key it returns: their iterators were positioned on
 * it. {@link #sstablePartitions()} hands over those partitions, read from the positions their index
 * entries give, so a scan reads each partition without the Bloom filter checks and index searches
 * of a read that names it. Not thread-safe.
 */
final class ScanKeys implements Iterator<PartitionKey> {
  private static final class Source {
    final Iterator<PartitionKey> it;

    /** The index of this SSTable in the view's list, or -1 for a memtable. */
    final int sstable;

    PartitionKey head;

    Source(Iterator<PartitionKey> it, int sstable) {
      this.it = it;
      this.sstable = sstable;
      this.head = it.next();
    }

    boolean advance() {
      head = it.hasNext() ? it.next() : null;
      return head != null;
    }
  }

  private final PriorityQueue<Source> heads =
      new PriorityQueue<>((a, b) -> a.head.compareTo(b.head));

  private final SSTableKeys[] sstableKeys;

  /** Per SSTable of the view: its partition of the key {@link #next()} returned last, or null. */
  private final PartitionData[] held;

  ScanKeys(TableView v, PartitionKey from, boolean inclusive) {
    add(v.active().keys(from, inclusive), -1);
    for (Memtable m : v.flushing()) {
      add(m.keys(from, inclusive), -1);
    }
    sstableKeys = new SSTableKeys[v.sstables().size()];
    held = new PartitionData[sstableKeys.length];
    for (int i = 0; i < sstableKeys.length; i++) {
      SSTableReader r = v.sstables().get(i);
      if (from == null || r.lastKey().compareTo(from) >= 0) {
        sstableKeys[i] = r.keys(from, inclusive);
        add(sstableKeys[i], i);
      }
    }
  }

  private void add(Iterator<PartitionKey> it, int sstable) {
    if (it.hasNext()) {
      heads.add(new Source(it, sstable));
    }
  }

  @Override
  public boolean hasNext() {
    return !heads.isEmpty();
  }

  @Override
  public PartitionKey next() {
    if (heads.isEmpty()) {
      throw new NoSuchElementException();
    }
    Arrays.fill(held, null);
    PartitionKey k = heads.peek().head;
    while (!heads.isEmpty() && heads.peek().head.equals(k)) {
      Source s = heads.poll();
      if (s.sstable >= 0) {
        held[s.sstable] = sstableKeys[s.sstable].partition(); // before the iterator moves on
      }
      if (s.advance()) {
        heads.add(s);
      }
    }
    return k;
  }

  /**
   * Per SSTable of the view (by index in its list): the partition of the key {@link #next()}
   * returned last, or null where that SSTable does not hold it.
   */
  PartitionData[] sstablePartitions() {
    return held;
  }
}
