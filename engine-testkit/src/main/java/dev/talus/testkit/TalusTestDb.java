package dev.talus.testkit;

import dev.talus.CommitLogSync;
import dev.talus.ManualClock;
import dev.talus.SSTableSummary;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A Talus database for one test: a fresh directory, a {@link ManualClock}, background compaction
 * off and the commit log in {@link CommitLogSync#PERIODIC} mode (no fsync per write), plus the
 * helpers a data-model test needs — move the clock past gc_grace or a TTL exactly, flush and
 * compact on demand, crash and reopen.
 *
 * <h2>Time boundaries (the rules of docs/tombstones.md, to the second)</h2>
 *
 * <ul>
 *   <li>A tombstone written at second {@code D} (its local deletion time) is purgeable by a
 *       compaction running at {@code now} iff {@code D < now − gc_grace}, strictly. So at {@code D
 *       + gc_grace} it is still kept and from {@code D + gc_grace + 1 s} it may go. {@link
 *       #advanceToEndOfGcGrace(Table)} moves to the last second it is kept, {@link
 *       #advancePastGcGrace(Table)} to the first second it may go — for a tombstone written now.
 *   <li>A cell written at second {@code W} with TTL {@code t} is live while {@code now < W + t} and
 *       expired from {@code W + t}. {@link #advancePastTtl(Duration)} moves to that first expired
 *       second for data written now.
 * </ul>
 *
 * <p>Every compaction the helpers run is recorded ({@link #history(Table)}), so a test can ask
 * which SSTables were dropped whole. Not thread-safe: one test drives it. {@link #close()} closes
 * the database and deletes the directory when this instance created it; it is idempotent.
 */
public final class TalusTestDb implements AutoCloseable {
  /** Where new test clocks start unless told otherwise: 2026-01-01T00:00:00Z. */
  public static final Instant DEFAULT_START = Instant.parse("2026-01-01T00:00:00Z");

  private final Path dir;
  private final boolean ownsDirectory;
  private final ManualClock clock;
  private final FaultInjector faults;
  private final Consumer<TalusOptions.Builder> customizer;
  private final Map<String, List<CompactionReport>> history = new ConcurrentHashMap<>();
  private final Warnings warnings = new Warnings();
  private TalusDb db;
  private boolean closed;

  private TalusTestDb(
      Path dir,
      boolean ownsDirectory,
      ManualClock clock,
      FaultInjector faults,
      Consumer<TalusOptions.Builder> customizer) {
    this.dir = dir;
    this.ownsDirectory = ownsDirectory;
    this.clock = clock;
    this.faults = faults;
    this.customizer = customizer;
    this.db = openDb();
  }

  private TalusDb openDb() {
    return faults == null ? TalusDb.open(options()) : faults.open(options());
  }

  /** A fresh database in a new temporary directory (deleted on close), clock at 2026-01-01. */
  public static TalusTestDb create() {
    return builder().open();
  }

  /** Like {@link #create()}, with every file operation going through a fault injector. */
  public static TalusTestDb withFaults(long seed) {
    return builder().faults(new FaultInjector(seed)).open();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The options every open (and {@link #reopen()}) uses. */
  public TalusOptions options() {
    TalusOptions.Builder b =
        TalusOptions.builder(dir)
            .clock(clock)
            .backgroundCompaction(false)
            .commitLogSync(CommitLogSync.PERIODIC)
            .commitLogSegmentBytes(1 << 20)
            .chunkCacheBytes(1 << 20)
            .readThreads(1);
    customizer.accept(b);
    // capture warnings, still forwarding every event to a listener the test set
    return b.metricsListener(warnings.capturing(b.build().metricsListener())).build();
  }

  /**
   * The data-model, tombstone and guardrail warnings this database produced (across reopens): what
   * the engine logs at WARN, captured even without an SLF4J binding.
   */
  public Warnings warnings() {
    return warnings;
  }

  public TalusDb db() {
    checkOpen();
    return db;
  }

  public ManualClock clock() {
    return clock;
  }

  public Path directory() {
    return dir;
  }

  /** The fault injector under this database; {@link IllegalStateException} if it has none. */
  public FaultInjector faults() {
    if (faults == null) {
      throw new IllegalStateException(
          "this TalusTestDb has no fault injector: create it with TalusTestDb.withFaults(seed) or"
              + " builder().faults(...)");
    }
    return faults;
  }

  public Table createTable(TableSchema schema) {
    return db().createTable(schema);
  }

  public Table table(String name) {
    return db().table(name);
  }

  /** The clock's current time. */
  public Instant now() {
    return clock.instant();
  }

  // ------------------------------------------------------------------ time

  /** Moves the clock forward by {@code d} and returns the new time. */
  public Instant advance(Duration d) {
    return clock.advance(d);
  }

  /**
   * Moves the clock forward by the table's gc_grace + 1 s: a tombstone written before this call (at
   * the current second or earlier) is now past gc_grace and may be purged by the next compaction
   * that includes it ({@code ldt < now − gc_grace}).
   */
  public Instant advancePastGcGrace(Table table) {
    return clock.advance(table.schema().gcGrace().plusSeconds(1));
  }

  /**
   * Moves the clock forward by exactly the table's gc_grace: the last second at which a tombstone
   * written at the current second is still kept ({@code ldt == now − gc_grace}).
   */
  public Instant advanceToEndOfGcGrace(Table table) {
    return clock.advance(table.schema().gcGrace());
  }

  /**
   * Moves the clock forward by {@code ttl}: data written at the current second with that TTL is
   * expired from this second on (it was live one second earlier).
   */
  public Instant advancePastTtl(Duration ttl) {
    return clock.advance(ttl);
  }

  /** {@code now − gc_grace} of the table: tombstones deleted strictly before it are purgeable. */
  public Instant gcBefore(Table table) {
    return now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).minus(table.schema().gcGrace());
  }

  // ------------------------------------------------------------------ drive the engine

  /** Flushes the table's memtable to a new SSTable and returns it (null if nothing was flushed). */
  public SSTableSummary flush(Table table) {
    List<SSTableSummary> before = table.sstables();
    table.flush();
    List<SSTableSummary> created = CompactionReport.minus(table.sstables(), before);
    return created.isEmpty() ? null : created.get(created.size() - 1);
  }

  /** A major compaction of the table (every SSTable), recorded in {@link #history}. */
  public CompactionReport compactAll(Table table) {
    return record(table, "compactAll", table::compact);
  }

  /**
   * Compacts exactly these SSTables together (a user-defined compaction), e.g. only the newer one
   * to reproduce "the tombstone is kept because an older SSTable overlaps".
   */
  public CompactionReport compact(Table table, SSTableSummary... sstables) {
    if (sstables.length == 0) {
      throw new IllegalArgumentException("name at least one SSTable to compact");
    }
    List<Long> gens = Arrays.stream(sstables).map(SSTableSummary::generation).toList();
    return record(table, "compact " + gens, () -> table.compact(gens));
  }

  /** Runs the compaction the table's strategy proposes now, if any, and records it. */
  public CompactionReport runNextCompaction(Table table) {
    boolean[] ran = new boolean[1];
    CompactionReport r =
        record(table, "runNextCompaction", () -> ran[0] = table.runNextCompaction());
    return ran[0] ? r : r.withNothingRun();
  }

  /**
   * Flushes, then runs the strategy's compactions until it proposes none — the state a quiet
   * production table would reach at this clock time.
   */
  public CompactionReport settle(Table table) {
    return record(
        table,
        "settle",
        () -> {
          table.flush();
          table.awaitCompactions();
        });
  }

  /** Every compaction run through this instance on the table, oldest first. */
  public List<CompactionReport> history(Table table) {
    return List.copyOf(history.getOrDefault(table.name(), List.of()));
  }

  /** Generations the recorded compactions dropped whole (fully expired), oldest first. */
  public List<Long> droppedWhole(Table table) {
    return history(table).stream().flatMap(r -> r.droppedWhole().stream()).toList();
  }

  private CompactionReport record(Table table, String what, Runnable action) {
    List<SSTableSummary> before = table.sstables();
    long droppedBefore = table.stats().sstablesDroppedExpired();
    Instant gcBefore = gcBefore(table);
    action.run();
    CompactionReport r =
        new CompactionReport(
            what,
            now(),
            gcBefore,
            before,
            table.sstables(),
            table.stats().sstablesDroppedExpired() - droppedBefore);
    history.computeIfAbsent(table.name(), n -> new ArrayList<>()).add(r);
    return r;
  }

  // ------------------------------------------------------------------ inspect

  /** Why this partition still holds tombstones or expired data ({@link TombstoneExplainer}). */
  public Explanation explain(Table table, Object... partitionKey) {
    return TombstoneExplainer.explain(clock, table, partitionKey);
  }

  /** Why this SSTable has not been dropped whole as fully expired. */
  public Explanation explainSSTable(Table table, long generation) {
    return TombstoneExplainer.explainSSTable(clock, table, generation);
  }

  // ------------------------------------------------------------------ crash and reopen

  /**
   * The process dies and the machine loses power: whatever was not fsynced may be lost (in PERIODIC
   * mode that includes recent writes). Needs a fault injector ({@link #withFaults(long)}); follow
   * with {@link #reopen()}.
   */
  public void crashAndLosePower() {
    faults().crashAndLosePower(db());
  }

  /** Like {@link #crashAndLosePower()}, keeping nothing that was not fsynced. */
  public void crashAndLoseAllUnsynced() {
    faults().crashAndLoseAllUnsynced(db());
  }

  /** The process dies (the machine keeps running, so the OS keeps every written byte). */
  public void crash() {
    FaultInjector.crash(db());
  }

  /**
   * Closes the database (if still open) and opens it again on the same directory, clock and fault
   * injector, replaying the commit log. Table handles from before are dead: get them again with
   * {@link #table(String)}.
   */
  public TalusDb reopen() {
    if (closed) {
      throw new IllegalStateException("this TalusTestDb is closed");
    }
    db.close();
    db = openDb();
    return db;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("this TalusTestDb is closed");
    }
  }

  /** Closes the database and, if this instance created the directory, deletes it. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      db.close();
    } finally {
      if (ownsDirectory) {
        deleteRecursively(dir);
      }
    }
  }

  static void deleteRecursively(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not delete the test directory " + root, e);
    }
  }

  @Override
  public String toString() {
    return "TalusTestDb{" + dir + ", " + clock + (faults == null ? "" : ", with faults") + "}";
  }

  /** Options for a {@link TalusTestDb}. Not thread-safe. */
  public static final class Builder {
    private Path directory;
    private Instant start = DEFAULT_START;
    private FaultInjector faults;
    private Consumer<TalusOptions.Builder> customizer = b -> {};

    private Builder() {}

    /** Use this directory (kept on close) instead of a new temporary one (deleted on close). */
    public Builder directory(Path dir) {
      this.directory = Objects.requireNonNull(dir, "dir");
      return this;
    }

    /** Where the manual clock starts (default {@link TalusTestDb#DEFAULT_START}). */
    public Builder clockAt(Instant start) {
      this.start = Objects.requireNonNull(start, "start");
      return this;
    }

    /** Route every file operation through this injector. */
    public Builder faults(FaultInjector injector) {
      this.faults = injector;
      return this;
    }

    /**
     * Adjust the options after the testkit's defaults, e.g. {@code b ->
     * b.backgroundCompaction(true)}; the clock and the fault injector stay the testkit's.
     */
    public Builder options(Consumer<TalusOptions.Builder> customizer) {
      this.customizer = Objects.requireNonNull(customizer, "customizer");
      return this;
    }

    public TalusTestDb open() {
      Path dir = directory;
      boolean owns = dir == null;
      if (owns) {
        try {
          dir = Files.createTempDirectory("talus-test-");
        } catch (IOException e) {
          throw new UncheckedIOException("could not create a temporary directory", e);
        }
      }
      ManualClock clock = new ManualClock(start);
      Consumer<TalusOptions.Builder> c = customizer;
      FaultInjector f = faults;
      Consumer<TalusOptions.Builder> keepOurs =
          b -> {
            c.accept(b);
            b.clock(clock);
          };
      try {
        return new TalusTestDb(dir, owns, clock, f, keepOurs);
      } catch (RuntimeException e) {
        if (owns) {
          deleteRecursively(dir);
        }
        throw e;
      }
    }
  }
}
