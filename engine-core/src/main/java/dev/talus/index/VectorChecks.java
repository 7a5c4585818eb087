package dev.talus.index;

import dev.talus.IndexDef;
import dev.talus.TableSchema;
import dev.talus.io.CorruptFileException;
import dev.talus.io.StorageFs;
import dev.talus.sstable.IndexVectorsReader;
import dev.talus.sstable.SSTableDescriptor;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * The verify check of a vector index's vector file and graph ({@link IndexComponentCheck}).
 * Stateless.
 */
final class VectorChecks {
  private VectorChecks() {}

  /** True if {@code def} indexes a {@code vector<float, n>} column of {@code schema}. */
  static boolean isVector(TableSchema schema, IndexDef def) {
    return schema != null
        && schema.column(def.column()).map(c -> VectorIndexRules.isVector(c.type())).orElse(false);
  }

  /**
   * Opens and checks the vector file of {@code def}, then its graph if it has or needs one ({@link
   * VectorGraphs#check}); {@code rows} is the row-key map's count.
   */
  static List<IndexComponentCheck.Finding> check(
      StorageFs fs, SSTableDescriptor desc, IndexDef def, int rows, String what)
      throws IOException {
    Path file = SaiFiles.vectors(desc, def.name());
    try {
      IndexVectorsReader v = IndexVectorsReader.open(fs, file, desc.generation());
      if (rows >= 0 && v.rowCount() != rows) {
        return List.of(
            new IndexComponentCheck.Finding(
                what,
                file,
                "row count " + v.rowCount() + " differs from the row-key map's " + rows,
                0));
      }
      IndexComponentCheck.Finding vectors = new IndexComponentCheck.Finding(what, file, null, 0);
      IndexComponentCheck.Finding graph =
          VectorGraphs.check(fs, desc, def, v.size(), what + " graph");
      return graph == null ? List.of(vectors) : List.of(vectors, graph);
    } catch (CorruptFileException e) {
      return List.of(IndexComponentCheck.damaged(what, file, e));
    } catch (NoSuchFileException e) {
      return List.of(new IndexComponentCheck.Finding(what, file, "the component is missing", 0));
    }
  }
}
