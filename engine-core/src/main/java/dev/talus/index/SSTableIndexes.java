package dev.talus.index;

import dev.talus.IndexDef;
import dev.talus.IndexStatus;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import dev.talus.io.CorruptFileException;
import dev.talus.io.StorageFs;
import dev.talus.memtable.MemPartition;
import dev.talus.memtable.Memtable;
import dev.talus.schema.KeyCodec;
import dev.talus.sstable.AttachedWriter;
import dev.talus.sstable.IndexRowKeysReader;
import dev.talus.sstable.IndexTermsReader;
import dev.talus.sstable.IndexVectorsReader;
import dev.talus.sstable.SSTableReader;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.roaringbitmap.RoaringBitmap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The storage-attached indexes of one table: their definitions, the components of each live SSTable
 * (opened on first use and kept open), and the candidate rows of a query. A component that is
 * missing or fails its checks when opened is rebuilt from its SSTable before it is used, so a
 * damaged index is never read. Memtables are not indexed: a query scans them, comparing the term of
 * each row's cell. A vector index has a vector file per SSTable instead of a term dictionary
 * ({@link #vectorCandidates}). Thread-safe.
 */
public final class SSTableIndexes implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SSTableIndexes.class);

  private final StorageFs fs;
  private final String table;
  private final long budget;
  private volatile List<IndexDef> definitions = List.of();
  private final Map<Long, Attached> attached = new ConcurrentHashMap<>();
  private final Map<String, IndexProgress> progress = new ConcurrentHashMap<>();
  private final IndexWrites writes;

  /**
   * Held by a background build while it builds one SSTable's dictionary and by the deletion of a
   * dropped index's files, so that a build never writes a file of an index after it was dropped.
   */
  private final Object buildLock = new Object();

  /** The opened components of one SSTable; guarded by itself. */
  private static final class Attached {
    IndexRowKeysReader keys;
    final Map<String, IndexTermsReader> terms = new HashMap<>();
    final Map<String, VectorGraphs.Opened> vectors = new HashMap<>();
  }

  /**
   * The indexes of table {@code table}, whose components are written holding at most {@code budget}
   * bytes of terms in memory per SSTable ({@link IndexCollector}).
   */
  public SSTableIndexes(StorageFs fs, String table, long budget) {
    this.fs = fs;
    this.table = table;
    this.budget = budget;
    this.writes = new IndexWrites(fs, budget);
  }

  /** The indexes of the table now, in creation order. */
  public List<IndexDef> definitions() {
    return definitions;
  }

  /** Takes the table's index list (at open, CREATE INDEX and DROP INDEX). */
  public void define(List<IndexDef> next) {
    definitions = List.copyOf(next);
    Set<String> names = new HashSet<>();
    next.forEach(d -> names.add(d.name()));
    for (IndexDef d : next) {
      progress.computeIfAbsent(d.name(), IndexProgress::queryable);
    }
    for (Iterator<Map.Entry<String, IndexProgress>> it = progress.entrySet().iterator();
        it.hasNext(); ) {
      Map.Entry<String, IndexProgress> e = it.next();
      if (!names.contains(e.getKey())) {
        e.getValue().dropped();
        it.remove();
      }
    }
    for (Attached a : attached.values()) {
      synchronized (a) {
        for (Iterator<Map.Entry<String, IndexTermsReader>> it = a.terms.entrySet().iterator();
            it.hasNext(); ) {
          Map.Entry<String, IndexTermsReader> e = it.next();
          if (!names.contains(e.getKey())) {
            closeQuietly(e.getValue());
            it.remove();
          }
        }
        a.vectors.keySet().retainAll(names);
      }
    }
  }

  /** Writes each new SSTable's index components as its rows are written ({@link IndexWrites}). */
  public AttachedWriter.Factory componentWriters(KeyCodec keys) {
    return writes.factory(keys, () -> definitions);
  }

  /**
   * Gives a new SSTable the components of every index defined now, before it goes live: those its
   * writer wrote ({@link #componentWriters}) if still defined alike, the others read back.
   */
  public void writeFor(SSTableReader reader, KeyCodec keys) throws IOException {
    List<IndexDef> defs = definitions;
    if (!writes.pending(reader.generation()) && defs.isEmpty()) {
      return;
    }
    Attached a = attachedOf(reader);
    synchronized (a) {
      if (a.keys == null && a.terms.isEmpty()) {
        writes.complete(reader, keys, defs);
      }
    }
  }

  /**
   * Like {@link #writeFor}, for a compaction's outputs: a failure is logged, not thrown, because
   * the compaction is already durable; the first query that needs a missing component builds it.
   */
  public void writeForOrLater(SSTableReader reader, KeyCodec keys) {
    try {
      writeFor(reader, keys);
    } catch (IOException | RuntimeException e) {
      LOG.warn(
          "Writing the index components of {} of table {} failed; they are built when first"
              + " needed",
          reader.descriptor(),
          table,
          e);
    }
  }

  /** The build state of index {@code name}; null if the table has no such index. */
  public IndexProgress progress(String name) {
    return progress.get(name);
  }

  /**
   * Marks a new index {@code def} (not yet defined) as building over {@code sstables}, after
   * deleting any dictionary of that name they still hold (left by an index of the same name that
   * was dropped by a crash before its files were), so that the build writes every one afresh.
   */
  public IndexProgress startBuild(IndexDef def, List<SSTableReader> sstables) throws IOException {
    synchronized (buildLock) {
      writes.deleteFiles(def.name(), sstables);
      IndexProgress p = IndexProgress.building(def.name(), sstables.size());
      progress.put(def.name(), p);
      return p;
    }
  }

  /**
   * Marks defined index {@code def} as building again over {@code sstables} if one of them lacks a
   * component (at open: a crash or a close stopped its build); returns the new state, or null if
   * nothing is missing.
   */
  public IndexProgress resumeIfMissing(IndexDef def, List<SSTableReader> sstables, KeyCodec keys) {
    boolean vector = VectorSearch.isVector(keys, def);
    for (SSTableReader r : sstables) {
      if (!fs.exists(SaiFiles.keys(r.descriptor()))
          || !fs.exists(
              vector
                  ? SaiFiles.vectors(r.descriptor(), def.name())
                  : SaiFiles.terms(r.descriptor(), def.name()))) {
        IndexProgress p = IndexProgress.building(def.name(), sstables.size());
        progress.put(def.name(), p);
        return p;
      }
    }
    return null;
  }

  /**
   * One step of a background build: makes sure SSTable {@code r} has the components of {@code def},
   * building what is missing or damaged. False if the build no longer matters ({@code p} is not the
   * index's state any more: it was dropped, perhaps created again). An SSTable compacted away
   * meanwhile is skipped: its output was written with the index.
   */
  public boolean buildOne(IndexProgress p, IndexDef def, SSTableReader r, KeyCodec keys)
      throws IOException {
    synchronized (buildLock) {
      if (progress.get(def.name()) != p) {
        return false;
      }
      if (!r.tryRef()) {
        return true;
      }
      try {
        Attached a = attachedOf(r);
        synchronized (a) {
          if (VectorSearch.isVector(keys, def)) {
            if (a.vectors.get(def.name()) == null) {
              openVectors(a, r, keys, def);
            }
          } else if (a.terms.get(def.name()) == null) {
            openTerms(a, r, keys, def);
          }
        }
      } finally {
        r.release();
      }
      return true;
    }
  }

  /** Deletes the term dictionaries of a dropped index from every SSTable. */
  public void dropFiles(String index, List<SSTableReader> sstables) throws IOException {
    synchronized (buildLock) {
      writes.deleteFiles(index, sstables);
    }
  }

  /**
   * The status of index {@code def} over the live {@code sstables}: its build state, how many of
   * them hold its dictionary and the bytes of its dictionaries and of the shared row-key maps.
   */
  public IndexStatus status(IndexDef def, List<SSTableReader> sstables) {
    IndexProgress p = progress.get(def.name());
    int covered = 0;
    long terms = 0;
    long rowKeys = 0;
    for (SSTableReader r : sstables) {
      long t = sizeOrMinusOne(SaiFiles.terms(r.descriptor(), def.name()));
      if (t >= 0) {
        covered++;
        terms += t;
      }
      rowKeys += Math.max(0, sizeOrMinusOne(SaiFiles.keys(r.descriptor())));
    }
    IndexStatus.State state = p == null ? IndexStatus.State.QUERYABLE : p.state();
    return new IndexStatus(
        def.name(),
        def.column(),
        state,
        p == null ? 0 : p.built(),
        p == null ? 0 : p.total(),
        covered,
        sstables.size(),
        terms,
        rowKeys,
        p == null ? 0 : p.queries(),
        state == IndexStatus.State.FAILED ? p.failure() : null);
  }

  private long sizeOrMinusOne(Path file) {
    try {
      return fs.exists(file) ? fs.size(file) : -1;
    } catch (IOException e) {
      return -1; // deleted meanwhile (a compaction removed its SSTable)
    }
  }

  /**
   * The rows of these sources that may hold a value of the range's column in the range: from each
   * SSTable's term dictionary (row ids, then their partition keys and clusterings from the row-key
   * map), and by scanning the memtables. A superset: the caller reads every candidate and checks
   * it. A table without clustering columns gets whole partitions. The caller holds references on
   * the SSTables.
   */
  public IndexCandidates candidates(
      IndexRange range, List<Memtable> memtables, List<SSTableReader> sstables, KeyCodec keys)
      throws IOException {
    IndexCandidates out = new IndexCandidates();
    if (range.isEmpty()) {
      return out;
    }
    IndexTerms.Source source = IndexTerms.source(range.index(), keys);
    boolean rowLevel = // a partition-level term names partitions: they are read whole
        !keys.schema().clustering().isEmpty() && !IndexTerms.isPartitionLevel(source, keys);
    for (SSTableReader r : sstables) {
      Attached a = attachedOf(r);
      synchronized (a) {
        IndexTermsReader terms = a.terms.get(range.index().name());
        if (terms == null) {
          terms = openTerms(a, r, keys, range.index());
        }
        RoaringBitmap rows =
            terms.range(
                range.lower(), range.lowerInclusive(), range.upper(), range.upperInclusive());
        IndexCandidates.addHits(a.keys, rows, rowLevel, out);
      }
    }
    if (source == null) {
      return out;
    }
    boolean[] hit = new boolean[1];
    for (Memtable m : memtables) {
      for (MemPartition p : m.partitions()) {
        for (Iterator<Row> it = p.rows(Slice.ALL, false); it.hasNext(); ) {
          Row row = it.next();
          hit[0] = false;
          IndexTerms.terms(source, p.key().bytes(), row, term -> hit[0] |= range.contains(term));
          if (hit[0]) {
            if (!rowLevel || row.isStatic()) {
              out.addPartition(p.key());
              break;
            }
            out.addRow(p.key(), row.clustering());
          }
        }
      }
    }
    return out;
  }

  /**
   * Ranks {@code [skip, skip + n)} of SSTable {@code r}'s vectors of vector index {@code def}
   * against {@code query} (in partition {@code partition} if not null), opening — and building or
   * rebuilding if missing or damaged — its components first; approximate on a graph ({@link
   * VectorSearch#top}). The caller holds a reference on {@code r}.
   */
  public List<VectorSearch.Candidate> vectorCandidates(
      SSTableReader r,
      KeyCodec keys,
      IndexDef def,
      float[] query,
      byte[] partition,
      int skip,
      int n)
      throws IOException {
    Attached a = attachedOf(r);
    synchronized (a) {
      VectorGraphs.Opened v = a.vectors.get(def.name());
      if (v == null) {
        v = openVectors(a, r, keys, def);
      }
      return VectorSearch.top(a.keys, v, VectorSimilarity.of(def), query, partition, skip, n);
    }
  }

  /** Closes the components of SSTables that are no longer live. */
  public void retain(List<SSTableReader> live) {
    Set<Long> gens = new HashSet<>();
    live.forEach(r -> gens.add(r.generation()));
    for (Iterator<Map.Entry<Long, Attached>> it = attached.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Long, Attached> e = it.next();
      if (!gens.contains(e.getKey())) {
        it.remove();
        closeAll(e.getValue());
      }
    }
  }

  @Override
  public void close() {
    progress.values().forEach(IndexProgress::closed);
    for (Attached a : attached.values()) {
      closeAll(a);
    }
    attached.clear();
  }

  private Attached attachedOf(SSTableReader r) {
    return attached.computeIfAbsent(r.generation(), g -> new Attached());
  }

  /** Opens (building or rebuilding if needed) the row-key map and {@code def}'s dictionary. */
  private IndexTermsReader openTerms(Attached a, SSTableReader r, KeyCodec keys, IndexDef def)
      throws IOException {
    if (a.keys == null) {
      a.keys = openKeys(r, keys);
    }
    Path file = SaiFiles.terms(r.descriptor(), def.name());
    IndexTermsReader t = null;
    try {
      t = IndexTermsReader.open(fs, file, r.generation());
      if (t.rowCount() != a.keys.rowCount()) {
        closeQuietly(t);
        t = null;
        throw new CorruptFileException(file, 0, "row count differs from the row-key map's");
      }
    } catch (NoSuchFileException | CorruptFileException e) {
      rebuilding(file, e);
      fs.delete(file);
      IndexBuilder.build(fs, r, keys, List.of(def), false, budget);
      t = IndexTermsReader.open(fs, file, r.generation());
    }
    a.terms.put(def.name(), t);
    return t;
  }

  /** Opens (building or rebuilding if needed) the row-key map and vector index {@code def}. */
  private VectorGraphs.Opened openVectors(Attached a, SSTableReader r, KeyCodec keys, IndexDef def)
      throws IOException {
    if (a.keys == null) {
      a.keys = openKeys(r, keys);
    }
    Path file = SaiFiles.vectors(r.descriptor(), def.name());
    IndexVectorsReader v;
    try {
      v = IndexVectorsReader.open(fs, file, r.generation());
      if (v.rowCount() != a.keys.rowCount()) {
        throw new CorruptFileException(file, 0, "row count differs from the row-key map's");
      }
      if (v.dimension() != VectorSearch.dimension(keys, def)) {
        throw new CorruptFileException(file, 0, "dimension differs from the column's");
      }
    } catch (NoSuchFileException | CorruptFileException e) {
      rebuilding(file, e);
      VectorGraphs.delete(fs, r.descriptor(), def.name());
      IndexBuilder.build(fs, r, keys, List.of(def), false, budget);
      v = IndexVectorsReader.open(fs, file, r.generation());
    }
    a.vectors.put(
        def.name(), new VectorGraphs.Opened(v, VectorGraphs.open(fs, r.descriptor(), def, v)));
    return a.vectors.get(def.name());
  }

  private IndexRowKeysReader openKeys(SSTableReader r, KeyCodec keys) throws IOException {
    Path file = SaiFiles.keys(r.descriptor());
    try {
      return IndexRowKeysReader.open(fs, file, r.generation());
    } catch (NoSuchFileException | CorruptFileException e) {
      rebuilding(file, e);
      fs.delete(file);
      IndexBuilder.build(fs, r, keys, List.of(), true, budget);
      return IndexRowKeysReader.open(fs, file, r.generation());
    }
  }

  private void rebuilding(Path file, Exception e) {
    if (e instanceof NoSuchFileException) {
      LOG.info("Building index component {} of table {}", file.getFileName(), table);
    } else {
      LOG.warn(
          "Index component {} of table {} is damaged ({}); rebuilding it from its SSTable",
          file.getFileName(),
          table,
          e.getMessage());
    }
  }

  private static void closeAll(Attached a) {
    synchronized (a) {
      if (a.keys != null) {
        closeQuietly(a.keys);
        a.keys = null;
      }
      a.terms.values().forEach(SSTableIndexes::closeQuietly);
      a.terms.clear();
      a.vectors.clear();
    }
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      LOG.debug("closing an index component failed", e);
    }
  }
}
