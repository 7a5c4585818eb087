package dev.talus.sstable;

import dev.talus.io.StorageFs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.roaringbitmap.RoaringBitmap;

/**
 * Builds the term dictionary of one storage-attached index over one SSTable: every distinct term (a
 * value in an order-preserving byte encoding, compared as unsigned bytes) with the ids of the rows
 * that hold it. Terms and row ids may be added in any order; {@link #write} writes the component
 * laid out in docs/file-format.md ("SAI term dictionary"): blocks of {@value #BLOCK_TERMS}
 * front-coded terms, each followed by its postings (a RoaringBitmap), then a block index.
 *
 * <p>The terms are held in a sorted map, each with its row ids in an {@code int[]} (the first
 * element counts them), and {@link #heapBytes} is exactly the heap that map holds (HotSpot's
 * layout: 12-byte headers and 4-byte references below a 32 GiB heap, 16 and 8 above, 8-byte
 * alignment), so the caller can bound it: {@link #spill} writes what is held to a sorted run beside
 * the dictionary ({@link IndexTermRun}) and frees it. {@link #write} then spills what is still held
 * and merges the runs — a first pass counts the distinct terms, the second writes them, with the
 * block index spilled too — into the same bytes as if nothing had been spilled. Runs are merged
 * {@value #MAX_RUNS} at a time by level ({@link #spill}); a write reads at most that many at once.
 * {@link #close} deletes the runs. Not thread-safe.
 */
public final class IndexTermsWriter implements AutoCloseable {
  /** The component name in the file header. */
  static final String NAME = "SaiTerms";

  /** The layout version in the file header. */
  static final int VERSION = 1;

  /** Terms per block: the unit of a lookup read and of front coding. */
  static final int BLOCK_TERMS = 16;

  /** Runs read at once by a merge (each through a 64 KiB buffer). */
  static final int MAX_RUNS = 16;

  private static final boolean COMPRESSED = Runtime.getRuntime().maxMemory() < (31L << 30);
  private static final int HEADER = COMPRESSED ? 12 : 16;
  private static final int REF = COMPRESSED ? 4 : 8;

  /** A {@code TreeMap.Entry}: key, value, left, right and parent references and a boolean. */
  private static final long ENTRY = align(HEADER + 5L * REF + 1);

  private final StorageFs fs;
  private final Path file;
  private final long generation;
  private final TreeMap<byte[], int[]> terms = new TreeMap<>(Arrays::compareUnsigned);

  /** The runs, oldest first; their levels never increase along the list. */
  private final List<Run> runs = new ArrayList<>();

  /** A spilled run: level 0, or the merge of {@value #MAX_RUNS} runs of the level below. */
  private record Run(Path path, int level) {}

  private int nextRun;
  private long heap;
  private int maxRow = -1;

  /** A writer that holds every term in memory until {@link #write} (it cannot spill). */
  public IndexTermsWriter() {
    this(null, null, 0);
  }

  /**
   * A writer of dictionary {@code file} of the SSTable of {@code generation}, which can spill runs
   * beside it (named after it, {@code <file>.run<n>.tmp}).
   */
  public IndexTermsWriter(StorageFs fs, Path file, long generation) {
    this.fs = fs;
    this.file = file;
    this.generation = generation;
  }

  /** Records that row {@code rowId} holds {@code term}; returns the heap it added. */
  public long add(byte[] term, int rowId) {
    if (rowId < 0) {
      throw new IllegalArgumentException("row id must not be negative: " + rowId);
    }
    int[] rows = terms.get(term);
    long added = 0;
    if (rows == null) {
      rows = new int[2];
      terms.put(term.clone(), rows);
      added = ENTRY + byteArray(term.length) + intArray(2);
    } else if (rows[0] > 0 && rows[rows[0]] == rowId) {
      return 0; // the same row again (a value twice in a list)
    } else if (rows[0] + 1 == rows.length) {
      int[] grown = Arrays.copyOf(rows, rows.length + (rows.length >> 1) + 1);
      added = intArray(grown.length) - intArray(rows.length);
      rows = grown;
      terms.put(term, rows);
    }
    rows[++rows[0]] = rowId;
    maxRow = Math.max(maxRow, rowId);
    heap += added;
    return added;
  }

  /** The heap the terms held in memory take: every entry of the map, its key and its row ids. */
  public long heapBytes() {
    return heap;
  }

  /** The number of distinct terms held in memory (a spilled term is no longer held). */
  public int termCount() {
    return terms.size();
  }

  /** The number of runs spilled and not yet merged. */
  public int runCount() {
    return runs.size();
  }

