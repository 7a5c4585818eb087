package dev.talus.table;

import dev.talus.memtable.Memtable;
import dev.talus.sstable.Manifest;
import dev.talus.sstable.SSTableReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The one owner of a table's live set (after Cassandra's {@code Tracker}): every change — a
 * memtable switch, a finished flush, a compaction's swap, a quarantined SSTable — goes through it,
 * as one manifest edit (the atomic point on disk) followed by a new {@link TableView} published
 * atomically. Readers take {@link #current()} and never lock. Thread-safe.
 */
public final class ViewTracker {
  private final Manifest manifest;
  private final AtomicReference<TableView> view;
  private final Consumer<IOException> onManifestFailure;

  /**
   * {@code onManifestFailure} hears of every manifest edit that failed for good ({@link
   * Manifest#isFailed}: a failed fsync, or a failed rewrite) before the edit's caller gets the
   * exception: the database stops then (fail-stop), since the edit may or may not be on disk.
   */
  ViewTracker(Manifest manifest, TableView initial, Consumer<IOException> onManifestFailure) {
    this.manifest = manifest;
    this.view = new AtomicReference<>(initial);
    this.onManifestFailure = onManifestFailure;
  }

  /** One manifest edit; an I/O failure stops the database before it is rethrown. */
  private void edit(List<Long> added, List<Long> removed) throws IOException {
    try {
      manifest.apply(added, removed);
    } catch (IOException e) {
      if (manifest.isFailed()) {
        onManifestFailure.accept(e);
      }
      throw e;
    }
  }

  /** The live set now. */
  public TableView current() {
    return view.get();
  }

  /** Starts a flush: {@code fresh} takes writes, the active memtable joins the flushing ones. */
  void switchMemtable(Memtable fresh) {
    view.set(view.get().switchMemtable(fresh));
  }

  /** A flushed SSTable joins the manifest's live set; its view follows with {@link #flushed}. */
  void flushCommitted(SSTableReader written) throws IOException {
    edit(List.of(written.generation()), List.of());
  }

  /** A flush ended: {@code done} leaves the view, its SSTable (null if it was empty) joins it. */
  void flushed(Memtable done, SSTableReader result) {
    view.updateAndGet(v -> v.flushed(done, result));
  }

  /**
   * Makes a compaction's result (or a drop of fully expired SSTables) live: one manifest edit, then
   * the view, then the replaced files are marked obsolete (deleted once the last reader lets go).
   */
  void swap(List<SSTableReader> removed, List<SSTableReader> added) throws IOException {
    List<Long> addedGens = new ArrayList<>(added.size());
    for (SSTableReader r : added) {
      addedGens.add(r.generation());
    }
    List<Long> removedGens = new ArrayList<>(removed.size());
    for (SSTableReader r : removed) {
      removedGens.add(r.generation());
    }
    try {
      edit(addedGens, removedGens);
    } catch (IOException | RuntimeException e) {
      // Not marked obsolete: a manifest record whose sync failed may still reach the disk and
      // name these files; reopening deletes them if it does not.
      added.forEach(SSTableReader::release);
      throw e;
    }
    view.updateAndGet(v -> v.replace(removed, added));
    for (SSTableReader r : removed) {
      r.markObsolete();
      r.release();
    }
  }

  /**
   * Takes a corrupt SSTable out of the live set for good (a manifest edit, then the view); its
   * files stay (not obsolete) for inspection. Returns the reader, or null if generation {@code gen}
   * is not live.
   *
   * @throws IOException if the manifest edit failed; nothing changed then
   */
  SSTableReader quarantine(long gen) throws IOException {
    SSTableReader reader = null;
    for (SSTableReader r : view.get().sstables()) {
      if (r.generation() == gen) {
        reader = r;
      }
    }
    if (reader == null) {
      return null;
    }
    edit(List.of(), List.of(gen));
    SSTableReader r = reader;
    view.updateAndGet(v -> v.replace(List.of(r), List.of()));
    r.release(); // the view's reference
    return r;
  }

  /**
   * Empties the live set for good (a dropped or truncated table): one manifest edit removing every
   * SSTable, then a view with no memtable data and no SSTables; the old SSTables are marked
   * obsolete (deleted once the last reader lets go). Returns the view it replaced.
   */
  TableView retire() throws IOException {
    TableView old = view.get();
    List<Long> gens = new ArrayList<>(old.sstables().size());
    for (SSTableReader r : old.sstables()) {
      gens.add(r.generation());
    }
    if (!gens.isEmpty()) {
      manifest.apply(List.of(), gens);
    }
    view.set(new TableView(new Memtable(), List.of(), List.of()));
    for (SSTableReader r : old.sstables()) {
      r.markObsolete();
      r.release();
    }
    return old;
  }

  /** At close: releases the view's references; the files stay. */
  void releaseAll() {
    for (SSTableReader r : view.get().sstables()) {
      r.release();
    }
  }
}
