package dev.talus.index;

import dev.talus.IndexDef;
import dev.talus.io.CorruptFileException;
import dev.talus.io.StorageFs;
import dev.talus.sstable.IndexGraph;
import dev.talus.sstable.IndexVectorsReader;
import dev.talus.sstable.SSTableDescriptor;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The proximity graph component of a vector index ({@code nb-<gen>-SaiGraph_<index>.db}): written
 * beside the vector file of an SSTable holding at least {@link #threshold} vectors, built from the
 * same vectors ({@link VectorGraphBuilder}); below it the vector file is scanned exactly. A graph
 * missing or damaged at open is rebuilt from the vector file alone (no SSTable read). By default no
 * SSTable reaches the threshold: on the measured data the graph did not beat the exact scan at
 * recall@10 of 0.95 (docs/architecture.md, "Vector search"). Stateless.
 */
final class VectorGraphs {
  private static final Logger LOG = LoggerFactory.getLogger(VectorGraphs.class);

  /**
   * The vectors an SSTable must hold for its vector index to get a graph: none by default, the
   * exact scan serving every SSTable (docs/architecture.md, "Vector search").
   */
  static final int DEFAULT_THRESHOLD = Integer.MAX_VALUE;

  /**
   * The system property that lowers {@link #DEFAULT_THRESHOLD}, read at each use: a knob for tests
   * and measurements, not a tuning option.
   */
  static final String THRESHOLD_PROPERTY = "talus.vector.graphThreshold";

  private VectorGraphs() {}

  /**
   * An opened vector file with its graph.
   *
   * @param vectors the vector file
   * @param graph its proximity graph, or null if it has too few vectors for one
   */
  record Opened(IndexVectorsReader vectors, IndexGraph graph) {}

  /** Deletes the vector file and the graph of {@code index} of SSTable {@code d}. */
  static void delete(StorageFs fs, SSTableDescriptor d, String index) throws IOException {
    fs.delete(SaiFiles.vectors(d, index));
    fs.delete(file(d, index));
  }

  /** The vector count from which an SSTable gets a graph. */
  static int threshold() {
    return Math.max(1, Integer.getInteger(THRESHOLD_PROPERTY, DEFAULT_THRESHOLD));
  }

  /** The graph file of vector index {@code index} of SSTable {@code d}. */
  static Path file(SSTableDescriptor d, String index) {
    return d.attached(SaiFiles.GRAPH_PREFIX + index + ".db");
  }

  /** The scores of the vectors of {@code v} under {@code f}. */
  static VectorGraphScores scores(IndexVectorsReader v, VectorSimilarity f) {
    float[] norms = f == VectorSimilarity.COSINE ? v.squareNorms() : null;
    return new VectorGraphScores(v.vectors(), v.dimension(), norms, f);
  }

  /**
   * Writes the graph of {@code count} vectors ({@code flat}, {@code d} elements each) of index
   * {@code def} under its temporary name, if they reach the threshold; returns its final name, or
   * null if none is written.
   */
  static Path write(
      StorageFs fs, SSTableDescriptor desc, long gen, IndexDef def, float[] flat, int count, int d)
      throws IOException {
    Path file = file(desc, def.name());
    if (count < threshold()) {
      fs.delete(file); // a graph left from before, of other vectors
      return null;
    }
    VectorSimilarity f = VectorSimilarity.of(def);
    float[] norms = new float[count];
    for (int i = 0; i < count; i++) {
      norms[i] = VectorSimilarity.squareNorm(flat, i * d, d);
    }
    float[] vectors = flat.length == count * d ? flat : java.util.Arrays.copyOf(flat, count * d);
    IndexGraph g = VectorGraphBuilder.build(new VectorGraphScores(vectors, d, norms, f));
    Path tmp = SaiFiles.tmp(file);
    fs.delete(tmp);
    g.write(fs, tmp, gen);
    return file;
  }

  /**
   * The graph of vector file {@code v} of index {@code def}, opened, or built from {@code v} if it
   * is missing or damaged; null if {@code v} holds fewer vectors than the threshold.
   */
  static IndexGraph open(StorageFs fs, SSTableDescriptor desc, IndexDef def, IndexVectorsReader v)
      throws IOException {
    if (v.size() < threshold()) {
      return null;
    }
    Path file = file(desc, def.name());
    try {
      return IndexGraph.open(fs, file, desc.generation(), v.size());
    } catch (NoSuchFileException | CorruptFileException e) {
      if (e instanceof NoSuchFileException) {
        LOG.info("Building index component {}", file.getFileName());
      } else {
        LOG.warn(
            "Index component {} is damaged ({}); rebuilding it from its vector file",
            file.getFileName(),
            e.getMessage());
      }
      IndexGraph g = VectorGraphBuilder.build(scores(v, VectorSimilarity.of(def)));
      Path tmp = SaiFiles.tmp(file);
      fs.delete(tmp);
      g.write(fs, tmp, desc.generation());
      fs.rename(tmp, file);
      fs.syncDirectory(desc.directory());
      return g;
    }
  }

  /**
   * The verify check of the graph of {@code def}, given its vector file's vector count: a graph is
   * expected from the threshold on, and checked wherever one exists; null if none is expected or
   * present.
   */
  static IndexComponentCheck.Finding check(
      StorageFs fs, SSTableDescriptor desc, IndexDef def, int vectors, String what)
      throws IOException {
    Path file = file(desc, def.name());
    boolean exists = fs.exists(file);
    if (!exists && vectors < threshold()) {
      return null;
    }
    try {
      IndexGraph.open(fs, file, desc.generation(), vectors);
      return new IndexComponentCheck.Finding(what, file, null, 0);
    } catch (CorruptFileException e) {
      return IndexComponentCheck.damaged(what, file, e);
    } catch (NoSuchFileException e) {
      return new IndexComponentCheck.Finding(what, file, "the component is missing", 0);
    }
  }
}