  /**
   * Writes the terms held to a new run and frees them (their heap drops to 0). Runs are merged by
   * level, as a log-structured merge does: when the newest {@value #MAX_RUNS} runs are of one level
   * they become one run of the next, so a term is rewritten once per level (a logarithm of the
   * spills to base {@value #MAX_RUNS}), never once per spill.
   */
  public void spill() throws IOException {
    if (fs == null) {
      throw new IllegalStateException("this writer has no file to spill beside");
    }
    if (terms.isEmpty()) {
      return;
    }
    Path path = newRun();
    runs.add(new Run(path, 0)); // listed first, so that close deletes it even if writing fails
    try (TermSource held = held()) {
      IndexTermRun.write(fs, path, generation, held);
    }
    heap = 0;
    while (runs.size() >= MAX_RUNS
        && runs.get(runs.size() - MAX_RUNS).level() == runs.get(runs.size() - 1).level()) {
      mergeNewest(MAX_RUNS);
    }
  }

  /** Merges the newest {@code n} runs into one, a level above the highest of them. */
  private void mergeNewest(int n) throws IOException {
    List<Run> newest = List.copyOf(runs.subList(runs.size() - n, runs.size()));
    Path path = newRun();
    runs.add(new Run(path, newest.get(0).level() + 1));
    try (TermSource all = merge(newest)) {
      IndexTermRun.write(fs, path, generation, all);
    }
    runs.removeAll(newest);
    for (Run r : newest) {
      fs.delete(r.path());
    }
  }

  /**
   * Writes the dictionary to {@code file} (which must not exist), forced to storage, for an SSTable
   * of {@code generation} with {@code rowCount} rows; every row id added must be below it. The runs
   * are deleted once merged.
   */
  public void write(StorageFs fs, Path file, long generation, int rowCount) throws IOException {
    if (runs.isEmpty()) {
      if (maxRow >= rowCount) { // refused before the file is created
        throw new IllegalArgumentException(
            "row id " + maxRow + " is not below the row count " + rowCount);
      }
      try (TermSource held = held();
          TermDictionaryOutput out =
              new TermDictionaryOutput(fs, file, generation, rowCount, terms.size(), null)) {
        copy(held, out);
        out.finish();
      }
      heap = 0;
      return;
    }
    spill(); // what is held joins the runs: the merge reads them twice, and the heap is free
    while (runs.size() > MAX_RUNS) {
      mergeNewest(MAX_RUNS);
    }
    int count = 0;
    try (TermSource all = merge(runs)) {
      while (all.next()) {
        count++;
      }
    }
    Path scratch = this.file.resolveSibling(this.file.getFileName() + ".blocks.tmp");
    try (TermSource all = merge(runs);
        TermDictionaryOutput out =
            new TermDictionaryOutput(fs, file, generation, rowCount, count, scratch)) {
      copy(all, out);
      out.finish();
    }
    heap = 0;
    close();
  }

  private static void copy(TermSource terms, TermDictionaryOutput out) throws IOException {
    while (terms.next()) {
      RoaringBitmap rows = new RoaringBitmap();
      terms.rowsInto(rows);
      out.add(terms.term(), rows);
    }
  }

  /** The runs {@code runs} as one source. */
  private TermSource merge(List<Run> runs) throws IOException {
    List<TermSource> sources = new ArrayList<>(runs.size());
    try {
      for (Run r : runs) {
        sources.add(IndexTermRun.open(fs, r.path(), generation));
      }
      return new TermMerge(sources);
    } catch (IOException | RuntimeException e) {
      for (TermSource s : sources) {
        try {
          s.close();
        } catch (IOException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
    }
  }

  /** The name of a new run (listed in {@link #runs} before it is written). */
  private Path newRun() {
    return file.resolveSibling(file.getFileName() + ".run" + nextRun++ + ".tmp");
  }

  /**
   * The terms held in memory, in order, as a source that takes them out of the map as it goes (so a
   * spill frees their heap as it writes them; the map never caches a view object).
   */
  private TermSource held() {
    return new TermSource() {
      private Map.Entry<byte[], int[]> current;

      @Override
      public boolean next() {
        current = terms.pollFirstEntry();
        return current != null;
      }

      @Override
      public byte[] term() {
        return current.getKey();
      }

      @Override
      public void rowsInto(RoaringBitmap rows) {
        int[] ids = current.getValue();
        for (int i = 1; i <= ids[0]; i++) {
          rows.add(ids[i]);
        }
      }

      @Override
      public void close() {}
    };
  }

  /** Deletes the runs (a writer not written, or aborted). */
  @Override
  public void close() throws IOException {
    for (Run r : runs) {
      fs.delete(r.path());
    }
    runs.clear();
  }

  private static long byteArray(int length) {
    return align(HEADER + 4L + length);
  }

  private static long intArray(int length) {
    return align(HEADER + 4L + 4L * length);
  }

  private static long align(long bytes) {
    return (bytes + 7) & ~7L;
  }
}
