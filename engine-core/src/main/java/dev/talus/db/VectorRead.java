package dev.talus.db;

import dev.talus.ResultRow;
import dev.talus.TableSchema;
import dev.talus.index.VectorSearch;
import dev.talus.memtable.Memtable;
import dev.talus.read.ReadPath;
import dev.talus.request.ReadRequest;
import dev.talus.request.ReadResult;
import dev.talus.request.Restriction;
import dev.talus.schema.KeyCodec;
import dev.talus.sstable.SSTableReader;
import dev.talus.table.TableStore;
import dev.talus.table.TableView;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A read ordered by similarity to a vector ({@code ORDER BY v ANN OF [...] LIMIT k}), served by the
 * column's vector index. Each source — every SSTable's vector file, every memtable — is scanned for
 * its best rows, in rank order (exactly, or through its proximity graph: then approximately,
 * docs/indexes.md); each candidate row is then read by the normal read path (so an overwritten,
 * deleted or expired row never returns) and scored with its current vector. A source is asked for
 * more until {@code k} of its candidates still hold the vector it has for them: on exact sources,
 * every row of the true top {@code k} is then among the rows read, because its current vector lives
 * in some source that ranked it. The best {@code k} by score come back, best first, in one page.
 * Stateless.
 */
final class VectorRead {
  static final int MAX_TOP_K = 1000;

  private VectorRead() {}

  /**
   * The best {@code req.limit()} rows of {@code req} by similarity of {@code column} to {@code q}.
   */
  static ReadResult read(
      TableStore store, ReadPath reads, ReadRequest req, String column, float[] query) {
    KeyCodec keys = store.keys();
    TableSchema s = keys.schema();
    VectorPlan plan = VectorPlan.of(s, keys, store.indexes().definitions(), req, column, query);
    if (plan.filtered()) {
      return VectorFilteredRead.read(store, reads, req, plan);
    }
    Map<ByteBuffer, Hit> hits = new HashMap<>();
    Map<ByteBuffer, float[]> current = new HashMap<>();
    int[] reads2 = new int[2];
    while (true) {
      TableView v = store.tracker().current();
      List<SSTableReader> taken = new ArrayList<>(v.sstables().size());
      for (SSTableReader r : v.sstables()) {
        if (!r.tryRef()) {
          break;
        }
        taken.add(r);
      }
      if (taken.size() != v.sstables().size()) {
        taken.forEach(SSTableReader::release); // a compaction replaced a file; take the new view
        continue;
      }
      try {
        List<Memtable> memtables = new ArrayList<>(v.flushing());
        memtables.add(v.active());
        for (Memtable m : memtables) {
          collect(
              (skip, n) ->
                  VectorSearch.top(m, keys, plan.index(), plan.query(), plan.partition(), skip, n),
              plan,
              reads,
              keys,
              hits,
              current,
              reads2);
        }
        byte[] partition = plan.partition() == null ? null : plan.partition().bytes();
        for (SSTableReader r : taken) {
          collect(
              (skip, n) ->
                  store
                      .indexes()
                      .vectorCandidates(r, keys, plan.index(), plan.query(), partition, skip, n),
              plan,
              reads,
              keys,
              hits,
              current,
              reads2);
        }
        store.indexes().retain(v.sstables());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        taken.forEach(SSTableReader::release);
      }
      break;
    }
    List<Hit> best = new ArrayList<>(hits.values());
    best.sort(Comparator.comparingDouble((Hit h) -> -h.score).thenComparing(h -> h.key));
    List<ResultRow> rows = new ArrayList<>();
    for (Hit h : best.subList(0, Math.min(plan.k(), best.size()))) {
      ReadResult r = reads.read(rowRead(s, keys, h.key, req.columns(), req));
      rows.addAll(r.rows());
      reads2[0] += r.sourcesTouched();
      reads2[1] += r.tombstonesScanned();
    }
    return new ReadResult(rows, null, reads2[0], reads2[1]);
  }

  /** Ranks {@code [skip, skip + n)} of one source. */
  @FunctionalInterface
  private interface Source {
    List<VectorSearch.Candidate> top(int skip, int n) throws IOException;
  }

  /** A row read and scored with its current vector. */
  private record Hit(float score, ByteBuffer key) {}

  private static final float[] NONE = new float[0];

  /** Reads the candidates of one source in rank order until {@code k} of them are current. */
  private static void collect(
      Source source,
      VectorPlan plan,
      ReadPath reads,
      KeyCodec keys,
      Map<ByteBuffer, Hit> hits,
      Map<ByteBuffer, float[]> current,
      int[] stats)
      throws IOException {
    int k = plan.k();
    int batch = Math.max(16, 2 * k);
    int skip = 0;
    int matched = 0;
    Set<ByteBuffer> seen = new HashSet<>(); // a graph's wider search returns its first ranks again
    while (true) {
      List<VectorSearch.Candidate> cs = source.top(skip, batch);
      for (VectorSearch.Candidate c : cs) {
        ByteBuffer key = key(c.partitionKey(), c.clustering());
        if (!seen.add(key)) {
          continue;
        }
        float[] now = current.get(key);
        if (now == null) {
          ReadResult r =
              reads.read(rowRead(keys.schema(), keys, key, List.of(plan.column()), null));
          stats[0] += r.sourcesTouched();
          stats[1] += r.tombstonesScanned();
          Object value = r.rows().isEmpty() ? null : r.rows().get(0).get(plan.column());
          now = value instanceof float[] f && plan.function().accepts(f) ? f : NONE;
          current.put(key, now);
          if (now != NONE) {
            hits.put(key, new Hit(plan.function().score(plan.query(), now), key));
          }
        }
        if (Arrays.equals(now, c.vector()) && ++matched >= k) {
          return;
        }
      }
      if (cs.size() < batch) {
        return;
      }
      skip += batch;
      batch *= 2;
    }
  }

  /** The stored partition key and clustering of a row, as one map key. */
  private static ByteBuffer key(byte[] partitionKey, byte[] clustering) {
    ByteBuffer b = ByteBuffer.allocate(4 + partitionKey.length + clustering.length);
    b.putInt(partitionKey.length).put(partitionKey).put(clustering).flip();
    return b;
  }

  /** A read of the one row named by {@code key}, of {@code columns}. */
  private static ReadRequest rowRead(
      TableSchema s, KeyCodec keys, ByteBuffer key, List<String> columns, ReadRequest req) {
    ByteBuffer b = key.duplicate();
    byte[] pk = new byte[b.getInt()];
    b.get(pk);
    byte[] ck = new byte[b.remaining()];
    b.get(ck);
    Object[] pkValues = keys.decodePartitionKey(pk);
    Object[] ckValues = keys.decodeClustering(ck);
    List<Restriction> eq = new ArrayList<>();
    for (int i = 0; i < pkValues.length; i++) {
      eq.add(
          new Restriction(s.partitionKey().get(i).name(), Restriction.Op.EQ, List.of(pkValues[i])));
    }
    for (int i = 0; i < ckValues.length; i++) {
      eq.add(
          new Restriction(s.clustering().get(i).name(), Restriction.Op.EQ, List.of(ckValues[i])));
    }
    return new ReadRequest(
        eq,
        List.of(),
        columns,
        List.of(),
        false,
        1,
        Integer.MAX_VALUE,
        null,
        false,
        Integer.MAX_VALUE,
        List.of(),
        req == null ? List.of() : req.selectors());
  }
}
