package dev.talus.table;

import dev.talus.memtable.Memtable;
import dev.talus.sstable.SSTableReader;
import java.util.ArrayList;
import java.util.List;

/**
 * What a table consists of at one instant: the memtable taking writes, the memtables being flushed
 * (oldest first) and the live SSTables (newest first). Immutable: every change builds a new view
 * and swaps it in atomically, so a reader that took a view sees a consistent set. Only the table's
 * {@link ViewTracker} builds and publishes views.
 */
public record TableView(Memtable active, List<Memtable> flushing, List<SSTableReader> sstables) {
  public TableView {
    flushing = List.copyOf(flushing);
    sstables = List.copyOf(sstables);
  }

  TableView switchMemtable(Memtable fresh) {
    List<Memtable> f = new ArrayList<>(flushing);
    f.add(active);
    return new TableView(fresh, f, sstables);
  }

  TableView flushed(Memtable done, SSTableReader result) {
    List<Memtable> f = new ArrayList<>(flushing);
    f.remove(done);
    List<SSTableReader> s = new ArrayList<>();
    if (result != null) {
      s.add(result);
    }
    s.addAll(sstables);
    return new TableView(active, f, s);
  }

  TableView replace(List<SSTableReader> removed, List<SSTableReader> added) {
    List<SSTableReader> s = new ArrayList<>(added);
    for (SSTableReader r : sstables) {
      if (!removed.contains(r)) {
        s.add(r);
      }
    }
    s.sort((a, b) -> Long.compare(b.generation(), a.generation()));
    return new TableView(active, flushing, s);
  }

  /** Bytes held by the memtable taking writes and those being flushed. */
  public long memtableBytes() {
    long b = active.liveBytes();
    for (Memtable m : flushing) {
      b += m.liveBytes();
    }
    return b;
  }
}
