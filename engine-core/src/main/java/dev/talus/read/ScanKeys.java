package dev.talus.read;

import dev.talus.data.PartitionKey;
import dev.talus.memtable.Memtable;
import dev.talus.sstable.SSTableReader;
import dev.talus.table.TableView;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * The partition keys of every memtable and SSTable of one view, merged into (token, key) order,
 * each once, from a starting key. SSTable keys come from their partition indexes; the caller holds
 * references on the view's SSTables while it iterates. Not thread-safe.
 */
final class ScanKeys implements Iterator<PartitionKey> {
  private static final class Source {
    final Iterator<PartitionKey> it;
    PartitionKey head;

    Source(Iterator<PartitionKey> it) {
      this.it = it;
      this.head = it.next();
    }

    boolean advance() {
      head = it.hasNext() ? it.next() : null;
      return head != null;
    }
  }

  private final PriorityQueue<Source> heads =
      new PriorityQueue<>((a, b) -> a.head.compareTo(b.head));

  ScanKeys(TableView v, PartitionKey from, boolean inclusive) {
    List<Iterator<PartitionKey>> its = new ArrayList<>();
    its.add(v.active().keys(from, inclusive));
    for (Memtable m : v.flushing()) {
      its.add(m.keys(from, inclusive));
    }
    for (SSTableReader r : v.sstables()) {
      if (from == null || r.lastKey().compareTo(from) >= 0) {
        its.add(r.keys(from, inclusive));
      }
    }
    for (Iterator<PartitionKey> it : its) {
      if (it.hasNext()) {
        heads.add(new Source(it));
      }
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
    PartitionKey k = heads.peek().head;
    while (!heads.isEmpty() && heads.peek().head.equals(k)) {
      Source s = heads.poll();
      if (s.advance()) {
        heads.add(s);
      }
    }
    return k;
  }
}
