package dev.talus.index;

import dev.talus.IndexDef;
import dev.talus.data.Row;
import dev.talus.io.StorageFs;
import dev.talus.schema.KeyCodec;
import dev.talus.sstable.IndexRowKeysWriter;
import dev.talus.sstable.IndexTermsWriter;
import dev.talus.sstable.SSTableDescriptor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects the index components of one SSTable from its rows, given partition by partition in the
 * SSTable's order — by {@link IndexComponentsWriter} as the SSTable is written, or by {@link
 * IndexBuilder} reading it back; both feed this one class, so both write the same bytes. Every row,
 * the static row included (so that an index of a static column or of a partition key component
 * finds a partition holding nothing but static values), gets the next row id in the row-key map,
 * and each index adds the terms of the row's value of its column ({@link IndexTerms#terms}) or, for
 * a vector index, its vector ({@link VectorWriters}). The row-key map's clusterings stream to its
 * temporary file; the terms (each with a RoaringBitmap of row ids) and vectors stay in memory until
 * {@link #finish}. Not thread-safe.
 */
final class IndexCollector implements AutoCloseable {
  private final StorageFs fs;
  private final SSTableDescriptor desc;
  private final List<IndexDef> indexes;
  private final IndexTerms.Source[] sources;
  private final IndexTermsWriter[] writers;
  private final VectorWriters vectors;
  private final IndexRowKeysWriter rowKeys;
  private final long budget;
  private boolean keysClosed;
  private long held;
  private byte[] partitionKey;
  private int rows;

  /**
   * Starts collecting the components of SSTable {@code desc} for {@code indexes}, and its row-key
   * map (created now under its temporary name) if {@code withKeys}.
   */
  IndexCollector(
      StorageFs fs,
      SSTableDescriptor desc,
      KeyCodec keys,
      List<IndexDef> indexes,
      boolean withKeys,
      long budget)
      throws IOException {
    this.fs = fs;
    this.budget = budget;
    this.desc = desc;
    this.indexes = List.copyOf(indexes);
    int n = indexes.size();
    sources = new IndexTerms.Source[n];
    writers = new IndexTermsWriter[n];
    vectors = new VectorWriters(keys, indexes);
    for (int i = 0; i < n; i++) {
      sources[i] = vectors.has(i) ? null : IndexTerms.source(indexes.get(i), keys);
      writers[i] =
          new IndexTermsWriter(fs, SaiFiles.terms(desc, indexes.get(i).name()), desc.generation());
    }
    if (withKeys) {
      Path tmp = SaiFiles.tmp(SaiFiles.keys(desc));
      fs.delete(tmp);
      rowKeys = new IndexRowKeysWriter(fs, tmp, desc.generation());
    } else {
      rowKeys = null;
    }
  }

  /** The next partition starts; its rows follow. */
  void startPartition(byte[] partitionKey) {
    this.partitionKey = partitionKey;
    if (rowKeys != null) {
      rowKeys.startPartition(partitionKey);
    }
  }

  /** The next row of the current partition (the static row first, if any). */
  void row(Row r) throws IOException {
    int rowId = rows++;
    if (rowKeys != null) {
      rowKeys.row(r.clustering());
    }
    vectors.add(r, rowId);
    try {
      for (int i = 0; i < sources.length; i++) {
        if (sources[i] != null) {
          IndexTermsWriter w = writers[i];
          IndexTerms.terms(sources[i], partitionKey, r, term -> add(w, term, rowId));
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** Adds a term, then spills the largest writers' terms until the heap held is within budget. */
  private void add(IndexTermsWriter w, byte[] term, int rowId) {
    held += w.add(term, rowId);
    try {
      while (held > budget) {
        IndexTermsWriter largest = w;
        for (IndexTermsWriter o : writers) {
          if (o != null && o.heapBytes() > largest.heapBytes()) {
            largest = o;
          }
        }
        held -= largest.heapBytes();
        largest.spill();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The heap the terms held in memory take, over every index (at most the budget after a row). */
  long heldBytes() {
    return held;
  }

  /**
   * Writes every component under its temporary name, each forced to storage, and returns their
   * final names (the caller renames them into place and syncs the directory).
   */
  List<Path> finish() throws IOException {
    List<Path> written = new ArrayList<>();
    if (rowKeys != null) {
      rowKeys.finish();
      keysClosed = true;
      rowKeys.close();
      written.add(SaiFiles.keys(desc));
    }
    for (int i = 0; i < indexes.size(); i++) {
      if (vectors.has(i)) {
        written.addAll(vectors.write(fs, desc, desc.generation(), rows, i));
        continue;
      }
      Path file = SaiFiles.terms(desc, indexes.get(i).name());
      Path tmp = SaiFiles.tmp(file);
      fs.delete(tmp);
      held -= writers[i].heapBytes();
      writers[i].write(fs, tmp, desc.generation(), rows);
      writers[i] = null; // its terms may be large: let them go before the next file
      written.add(file);
    }
    return written;
  }

  /**
   * Closes the row-key map's file (left incomplete if {@link #finish} was not called) and deletes
   * the runs of every dictionary not written.
   */
  @Override
  public void close() throws IOException {
    try {
      for (int i = 0; i < writers.length; i++) {
        if (writers[i] != null) {
          writers[i].close();
          writers[i] = null;
        }
      }
    } finally {
      if (rowKeys != null && !keysClosed) {
        keysClosed = true;
        rowKeys.close();
      }
    }
  }
}
