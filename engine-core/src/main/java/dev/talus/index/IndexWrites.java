package dev.talus.index;

import dev.talus.IndexDef;
import dev.talus.io.StorageFs;
import dev.talus.schema.KeyCodec;
import dev.talus.sstable.AttachedWriter;
import dev.talus.sstable.SSTableDescriptor;
import dev.talus.sstable.SSTableReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The write side of a table's indexes for new SSTables: the {@link AttachedWriter.Factory} that
 * flushes and compactions write with ({@link IndexComponentsWriter}, the indexes defined when each
 * output starts), and {@link #complete}, which reconciles an output with the indexes defined when
 * it goes live — an index created while it was written is built by reading it back, one dropped (or
 * dropped and created again) meanwhile loses the file written for it. Thread-safe.
 */
final class IndexWrites {
  private final StorageFs fs;
  private final long budget;

  /** The definitions each committed output was written with, until {@link #complete} takes them. */
  private final Map<Long, List<IndexDef>> written = new ConcurrentHashMap<>();

  /**
   * Writes with {@code budget} bytes of terms held in memory per output ({@link IndexCollector}).
   */
  IndexWrites(StorageFs fs, long budget) {
    this.fs = fs;
    this.budget = budget;
  }

  /** Writers of the components of {@code definitions}' indexes (read as each output starts). */
  AttachedWriter.Factory factory(KeyCodec keys, Supplier<List<IndexDef>> definitions) {
    return desc -> {
      List<IndexDef> defs = definitions.get();
      return defs.isEmpty()
          ? null
          : new IndexComponentsWriter(fs, desc, keys, defs, written, budget);
    };
  }

  /**
   * Makes SSTable {@code reader} (not yet live) hold the components of exactly {@code defs}: keeps
   * what its writer wrote for an index still defined alike, deletes what it wrote for any other and
   * builds the rest (all of them, with the row-key map, if its writer wrote none) by reading it
   * back. The caller holds a reference on the reader.
   */
  void complete(SSTableReader reader, KeyCodec keys, List<IndexDef> defs) throws IOException {
    List<IndexDef> done = written.remove(reader.generation());
    if (done == null) {
      IndexBuilder.build(fs, reader, keys, defs, true, budget);
      return;
    }
    SSTableDescriptor d = reader.descriptor();
    List<IndexDef> missing = new ArrayList<>();
    for (IndexDef def : done) {
      if (!defs.contains(def)) {
        deleteFiles(d, def.name());
      }
    }
    for (IndexDef def : defs) {
      if (!done.contains(def)) {
        missing.add(def);
      }
    }
    IndexBuilder.build(fs, reader, keys, missing, false, budget);
  }

  /**
   * Deletes the dictionary, or the vector file and its graph, of index {@code index} from each of
   * {@code sstables}.
   */
  void deleteFiles(String index, List<SSTableReader> sstables) throws IOException {
    for (SSTableReader r : sstables) {
      deleteFiles(r.descriptor(), index);
    }
  }

  private void deleteFiles(SSTableDescriptor d, String index) throws IOException {
    fs.delete(SaiFiles.terms(d, index));
    VectorGraphs.delete(fs, d, index);
  }

  /** True if the writer of SSTable {@code generation} wrote components not yet completed. */
  boolean pending(long generation) {
    return written.containsKey(generation);
  }
}
