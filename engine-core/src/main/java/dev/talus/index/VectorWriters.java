package dev.talus.index;

import dev.talus.IndexDef;
import dev.talus.codec.TypeCodec;
import dev.talus.data.Row;
import dev.talus.io.StorageFs;
import dev.talus.schema.KeyCodec;
import dev.talus.sstable.IndexVectorsWriter;
import dev.talus.sstable.SSTableDescriptor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The vector files an {@link IndexBuilder} pass writes: one per vector index among the indexes it
 * builds, holding each row's vector of the index's column (rows without one, or with a zero vector
 * under cosine, are left out), and its proximity graph from the same vectors when there are enough
 * of them. Not thread-safe.
 */
final class VectorWriters {
  private final IndexDef[] defs;
  private final IndexVectorsWriter[] writers;
  private final int[] ids;
  private final TypeCodec<?>[] codecs;
  private final VectorSimilarity[] functions;

  VectorWriters(KeyCodec keys, List<IndexDef> indexes) {
    int n = indexes.size();
    defs = indexes.toArray(new IndexDef[0]);
    writers = new IndexVectorsWriter[n];
    ids = new int[n];
    codecs = new TypeCodec<?>[n];
    functions = new VectorSimilarity[n];
    for (int i = 0; i < n; i++) {
      if (VectorSearch.isVector(keys, defs[i])) {
        ids[i] = keys.regularId(defs[i].column());
        codecs[i] = keys.regularCodec(ids[i]);
        functions[i] = VectorSimilarity.of(defs[i]);
        writers[i] = new IndexVectorsWriter(VectorSearch.dimension(keys, defs[i]));
      }
    }
  }

  /** True if index {@code i} is a vector index. */
  boolean has(int i) {
    return writers[i] != null;
  }

  /** Adds row {@code rowId}'s vectors. */
  void add(Row r, int rowId) {
    for (int i = 0; i < writers.length; i++) {
      if (writers[i] != null) {
        float[] v = VectorSearch.ofCell(r, ids[i], codecs[i], functions[i]);
        if (v != null) {
          writers[i].add(rowId, v);
        }
      }
    }
  }

  /**
   * Writes index {@code i}'s vector file, and its graph if it holds enough vectors ({@link
   * VectorGraphs}), under their temporary names; returns their final names.
   */
  List<Path> write(StorageFs fs, SSTableDescriptor d, long gen, int rows, int i)
      throws IOException {
    Path file = SaiFiles.vectors(d, defs[i].name());
    Path tmp = SaiFiles.tmp(file);
    fs.delete(tmp);
    IndexVectorsWriter w = writers[i];
    w.write(fs, tmp, gen, rows);
    Path graph = VectorGraphs.write(fs, d, gen, defs[i], w.vectors(), w.count(), w.dimension());
    return graph == null ? List.of(file) : List.of(file, graph);
  }
}
