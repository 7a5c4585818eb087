package dev.talus.index;

import dev.talus.DataType;
import dev.talus.IndexDef;
import dev.talus.codec.TypeCodec;
import dev.talus.data.Cell;
import dev.talus.data.PartitionKey;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import dev.talus.memtable.MemPartition;
import dev.talus.memtable.Memtable;
import dev.talus.schema.KeyCodec;
import dev.talus.sstable.IndexRowKeysReader;
import dev.talus.sstable.IndexVectorsReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The exact nearest-neighbour scan of one source of a vector index: every vector of an SSTable's
 * vector file, or every row of a memtable, is scored against the query and the best ones kept. The
 * ranking is a total order (score, higher first, then position in the source), so asking for ranks
 * {@code [skip, skip + n)} after ranks {@code [0, skip)} continues exactly where the first call
 * stopped. Stateless.
 */
public final class VectorSearch {
  /**
   * One row a source holds, scored.
   *
   * @param score the similarity of the source's vector with the query
   * @param partitionKey the row's partition key, as stored
   * @param clustering the row's clustering, as stored
   * @param vector the vector the source holds for the row (possibly no longer current)
   */
  public record Candidate(float score, byte[] partitionKey, byte[] clustering, float[] vector) {}

  private VectorSearch() {}

  /** True if {@code def} indexes a {@code vector<float, n>} column of {@code keys}' table. */
  public static boolean isVector(KeyCodec keys, IndexDef def) {
    int id = keys.regularId(def.column());
    return id >= 0 && VectorIndexRules.isVector(keys.column(id).type());
  }

