package dev.talus.compaction;

import dev.talus.data.DroppedCells;
import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionMerger;
import dev.talus.data.Slice;
import dev.talus.io.StorageFs;
import dev.talus.sstable.ChunkCache;
import dev.talus.sstable.Component;
import dev.talus.sstable.Manifest;
import dev.talus.sstable.SSTableDescriptor;
import dev.talus.sstable.SSTableOptions;
import dev.talus.sstable.SSTableReader;
import dev.talus.sstable.SSTableScanner;
import dev.talus.sstable.SSTableWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.function.IntPredicate;

/**
 * Runs one {@link CompactionPlan}: merges every partition of its inputs (a k-way merge by key, then
 * {@link PartitionMerger} over the versions of each key), purges what the {@link Purger} allows,
 * and writes the result into new SSTables, starting another output when one passes the plan's
 * {@code maxOutputBytes} of uncompressed partition data (only between partitions, so outputs are
 * sorted and never overlap). Fully expired SSTables ({@link CompactionPlan#expired()}) are never
 * opened or read: they only go away in the caller's swap.
 *
 * <p><b>What it does not do.</b> It never edits the manifest's live set. The caller makes the
 * result live atomically with {@code manifest.apply(outputs, inputs ∪ expired)} and then marks the
 * inputs obsolete (in the engine, its table's view tracker is the only code that does). A crash
 * before that leaves committed but unlisted outputs, which {@link Manifest#deleteUnlistedFiles()}
 * removes at the next open. On any exception (I/O, corruption, cancellation, a throttle interrupt)
 * every output written so far is aborted or deleted before the exception propagates.
 *
 * <p><b>Purging.</b> Configured with {@link Builder#purge}; without it nothing is purged or
 * converted (a plain rewrite, as Cassandra's upgrade and split do).
 *
 * <p>The plan's inputs are {@link ReaderInfo}s whose readers are live: the task takes its own
 * reference on each for the run. Not thread-safe: {@link #run()} once, from one thread.
 */
public final class CompactionTask {
  /**
   * Called between partitions. It may block (to pause the compaction) or throw {@link
   * CompactionInterruptedException} (to cancel it).
   */
  @FunctionalInterface
  public interface Checkpoint {
    Checkpoint NONE = () -> {};

    void check();
  }

  /**
   * What a finished compaction produced; the outputs are opened and owned by the caller (one
   * reference each).
   *
   * @param partitionsRead distinct partition keys merged
   * @param partitionsWritten partitions left after purging, written to the outputs
   * @param bytesRead on-disk bytes (all components) of the inputs, every one of which was read
   * @param bytesWritten on-disk bytes (all components) of the outputs
   * @param cellsRead cells decoded from the inputs
   * @param cellsWritten cells written (including expired cells kept as tombstones)
   * @param cellsPurged cell tombstones and expired cells the purge dropped
   * @param tombstonesPurged everything the purge dropped: partition deletions, range tombstones,
   *     row deletions, expired row markers and cells
   * @param expiredCellsConverted expired cells written as value-less tombstones
   */
  public record Result(
      CompactionPlan<ReaderInfo> plan,
      List<SSTableReader> outputs,
      long partitionsRead,
      long partitionsWritten,
      long bytesRead,
      long bytesWritten,
      long cellsRead,
      long cellsWritten,
      long cellsPurged,
      long tombstonesPurged,
      long expiredCellsConverted) {
    public Result {
      outputs = List.copyOf(outputs);
    }

    /**
     * Cells that went in the merge: shadowed by a partition, range or row deletion, or superseded
     * by a newer version of the same cell. Cells of a source the merger skipped whole (all older
     * than the partition deletion) are not read and not counted.
     */
    public long cellsShadowedOrSuperseded() {
      return cellsRead - cellsWritten - cellsPurged;
    }

    public List<Long> outputGenerations() {
      return outputs.stream().map(SSTableReader::generation).toList();
    }

    /** The generations the swap removes: the inputs and the fully expired SSTables. */
    public List<Long> removedGenerations() {
      List<Long> g = new ArrayList<>();
      plan.inputs().forEach(s -> g.add(s.generation()));
      plan.expired().forEach(s -> g.add(s.generation()));
      return g;
    }
  }

