package dev.talus.bench;

import dev.talus.DataType;
import dev.talus.IndexDef;
import dev.talus.ResultRow;
import dev.talus.Table;
import dev.talus.TableSchema;
import io.github.jbellis.jvector.graph.GraphIndexBuilder;
import io.github.jbellis.jvector.graph.GraphSearcher;
import io.github.jbellis.jvector.graph.ListRandomAccessVectorValues;
import io.github.jbellis.jvector.graph.OnHeapGraphIndex;
import io.github.jbellis.jvector.graph.SearchResult;
import io.github.jbellis.jvector.util.Bits;
import io.github.jbellis.jvector.vector.VectorEncoding;
import io.github.jbellis.jvector.vector.VectorSimilarityFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Top-10 cosine queries on 100,000 seeded random vectors of dimension 128 (Gaussian elements), one
 * query per operation, four ways: {@code talus} — {@code Select.orderByAnn} on a vector index of a
 * flushed, compacted table (a beam search of the SSTable's proximity graph, then a normal read of
 * each candidate row); {@code talusScan} — the same with the graph threshold raised out of reach,
 * so that the SSTable's vector file is scanned exactly; {@code flat} — an exact scan alone over one
 * float array, no reads; {@code jvector} (not in the default list: its build took more than 10
 * minutes here) — a search of a JVector 1.0.2 graph (M 16, beam width 100, Cassandra 5.0's
 * defaults) over the same vectors, no reads. Setup prints each one's build time (for Talus: {@code
 * createIndex} over the one SSTable) and its recall@10 over 100 queries against the exact answer.
 * Queries per second, one thread.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx3g"})
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 3)
public class VectorSearchBenchmark {
  static final int N = Integer.getInteger("talus.bench.vectors", 100_000);
  static final int DIM = Integer.getInteger("talus.bench.dimension", 128);
  static final int K = 10;
  static final int QUERIES = 100;

  @Param({"talus", "talusScan", "flat"})
  public String engine;

  private float[][] vectors;
  private float[][] queries;
  private float[] flat;
  private TalusFixture fixture;
  private Table table;
  private OnHeapGraphIndex<float[]> graph;
  private ListRandomAccessVectorValues ravv;
  private int next;

  /** Every node may be returned. */
  private static final Bits ALL =
      new Bits() {
        @Override
        public boolean get(int index) {
          return true;
        }

        @Override
        public int length() {
          return N;
        }
      };

  @Setup(Level.Trial)
  public void setUp() {
    Random rnd = new Random(42);
    vectors = new float[N][];
    for (int i = 0; i < N; i++) {
      vectors[i] = gaussian(rnd);
    }
    queries = new float[QUERIES][];
    for (int i = 0; i < QUERIES; i++) {
      queries[i] = gaussian(rnd);
    }
    flat = new float[N * DIM];
    for (int i = 0; i < N; i++) {
      System.arraycopy(vectors[i], 0, flat, i * DIM, DIM);
    }
    long start = System.nanoTime();
    switch (engine) {
      case "talus", "talusScan" -> {
        if (engine.equals("talusScan")) {
          System.setProperty("talus.vector.graphThreshold", Integer.toString(Integer.MAX_VALUE));
        }
        fixture = new TalusFixture("vector", 512L << 20);
        table =
            fixture.db.createTable(
                TableSchema.builder("items")
                    .partitionKey("id", DataType.INT)
                    .column("v", DataType.vector(DataType.FLOAT, DIM))
                    .build());
        for (int i = 0; i < N; i++) {
          table.insert().value("id", i).value("v", vectors[i]).execute();
        }
        table.flush();
        table.compact();
        start = System.nanoTime(); // the index alone: built over the one SSTable
        table.createIndex(IndexDef.sai("items_v", "v"));
      }
      case "jvector" -> {
        ravv = new ListRandomAccessVectorValues(Arrays.asList(vectors), DIM);
        graph =
            new GraphIndexBuilder<>(
                    ravv,
                    VectorEncoding.FLOAT32,
                    VectorSimilarityFunction.COSINE,
                    16,
                    100,
                    1.2f,
                    1.4f)
                .build();
      }
      default -> {}
    }
    long buildMs = (System.nanoTime() - start) / 1_000_000;
    double recall = 0;
    for (float[] q : queries) {
      Set<Integer> exact = new HashSet<>();
      for (int id : exactTop(q)) {
        exact.add(id);
      }
      int found = 0;
      for (int id : top(q)) {
        found += exact.contains(id) ? 1 : 0;
      }
      recall += found / (double) K;
    }
    System.out.printf(
        "%nVectorSearchBenchmark %s: %d x %d, build %d ms, recall@10 %.3f over %d queries%n",
        engine, N, DIM, buildMs, recall / QUERIES, QUERIES);
  }

  private static float[] gaussian(Random rnd) {
    float[] v = new float[DIM];
    for (int j = 0; j < DIM; j++) {
      v[j] = (float) rnd.nextGaussian();
    }
    return v;
  }

  /**
   * The cosine of {@code q} and the vector at {@code offset} of {@code flat}, both norms computed
   * per call (the benchmark's own, so that it measures the scan through the public API only).
   */
  private static float cosine(float[] q, float[] flat, int offset) {
    double dot = 0;
    double qq = 0;
    double vv = 0;
    for (int j = 0; j < q.length; j++) {
      float v = flat[offset + j];
      dot += q[j] * v;
      qq += q[j] * q[j];
      vv += v * v;
    }
    return (float) ((1 + dot / Math.sqrt(qq * vv)) / 2);
  }

  /** The exact top 10 by a scan of the flat array. */
  private int[] exactTop(float[] q) {
    float[] best = new float[K];
    int[] ids = new int[K];
    Arrays.fill(best, Float.NEGATIVE_INFINITY);
    for (int i = 0; i < N; i++) {
      float s = cosine(q, flat, i * DIM);
      if (s > best[K - 1]) {
        int at = K - 1;
        while (at > 0 && best[at - 1] < s) {
          best[at] = best[at - 1];
          ids[at] = ids[at - 1];
          at--;
        }
        best[at] = s;
        ids[at] = i;
      }
    }
    return ids;
  }

  private int[] top(float[] q) {
    switch (engine) {
      case "talus", "talusScan" -> {
        List<ResultRow> rows = table.select().orderByAnn("v", q).limit(K).execute().rows();
        int[] out = new int[rows.size()];
        for (int i = 0; i < out.length; i++) {
          out[i] = rows.get(i).getInt("id");
        }
        return out;
      }
      case "jvector" -> {
        SearchResult r =
            GraphSearcher.search(
                q, K, ravv, VectorEncoding.FLOAT32, VectorSimilarityFunction.COSINE, graph, ALL);
        List<Integer> out = new ArrayList<>();
        for (SearchResult.NodeScore ns : r.getNodes()) {
          out.add(ns.node);
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
      }
      default -> {
        return exactTop(q);
      }
    }
  }

  @Benchmark
  public int topTen() {
    float[] q = queries[next++ % QUERIES];
    return top(q).length;
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    if (fixture != null) {
      fixture.close();
    }
  }
}
