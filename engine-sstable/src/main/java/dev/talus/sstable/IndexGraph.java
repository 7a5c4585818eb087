package dev.talus.sstable;

import dev.talus.io.CorruptFileException;
import dev.talus.io.FileFormat;
import dev.talus.io.ReadableFile;
import dev.talus.io.StorageFs;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The proximity graph of one vector file (docs/file-format.md, "SAI vector graph"): a layered graph
 * over the file's vectors, node {@code i} being vector {@code i} of the file, in the shape of a
 * hierarchical navigable small world graph. Layer 0 holds every node with at most {@link
 * #maxDegree0} neighbours; a node of level {@code l > 0} also sits in layers {@code 1..l} with at
 * most {@link #maxDegree} neighbours there. Searches start at {@link #entry}, the one node of the
 * top level. The graph stores node ids only; scores come from the vector file. Opening reads the
 * whole file, checks its checksum and its structure (every neighbour a node of that layer, no
 * self-loop, degrees within bounds) and keeps it on the heap. Immutable and thread-safe.
 */
public final class IndexGraph {
  static final String NAME = "SaiGraph";
  static final int VERSION = 1;

  /** The highest level a node may have; far above what any realistic node count reaches. */
  public static final int MAX_LEVEL = 31;

  private final int maxDegree;
  private final int maxDegree0;
  private final int entry;
  private final int[] levels;
  private final int[] layer0;
  private final int[][] upper;

  /**
   * A graph of {@code levels.length} nodes.
   *
   * @param maxDegree the bound on a node's neighbours in layers above 0
   * @param maxDegree0 the bound on a node's neighbours in layer 0
   * @param entry the entry node (-1 for an empty graph), of the highest level
   * @param levels each node's level
   * @param layer0 {@code maxDegree0 + 1} ints per node: its degree in layer 0, then its neighbours
   * @param upper for each node of level {@code l > 0}, {@code l} runs of {@code maxDegree + 1} ints
   *     (layers 1 to {@code l}: degree, then neighbours); null for a node of level 0
   * @throws IllegalArgumentException if the structure is inconsistent
   */
  public IndexGraph(
      int maxDegree, int maxDegree0, int entry, int[] levels, int[] layer0, int[][] upper) {
    this.maxDegree = maxDegree;
    this.maxDegree0 = maxDegree0;
    this.entry = entry;
    this.levels = levels;
    this.layer0 = layer0;
    this.upper = upper;
    String damage = check();
    if (damage != null) {
      throw new IllegalArgumentException(damage);
    }
  }

  /** What is inconsistent, or null. */
  private String check() {
    int n = levels.length;
    if (maxDegree < 1 || maxDegree0 < 1 || maxDegree > 1024 || maxDegree0 > 1024) {
      return "degree bounds " + maxDegree + "/" + maxDegree0 + " out of range";
    }
    if (layer0.length != (long) n * (maxDegree0 + 1) || upper.length != n) {
      return "adjacency arrays of the wrong size";
    }
    if (n == 0 ? entry != -1 : entry < 0 || entry >= n) {
      return "entry node " + entry + " out of range";
    }
    int top = n == 0 ? 0 : levels[entry];
    for (int i = 0; i < n; i++) {
      int level = levels[i];
      if (level < 0 || level > top) {
        return "node " + i + " has level " + level + " above the entry's " + top;
      }
      if ((level == 0) != (upper[i] == null)
          || (level > 0 && upper[i].length != level * (maxDegree + 1))) {
        return "node " + i + " has upper layers that do not match its level";
      }
      for (int l = 0; l <= level; l++) {
        int[] a = l == 0 ? layer0 : upper[i];
        int at = l == 0 ? i * (maxDegree0 + 1) : (l - 1) * (maxDegree + 1);
        int degree = a[at];
        if (degree < 0 || degree > (l == 0 ? maxDegree0 : maxDegree)) {
          return "node " + i + " has degree " + degree + " in layer " + l;
        }
        for (int j = 1; j <= degree; j++) {
          int nb = a[at + j];
          if (nb < 0 || nb >= n || nb == i || levels[nb] < l) {
            return "node " + i + " has neighbour " + nb + " in layer " + l;
          }
        }
      }
    }
    return null;
  }

  /** The number of nodes (the vector file's vectors). */
  public int size() {
    return levels.length;
  }

  /** The bound on a node's neighbours in layers above 0. */
  public int maxDegree() {
    return maxDegree;
  }

  /** The bound on a node's neighbours in layer 0. */
  public int maxDegree0() {
    return maxDegree0;
  }

  /** The entry node of searches, -1 if the graph is empty. */
  public int entry() {
    return entry;
  }

  /** The level of the entry node (0 for an empty graph). */
  public int topLevel() {
    return entry < 0 ? 0 : levels[entry];
  }

  /** The level of {@code node}. */
  public int level(int node) {
    return levels[node];
  }

  /**
   * The adjacency array holding {@code node}'s neighbours in {@code layer}, to be read from {@link
   * #offset}: the degree, then the neighbours. The graph's own array; callers must not modify it.
   */
  public int[] adjacency(int node, int layer) {
    return layer == 0 ? layer0 : upper[node];
  }

  /** Where {@code node}'s run of {@code layer} starts in {@link #adjacency}. */
  public int offset(int node, int layer) {
    return layer == 0 ? node * (maxDegree0 + 1) : (layer - 1) * (maxDegree + 1);
  }

  /**
   * Writes the graph to {@code file} (which must not exist) of the SSTable of {@code generation},
   * and forces it to storage.
   */
  public void write(StorageFs fs, Path file, long generation) throws IOException {
    try (ComponentOutput out = new ComponentOutput(fs.create(file))) {
      DataOutputStream data = new DataOutputStream(out);
      FileFormat.writeHeader(data, NAME, VERSION, generation);
      data.writeInt(levels.length);
      data.writeInt(maxDegree);
      data.writeInt(maxDegree0);
      data.writeInt(entry);
      for (int i = 0; i < levels.length; i++) {
        data.writeByte(levels[i]);
        for (int l = 0; l <= levels[i]; l++) {
          int[] a = adjacency(i, l);
          int at = offset(i, l);
          for (int j = 0; j <= a[at]; j++) {
            data.writeInt(a[at + j]);
          }
        }
      }
      FileFormat.writeFooter(out);
      out.sync();
    }
  }

  /**
   * Opens, checks and loads {@code file} of the SSTable of {@code generation}, the graph of a
   * vector file of {@code vectors} vectors.
   *
   * @throws CorruptFileException if the file is damaged, truncated, belongs to another SSTable or
   *     does not match the vector count
   */
  public static IndexGraph open(StorageFs fs, Path file, long generation, int vectors)
      throws IOException {
    try (ReadableFile f = fs.openForRead(file)) {
      ChecksumInput src = new ChecksumInput(f, file);
      DataInputStream in = new DataInputStream(src);
      if (src.size() < FileFormat.headerLength(NAME) + 16 + FileFormat.FOOTER_LENGTH) {
        throw new CorruptFileException(file, src.size(), "too short for an index graph file");
      }
      try {
        FileFormat.checkHeader(in, file, NAME, generation, VERSION, 1);
        int n = in.readInt();
        int m = in.readInt();
        int m0 = in.readInt();
        int entry = in.readInt();
        if (n != vectors) {
          throw new CorruptFileException(
              file, src.position(), n + " nodes for a vector file of " + vectors);
        }
        if (m < 1 || m0 < 1 || m > 1024 || m0 > 1024) {
          throw new CorruptFileException(file, src.position(), "degree bounds out of range");
        }
        int[] levels = new int[n];
        int[] layer0 = new int[Math.multiplyExact(n, m0 + 1)];
        int[][] upper = new int[n][];
        for (int i = 0; i < n; i++) {
          long at = src.position();
          int level = in.readUnsignedByte();
          if (level > MAX_LEVEL) {
            throw new CorruptFileException(file, at, "node level " + level + " out of range");
          }
          levels[i] = level;
          upper[i] = level == 0 ? null : new int[level * (m + 1)];
          for (int l = 0; l <= level; l++) {
            int[] a = l == 0 ? layer0 : upper[i];
            int off = l == 0 ? i * (m0 + 1) : (l - 1) * (m + 1);
            int degree = in.readInt();
            if (degree < 0 || degree > (l == 0 ? m0 : m)) {
              throw new CorruptFileException(file, at, "node degree " + degree + " out of range");
            }
            a[off] = degree;
            for (int j = 1; j <= degree; j++) {
              a[off + j] = in.readInt();
            }
          }
        }
        if (src.remainingBeforeFooter() != 0) {
          throw new CorruptFileException(file, src.position(), "trailing bytes before the footer");
        }
        FileFormat.checkFooter(src, file);
        try {
          return new IndexGraph(m, m0, entry, levels, layer0, upper);
        } catch (IllegalArgumentException e) {
          throw new CorruptFileException(file, 0, "inconsistent graph: " + e.getMessage());
        }
      } catch (EOFException e) {
        throw new CorruptFileException(file, src.position(), "truncated", e);
      } catch (CorruptFileException e) {
        throw e;
      } catch (IOException | RuntimeException e) {
        throw new CorruptFileException(
            file, src.position(), "undecodable index graph file: " + e.getMessage(), e);
      }
    }
  }
}