  private final CompactionPlan<ReaderInfo> plan;
  private final StorageFs fs;
  private final Path directory;
  private final Manifest manifest;
  private final SSTableOptions outputOptions;
  private final ChunkCache cache;
  private final long nowSeconds;
  private final long gcBeforeSeconds;
  private final OverlapOracle overlap;
  private final Throttle throttle;
  private final Checkpoint checkpoint;
  private final IntPredicate droppedColumns;
  private boolean ran;

  private CompactionTask(Builder b) {
    this.plan = b.plan;
    this.fs = b.fs;
    this.directory = b.directory;
    this.manifest = b.manifest;
    this.outputOptions = b.options.toBuilder().level(b.plan.outputLevel()).build();
    this.cache = b.cache;
    this.nowSeconds = b.nowSeconds;
    this.gcBeforeSeconds = b.gcBeforeSeconds;
    this.overlap = b.overlap;
    this.throttle = b.throttle;
    this.checkpoint = b.checkpoint;
    this.droppedColumns = b.droppedColumns;
  }

  /**
   * Starts a task for {@code plan}: outputs go to {@code directory} under generations from {@code
   * manifest}, through {@code fs}.
   */
  public static Builder builder(
      CompactionPlan<ReaderInfo> plan, StorageFs fs, Path directory, Manifest manifest) {
    return new Builder(plan, fs, directory, manifest);
  }

  public CompactionPlan<ReaderInfo> plan() {
    return plan;
  }

  /** One input being scanned, with its current partition. */
  private static final class Input {
    final int index;
    final SSTableScanner scanner;
    final long bytesPerPartition;
    PartitionData head;

    Input(int index, SSTableReader reader) {
      this.index = index;
      this.scanner = reader.scanner();
      this.bytesPerPartition =
          Math.max(1, reader.onDiskSize() / Math.max(1, reader.stats().partitionCount()));
    }

    boolean advance() {
      head = scanner.hasNext() ? scanner.next() : null;
      return head != null;
    }
  }

  /**
   * Merges, purges and writes. Returns the committed, opened outputs (each holding the one
   * reference the caller owns) and the counts.
   *
   * @throws CompactionInterruptedException if cancelled; nothing is left behind
   * @throws IOException on an I/O failure; nothing is left behind
   */
  public Result run() throws IOException {
    if (ran) {
      throw new IllegalStateException("a CompactionTask runs once");
    }
    ran = true;
    List<SSTableReader> readers = new ArrayList<>();
    try {
      for (ReaderInfo s : plan.inputs()) {
        SSTableReader r = s.reader();
        if (!r.tryRef()) {
          throw new IllegalStateException("compaction input " + r + " is already released");
        }
        readers.add(r);
      }
      return compact(readers);
    } finally {
      for (SSTableReader r : readers) {
        r.release();
      }
    }
  }