  /**
   * The vector of column {@code columnId} in {@code row}, or null if it holds none the function can
   * score (no cell, a tombstone, undecodable bytes, a zero vector under cosine).
   */
  static float[] ofCell(Row row, int columnId, TypeCodec<?> codec, VectorSimilarity f) {
    Cell c = row.cell(columnId);
    if (c == null || c.isTombstone() || c.hasPath()) {
      return null;
    }
    try {
      Object v = codec.deserialize(c.value());
      return v instanceof float[] floats && f.accepts(floats) ? floats : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** Keeps the best {@code n} of scored positions; the worst kept is at the head. */
  private static final class Best {
    private final int n;
    private final PriorityQueue<long[]> heap;

    Best(int n) {
      this.n = n;
      // a[0]: score bits made order-preserving; a[1]: position (a lower position ranks first)
      this.heap =
          new PriorityQueue<>(
              Math.max(1, Math.min(n, 1024)),
              (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(b[1], a[1]));
    }

    void offer(float score, int position) {
      long key = orderedBits(score);
      if (heap.size() < n) {
        heap.add(new long[] {key, position});
        return;
      }
      long[] worst = heap.peek();
      if (key > worst[0] || (key == worst[0] && position < worst[1])) {
        heap.poll();
        heap.add(new long[] {key, position});
      }
    }

    /** The positions kept, best first. */
    int[] positions() {
      long[][] all = heap.toArray(new long[0][]);
      Arrays.sort(
          all, (a, b) -> a[0] != b[0] ? Long.compare(b[0], a[0]) : Long.compare(a[1], b[1]));
      int[] out = new int[all.length];
      for (int i = 0; i < all.length; i++) {
        out[i] = (int) all[i][1];
      }
      return out;
    }

    private static long orderedBits(float score) {
      int bits = Float.floatToIntBits(score == 0f ? 0f : score); // -0 ranks as 0
      return bits ^ ((bits >> 31) & 0x7fffffff); // negative floats: reverse their order
    }
  }

  /** The smallest beam of a graph search. */
  static final int MIN_BEAM = 400;

  /** The beam of a graph search is this many times the number of rows asked for, at least. */
  static final int BEAM_FACTOR = 4;

  /**
   * Ranks {@code [skip, skip + n)} of an SSTable's vectors against {@code query}, restricted to
   * partition {@code partition} if not null. On an SSTable with a graph, and no partition, the
   * ranks are approximate and start at 0, not at {@code skip}: a graph search with a beam of {@code
   * max(MIN_BEAM, BEAM_FACTOR × (skip + n))} returns its best {@code skip + n}, where a wider
   * search may rank rows that a narrower one missed above rank {@code skip}. A beam as large as
   * half the vectors scans them exactly instead, as does a read of one partition (its vectors are
   * one range of the file).
   */
  static List<Candidate> top(
      IndexRowKeysReader keys,
      VectorGraphs.Opened opened,
      VectorSimilarity f,
      float[] query,
      byte[] partition,
      int skip,
      int n)
      throws IOException {
    IndexVectorsReader vectors = opened.vectors();
    long want = (long) skip + n;
    long beam = Math.max(MIN_BEAM, BEAM_FACTOR * want);
    if (opened.graph() != null && partition == null && beam < vectors.size() / 2) {
      int[] ranked =
          VectorGraphSearch.search(
              opened.graph(), VectorGraphs.scores(vectors, f), query, (int) beam);
      return candidates(keys, vectors, f, query, ranked, 0, (int) Math.min(want, ranked.length));
    }
    int from = 0;
    int to = vectors.size();
    if (partition != null) {
      int[] rows = keys.rowsOf(partition);
      if (rows == null) {
        return List.of();
      }
      from = vectors.firstAtOrAfter(rows[0]);
      to = vectors.firstAtOrAfter(rows[1]);
    }
    Best best = new Best(skip + n);
    float[] flat = vectors.vectors();
    int d = vectors.dimension();
    if (f == VectorSimilarity.COSINE) {
      float[] norms = vectors.squareNorms();
      float qn = VectorSimilarity.squareNorm(query, 0, d);
      for (int i = from; i < to; i++) {
        best.offer(
            VectorSimilarity.cosineScore(VectorSimilarity.dot(query, flat, i * d), qn, norms[i]),
            i);
      }
    } else {
      for (int i = from; i < to; i++) {
        best.offer(f.score(query, flat, i * d), i);
      }
    }
    int[] ranked = best.positions();
    return candidates(keys, vectors, f, query, ranked, skip, ranked.length);
  }

  /** The candidates of positions {@code ranked[from..to)} of {@code vectors}. */
  private static List<Candidate> candidates(
      IndexRowKeysReader keys,
      IndexVectorsReader vectors,
      VectorSimilarity f,
      float[] query,
      int[] ranked,
      int from,
      int to)
      throws IOException {
    List<Candidate> out = new ArrayList<>();
    for (int r = from; r < to; r++) {
      int i = ranked[r];
      IndexRowKeysReader.RowKey k = keys.rowKey(vectors.rowId(i));
      float[] v = vectors.vector(i);
      out.add(new Candidate(f.score(query, v), k.partitionKey(), k.clustering(), v));
    }
    return out;
  }

  /**
   * Ranks {@code [skip, skip + n)} of the rows of memtable {@code m} holding a vector in column
   * {@code def.column()}, restricted to partition {@code partition} if not null.
   */
  public static List<Candidate> top(
      Memtable m,
      KeyCodec keys,
      IndexDef def,
      float[] query,
      PartitionKey partition,
      int skip,
      int n) {
    int id = keys.regularId(def.column());
    TypeCodec<?> codec = keys.regularCodec(id);
    VectorSimilarity f = VectorSimilarity.of(def);
    List<MemPartition> parts = new ArrayList<>();
    if (partition != null) {
      MemPartition p = m.get(partition);
      if (p != null) {
        parts.add(p);
      }
    } else {
      parts.addAll(m.partitions());
    }
    List<Candidate> rows = new ArrayList<>();
    Best best = new Best(skip + n);
    for (MemPartition p : parts) {
      for (Iterator<Row> it = p.rows(Slice.ALL, false); it.hasNext(); ) {
        Row r = it.next();
        if (r.isStatic()) {
          continue;
        }
        float[] v = ofCell(r, id, codec, f);
        if (v != null) {
          float score = f.score(query, v);
          best.offer(score, rows.size());
          rows.add(new Candidate(score, p.key().bytes(), r.clustering(), v));
        }
      }
    }
    int[] ranked = best.positions();
    List<Candidate> out = new ArrayList<>();
    for (int r = skip; r < ranked.length; r++) {
      out.add(rows.get(ranked[r]));
    }
    return out;
  }

  /** The dimension of the vectors of column {@code def.column()}. */
  static int dimension(KeyCodec keys, IndexDef def) {
    DataType t = keys.column(keys.regularId(def.column())).type();
    return t.dimension();
  }
}