  private Result compact(List<SSTableReader> readers) throws IOException {
    long totalKeys = 0;
    long totalRows = 0;
    long totalData = 0;
    long bytesRead = 0;
    for (SSTableReader r : readers) {
      totalKeys += r.stats().partitionCount();
      totalRows += r.stats().rowCount();
      totalData += r.dataSize();
      bytesRead += r.onDiskSize();
    }
    long expectedKeys = Math.max(1, totalKeys);
    if (plan.maxOutputBytes() != Long.MAX_VALUE && totalKeys > 0) {
      long perPartition = Math.max(1, totalData / totalKeys);
      expectedKeys = Math.max(1, Math.min(totalKeys, plan.maxOutputBytes() / perPartition + 1));
    }
    // rows per output in the inputs' proportion of rows to partitions (an overestimate when the
    // inputs overlap, which only lowers the row filter's false-positive rate)
    long expectedRows =
        totalKeys == 0 ? 1 : Math.max(1, (long) ((double) totalRows / totalKeys * expectedKeys));

    Purger purger = new Purger(nowSeconds, gcBeforeSeconds);
    CountingPartition.Counts counts = new CountingPartition.Counts();
    List<SSTableWriter> finished = new ArrayList<>();
    List<SSTableDescriptor> committed = new ArrayList<>();
    List<SSTableReader> outputs = new ArrayList<>();
    SSTableWriter writer = null;
    long partitionsRead = 0;
    long partitionsWritten = 0;
    try {
      PriorityQueue<Input> queue =
          new PriorityQueue<>(
              Math.max(1, readers.size()),
              (a, b) -> {
                int c = a.head.key().compareTo(b.head.key());
                return c != 0 ? c : Integer.compare(a.index, b.index);
              });
      for (int i = 0; i < readers.size(); i++) {
        Input in = new Input(i, readers.get(i));
        if (in.advance()) {
          queue.add(in);
        }
      }
      List<Input> same = new ArrayList<>(readers.size());
      List<PartitionData> sources = new ArrayList<>(readers.size());
      while (!queue.isEmpty()) {
        checkpoint.check();
        same.clear();
        sources.clear();
        Input top = queue.poll();
        PartitionKey key = top.head.key();
        same.add(top);
        while (!queue.isEmpty() && queue.peek().head.key().equals(key)) {
          same.add(queue.poll());
        }
        long bytes = 0;
        for (Input in : same) {
          sources.add(new CountingPartition(in.head, counts));
          bytes += in.bytesPerPartition;
        }
        throttle.acquire(bytes);
        partitionsRead++;
        PartitionMerger.Merged merged = PartitionMerger.merge(key, sources, Slice.ALL, false);
        if (droppedColumns != null) {
          merged =
              new PartitionMerger.Merged(
                  merged.key(),
                  merged.partitionDeletion(),
                  merged.rangeDeletions(),
                  DroppedCells.strip(merged.rows(), droppedColumns),
                  merged.sourcesUsed());
        }
        Purger.Purged purged = purger.purge(merged, () -> overlap.maxPurgeableTimestamp(key));
        if (purged != null) {
          if (writer == null) {
            writer =
                SSTableWriter.create(
                    fs,
                    directory,
                    manifest.newGeneration(),
                    expectedKeys,
                    expectedRows,
                    outputOptions);
          }
          writer.append(
              purged.key(),
              purged.partitionDeletion(),
              purged.rangeTombstones(),
              new CountingPartition.CountingRows(purged.rows(), counts, false));
          partitionsWritten++;
          if (writer.uncompressedBytes() >= plan.maxOutputBytes()) {
            writer.prepareToCommit();
            finished.add(writer);
            writer = null;
          }
        }
        for (Input in : same) {
          if (in.advance()) {
            queue.add(in);
          }
        }
      }
      checkpoint.check();
      if (writer != null) {
        writer.prepareToCommit();
        finished.add(writer);
        writer = null;
      }
      for (SSTableWriter w : finished) {
        committed.add(w.commit());
      }
      long bytesWritten = 0;
      for (SSTableDescriptor d : committed) {
        SSTableReader r = SSTableReader.open(fs, directory, d.generation(), cache);
        outputs.add(r);
        bytesWritten += r.onDiskSize();
      }
      return new Result(
          plan,
          outputs,
          partitionsRead,
          partitionsWritten,
          bytesRead,
          bytesWritten,
          counts.cellsRead,
          counts.cellsWritten,
          purger.cellsPurged(),
          purger.tombstonesPurged(),
          purger.expiredCellsConverted());
    } catch (IOException | RuntimeException | Error e) {
      if (writer != null) {
        writer.abort();
      }
      for (SSTableWriter w : finished) {
        w.abort(); // a no-op for the committed ones, deleted below
      }
      for (SSTableReader r : outputs) {
        r.release();
      }
      for (SSTableDescriptor d : committed) {
        deleteQuietly(d, e);
      }
      throw e;
    }
  }

  private void deleteQuietly(SSTableDescriptor d, Throwable failure) {
    try {
      // TOC first, so a crash half-way leaves a visibly incomplete set.
      fs.delete(d.path(Component.TOC));
      for (Component c : Component.values()) {
        fs.delete(d.path(c));
      }
      fs.syncDirectory(d.directory());
    } catch (IOException | RuntimeException suppressed) {
      // Unlisted in the manifest: removed by deleteUnlistedFiles at the next open.
      failure.addSuppressed(suppressed);
    }
  }

  @Override
  public String toString() {
    return "CompactionTask{" + plan.reason() + ", inputs=" + plan.inputs().size() + "}";
  }

  /** Not thread-safe. */
  public static final class Builder {
    private final CompactionPlan<ReaderInfo> plan;
    private final StorageFs fs;
    private final Path directory;
    private final Manifest manifest;
    private SSTableOptions options = SSTableOptions.DEFAULTS;
    private ChunkCache cache = ChunkCache.disabled();
    private long nowSeconds = Long.MIN_VALUE;
    private long gcBeforeSeconds = Long.MIN_VALUE;
    private OverlapOracle overlap = key -> Long.MIN_VALUE;
    private Throttle throttle = Throttle.unlimited();
    private Checkpoint checkpoint = Checkpoint.NONE;
    private IntPredicate droppedColumns;

    private Builder(
        CompactionPlan<ReaderInfo> plan, StorageFs fs, Path directory, Manifest manifest) {
      this.plan = Objects.requireNonNull(plan, "plan");
      this.fs = Objects.requireNonNull(fs, "fs");
      this.directory = Objects.requireNonNull(directory, "directory");
      this.manifest = Objects.requireNonNull(manifest, "manifest");
    }

    /**
     * How outputs are written: compression, chunk size, Bloom fp chance, block size and creation
     * time (set {@code createdAt} to the engine clock). The level is taken from the plan.
     */
    public Builder options(SSTableOptions template) {
      this.options = Objects.requireNonNull(template, "options");
      return this;
    }

    /** The cache the opened outputs use. Default: none. */
    public Builder chunkCache(ChunkCache cache) {
      this.cache = Objects.requireNonNull(cache, "cache");
      return this;
    }

    /**
     * Turns purging on: TTL data expired at {@code nowSeconds} is converted or dropped, and
     * deletions before {@code gcBeforeSeconds} whose timestamp is below {@code overlap}'s answer
     * are dropped (see {@link Purger}).
     */
    public Builder purge(long nowSeconds, long gcBeforeSeconds, OverlapOracle overlap) {
      if (gcBeforeSeconds > nowSeconds) {
        throw new IllegalArgumentException(
            "gcBefore (" + gcBeforeSeconds + ") is after now (" + nowSeconds + ")");
      }
      this.nowSeconds = nowSeconds;
      this.gcBeforeSeconds = gcBeforeSeconds;
      this.overlap = Objects.requireNonNull(overlap, "overlap");
      return this;
    }

    public Builder throttle(Throttle throttle) {
      this.throttle = Objects.requireNonNull(throttle, "throttle");
      return this;
    }

    /**
     * Column ids of dropped columns: their cells and complex deletions are left out of the outputs
     * (see {@link DroppedCells}), with or without purging. Default: none.
     */
    public Builder droppedColumns(IntPredicate dropped) {
      this.droppedColumns = Objects.requireNonNull(dropped, "dropped");
      return this;
    }

    public Builder checkpoint(Checkpoint checkpoint) {
      this.checkpoint = Objects.requireNonNull(checkpoint, "checkpoint");
      return this;
    }

    /**
     * @throws IllegalArgumentException if an input appears twice, or an SSTable is both an input
     *     and expired, or (through an unchecked conversion) an input is not a {@link ReaderInfo}
     */
    public CompactionTask build() {
      List<Long> seen = new ArrayList<>();
      for (Object o : (List<?>) plan.inputs()) {
        if (!(o instanceof ReaderInfo s)) {
          throw new IllegalArgumentException(
              "compaction inputs must be ReaderInfo (an open SSTableReader), got " + o);
        }
        if (seen.contains(s.generation())) {
          throw new IllegalArgumentException("generation " + s.generation() + " is input twice");
        }
        seen.add(s.generation());
      }
      for (SSTableInfo s : plan.expired()) {
        if (seen.contains(s.generation())) {
          throw new IllegalArgumentException(
              "generation " + s.generation() + " is both an input and fully expired");
        }
      }
      if (plan.maxOutputBytes() <= 0) {
        throw new IllegalArgumentException(
            "maxOutputBytes must be positive, got " + plan.maxOutputBytes());
      }
      return new CompactionTask(this);
    }
  }
}
