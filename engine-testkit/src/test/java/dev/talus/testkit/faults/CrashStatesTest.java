package dev.talus.testkit.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.Batch;
import dev.talus.ClusteringOrder;
import dev.talus.CommitLogSync;
import dev.talus.CompactionOptions;
import dev.talus.DataType;
import dev.talus.ManualClock;
import dev.talus.ResultRow;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.io.NioStorageFs;
import dev.talus.sstable.Manifest;
import dev.talus.testkit.FaultInjector;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash states, not only crash moments (after ALICE and CrashMonkey): one operation — a flush with
 * its manifest edit and commit-log cleanup, a compaction with its manifest swap and deletes, a
 * schema change (a new table with its directory and manifest, then a compaction change), or a run
 * of acknowledged writes that rolls a commit-log segment — is run once to count its changing file
 * operations (creates, writes, fsyncs, renames, deletes, directory fsyncs), then once per crash
 * point k = 0 … n, halting the file system before operation k + 1. For each crash point the test
 * opens the database in the states the disk may legally be in:
 *
 * <ul>
 *   <li><b>prefix</b> — operations 1 … k all reached the disk, none after (a process crash at k;
 *       over all k, every prefix of the operation sequence);
 *   <li><b>durable</b> — a power loss at k: only what was fsynced survives, and a created, renamed
 *       or deleted name only if its directory was fsynced after it (renames not durable without a
 *       directory fsync are undone, deleted files come back);
 *   <li><b>mixed</b> (seeded) — a power loss at k where each unsynced write survives whole, torn or
 *       not at all, independently (writes reordered within and across files).
 * </ul>
 *
 * <p>In each state: the database opens; every acknowledged write is there (written in BATCH mode:
 * before the operation, or by it and returned before the crash; the write in flight may or may not
 * be there) and every schema change that returned; no deleted row comes back (the compaction purges
 * tombstones, so a resurrected input would show its shadowed rows); nothing else appears; no
 * temporary or unlisted SSTable file is left; and writes and a flush work (and a compaction, in the
 * prefix states). A fourth state, <b>double damage</b>, is the durable state with table t's
 * manifest and seal both cut back by one edit (damage, not a crash): the open must refuse the table
 * when an SSTable's TOC names the lost edit, and open as usual when none does (the edit was then
 * never acknowledged). The default run checks the durable state at every crash point of each
 * operation, and the prefix, double-damage and one mixed state at every fourth; the {@code crash}
 * profile ({@code mvn -Pcrash verify}) checks every state at every crash point, with {@code
 * talus.crashstates.seeds} (20) mixed states each.
 */
class CrashStatesTest {
  static void copyTree(Path from, Path to) {
    CrashStateFiles.copyTree(from, to);
  }

  static void deleteTree(Path d) {
    CrashStateFiles.deleteTree(d);
  }

  private static Path manifestOf(Path dbDir) {
    return CrashStateFiles.manifestOf(dbDir);
  }

  @TempDir Path tmp;

  enum Operation {
    FLUSH,
    COMPACTION,
    /** Creating a table, then changing another table's compaction strategy (schema.db). */
    SCHEMA_CHANGE,
    /** Six acknowledged 20 KB writes, one after the other, rolling a commit-log segment. */
    COMMIT_LOG_ROLL,
    /**
     * A flush whose manifest edit takes the manifest past {@link Manifest#REWRITE_THRESHOLD}, so
     * the manifest is rewritten as one snapshot (MANIFEST.db.tmp and MANIFEST.seal.tmp, their
     * renames, the directory fsync).
     */
    MANIFEST_REWRITE
  }

  enum State {
    PREFIX,
    DURABLE,
    MIXED,
    /**
     * The durable state, then damage no crash leaves ({@link ManifestDamage}): the manifest's last
     * complete record and the seal's last record cut off (or the seal deleted). If a TOC names the
     * lost edit, the open must refuse the table; if none does, the edit was never acknowledged and
     * the state must open like any other.
     */
    DOUBLE_DAMAGE
  }

  private static final Map<String, Integer> CHECKED = new TreeMap<>();

  /** Double-damage states whose lost edit a TOC named, so the open had to refuse the table. */
  private static final Map<String, Integer> REFUSED = new TreeMap<>();

  private final ManualClock clock = ManualClock.startingAtDefault();

  private TalusOptions options(Path dir) {
    return TalusOptions.builder(dir)
        .commitLogSync(CommitLogSync.BATCH) // acknowledged means synced
        .commitLogSegmentBytes(64 << 10)
        .backgroundCompaction(false)
        .clock(clock)
        .build();
  }

  private static TableSchema schema() {
    return schema("t");
  }

  private static TableSchema schema(String name) {
    return TableSchema.builder(name)
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT, ClusteringOrder.ASC)
        .column("v", DataType.TEXT)
        .gcGrace(Duration.ZERO) // compaction purges tombstones and what they shadow
        .compaction(CompactionOptions.sizeTiered().minThreshold(2).build())
        .build();
  }

  /** Rows the database must hold: p * 1000 + c → v. */
  private static final class Expected {
    final TreeMap<Integer, String> rows = new TreeMap<>();

    /** A write that was running when the machine stopped: it may or may not be there. */
    Integer inFlightKey;

    String inFlightValue;

    /** Schema changes that returned, so must survive. */
    boolean tableCreated;

    boolean strategyChanged;
  }

  private static void put(Table t, Expected e, int p, int c, String v) {
    t.insert().value("p", p).value("c", c).value("v", v).execute();
    e.rows.put(p * 1000 + c, v);
  }

  /** A cleanly closed directory that every crash state starts from, and its rows. */
  private Path base;

  private Expected baseRows;

  /** The base directory with table t's manifest filled to just under its rewrite threshold. */
  private Path fullManifestBase;

  private Path base(Operation op) {
    prepareBase();
    if (op != Operation.MANIFEST_REWRITE) {
      return base;
    }
    if (fullManifestBase == null) {
      fullManifestBase = tmp.resolve("base-full-manifest");
      copyTree(base, fullManifestBase);
      fillManifest(manifestOf(fullManifestBase).getParent());
    }
    return fullManifestBase;
  }

  /**
   * Appends edits that change nothing in the end (40 unused generations added, then removed; then
   * empty edits) until the manifest is within one flush edit of its rewrite threshold.
   */
  private static void fillManifest(Path tableDir) {
    try (Manifest m = Manifest.open(new NioStorageFs(), tableDir)) {
      while (m.sizeInBytes() < Manifest.REWRITE_THRESHOLD - 400) {
        List<Long> unused = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
          unused.add(m.newGeneration());
        }
        m.apply(unused, List.of());
        m.apply(List.of(), unused);
      }
      // an empty edit is 19 bytes here, a flush's edit 22: the flush crosses the threshold
      while (m.sizeInBytes() <= Manifest.REWRITE_THRESHOLD - 20) {
        m.apply(List.of(), List.of());
      }
      assertThat(m.sizeInBytes())
          .isBetween(Manifest.REWRITE_THRESHOLD - 20, Manifest.REWRITE_THRESHOLD);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The directory before the operation, made once and copied for each crash state: two SSTables,
   * the newer one deleting rows of the older (cells and a partition).
   */
  private void prepareBase() {
    if (base != null) {
      return;
    }
    base = tmp.resolve("base");
    baseRows = new Expected();
    try (TalusDb db = new FaultInjector(0).open(options(base))) {
      prepareSSTables(db, baseRows);
    }
  }

  /** A copy of the base directory, opened, with acknowledged rows in the memtable only. */
  private TalusDb openPrepared(Operation op, FaultInjector faults, Path dir, Expected e) {
    Path from = base(op);
    copyTree(from, dir);
    e.rows.putAll(baseRows.rows);
    TalusDb db = faults.open(options(dir));
    Table t = db.table("t");
    // 12 rows of 6 KB in batches of 4: they fill more than one 64 KiB commit-log segment, so the
    // flush also deletes a segment it made redundant
    for (int round = 0; round < 3; round++) {
      Batch b = db.batch();
      for (int i = round * 4; i < round * 4 + 4; i++) {
        String v = "mem-" + i + "-" + "x".repeat(6000);
        b.add(t.insert().value("p", i % 3).value("c", 100 + i).value("v", v));
        e.rows.put((i % 3) * 1000 + 100 + i, v);
      }
      b.execute();
    }
    return db;
  }

  private void prepareSSTables(TalusDb db, Expected e) {
    Table t = db.createTable(schema());
    // one logged batch per step: a handful of commit-log fsyncs, not one per row
    Batch b = db.batch();
    for (int i = 0; i < 24; i++) {
      b.add(t.insert().value("p", i % 3).value("c", i).value("v", "old-" + i));
      e.rows.put((i % 3) * 1000 + i, "old-" + i);
    }
    b.execute();
    t.flush();
    b = db.batch();
    for (int i = 0; i < 24; i += 4) {
      b.add(t.delete().eq("p", i % 3).eq("c", i));
      e.rows.remove((i % 3) * 1000 + i);
    }
    b.add(t.delete().eq("p", 2)); // a partition deletion too
    e.rows.keySet().removeIf(k -> k / 1000 == 2);
    b.execute();
    put(t, e, 2, 500, "after-the-partition-delete");
    t.flush();
    clock.advance(Duration.ofSeconds(30)); // past gc_grace (0) for every tombstone
  }

  private static void run(Operation op, TalusDb db, Table t, Expected e) {
    switch (op) {
      case FLUSH, MANIFEST_REWRITE -> t.flush();
      case COMPACTION -> t.compact();
      case SCHEMA_CHANGE -> {
        db.createTable(schema("u"));
        e.tableCreated = true;
        t.setCompaction(CompactionOptions.leveled().build());
        e.strategyChanged = true;
      }
      case COMMIT_LOG_ROLL -> {
        for (int i = 0; i < 6; i++) {
          String v = "roll-" + i + "-" + "y".repeat(20_000);
          e.inFlightKey = 1000 + 200 + i;
          e.inFlightValue = v;
          put(t, e, 1, 200 + i, v);
          e.inFlightKey = null;
        }
      }
    }
  }

  /** Null if the schema changes that returned survived, else what is missing. */
  private static String schemaDiff(TalusDb db, Expected e) {
    if (e.tableCreated && db.findTable("u").isEmpty()) {
      return "created table u lost";
    }
    CompactionOptions.Strategy s = db.table("t").schema().compaction().strategy();
    if (e.strategyChanged && s != CompactionOptions.Strategy.LEVELED) {
      return "compaction change of t lost: " + s;
    }
    return null;
  }

  /** The changing file operations the operation makes, counted on a fault-free run. */
  private long measure(Operation op) {
    Path dir = tmp.resolve(op + "-measure");
    FaultInjector faults = new FaultInjector(1);
    try (TalusDb db = openPrepared(op, faults, dir, new Expected())) {
      Table t = db.table("t");
      long before = faults.changes();
      run(op, db, t, new Expected());
      if (op == Operation.MANIFEST_REWRITE) {
        assertThat(Files.size(manifestOf(dir)))
            .as("the flush rewrote the manifest")
            .isLessThan(1024);
      }
      return faults.changes() - before;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Checks the DURABLE state at every crash point, and the PREFIX and MIXED states ({@code
   * mixedSeeds} of them) at every {@code stride}-th crash point and the last.
   */
  private void enumerate(Operation op, int mixedSeeds, int stride) {
    long n = measure(op);
    assertThat(n).as("%s changes files", op).isGreaterThan(5);
    int states = 0;
    for (long k = 0; k <= n; k++) {
      for (State s : State.values()) {
        if (s != State.DURABLE && k % stride != 0 && k != n) {
          continue;
        }
        if (s == State.DOUBLE_DAMAGE
            && (op == Operation.SCHEMA_CHANGE || op == Operation.COMMIT_LOG_ROLL)) {
          continue; // the operation makes no edit of table t's manifest
        }
        int seeds = s == State.MIXED ? mixedSeeds : 1;
        for (int seed = 0; seed < seeds; seed++) {
          String problem = check(op, k, s, seed);
          if (problem != null) {
            throw new AssertionError(
                op
                    + ", crash after file operation "
                    + k
                    + " of "
                    + n
                    + ", "
                    + s
                    + " state"
                    + (s == State.MIXED ? " (seed " + seed + ")" : "")
                    + ": "
                    + problem);
          }
          states++;
        }
      }
    }
    CHECKED.merge(op.name(), states, Integer::sum);
    System.out.println(
        "[crash-states] "
            + op
            + ": "
            + n
            + " file operations, "
            + (n + 1)
            + " crash points, "
            + states
            + " crash states checked, 0 failed"
            + (REFUSED.containsKey(op.name())
                ? " (double damage: " + REFUSED.get(op.name()) + " refused, the lost edit named)"
                : ""));
  }

  /** One crash state; returns what is wrong with it, or null. */
  private String check(Operation op, long k, State state, int seed) {
    Path dir = tmp.resolve(op + "-" + k + "-" + state + "-" + seed);
    FaultInjector faults = new FaultInjector(seed * 1_000_003L + k);
    Expected e = new Expected();
    TalusDb db = openPrepared(op, faults, dir, e);
    Table t = db.table("t");
    faults.recordOperations(true);
    faults.haltAfter(k);
    try {
      run(op, db, t, e);
    } catch (RuntimeException expected) {
      // the "machine" stopped in the middle of the operation
    }
    List<String> ops = faults.recordedOperations();
    String last = ops.isEmpty() ? "none" : ops.get(ops.size() - 1);
    switch (state) {
      case PREFIX -> FaultInjector.crash(db);
      case DURABLE, DOUBLE_DAMAGE -> faults.crashAndLoseAllUnsynced(db);
      case MIXED -> faults.crashAndLosePower(db);
    }
    faults.clear();
    if (state == State.DOUBLE_DAMAGE) {
      ManifestDamage.Done damage =
          ManifestDamage.cutLastEdit(manifestOf(dir).getParent(), k % 2 == 1);
      REFUSED.merge(op.name(), damage.detectable() ? 1 : 0, Integer::sum);
      if (damage.detectable()) {
        String refused = ManifestDamage.refused(() -> faults.open(options(dir)).close(), dir);
        if (refused == null) {
          deleteTree(dir);
        }
        return refused == null ? null : refused + " (" + damage + ", last operation: " + last + ")";
      }
    }
    try (TalusDb reopened = faults.open(options(dir))) {
      Table rt = reopened.table("t");
      String d = diff(rt, e);
      if (d == null) {
        d = schemaDiff(reopened, e);
      }
      if (d != null) {
        return d + " (last operation done: " + last + ")";
      }
      if (e.inFlightKey != null) {
        e.rows.remove(e.inFlightKey); // settled: the writes below must not bring it back
        rt.delete().eq("p", e.inFlightKey / 1000).eq("c", e.inFlightKey % 1000).execute();
      }
      String stray = CrashStateFiles.strayFiles(dir, rt);
      if (stray != null) {
        return stray + " (last operation done: " + last + ")";
      }
      put(rt, e, 0, 9000, "after");
      rt.flush();
      if (state == State.PREFIX) {
        rt.compact(); // once per crash point: the reopened manifest takes a swap too
      }
      d = diff(rt, e);
      if (d != null) {
        return "after writing on: " + d;
      }
    } catch (RuntimeException ex) {
      return "reopen failed: " + ex + " (last operation done: " + last + ")";
    }
    deleteTree(dir);
    return null;
  }

  private static String diff(Table t, Expected e) {
    TreeMap<Integer, String> got = new TreeMap<>();
    for (int p = 0; p < 3; p++) {
      for (ResultRow r : t.select().eq("p", p).execute()) {
        got.put(p * 1000 + r.getInt("c"), r.getString("v"));
      }
    }
    if (e.inFlightKey != null && e.inFlightValue.equals(got.get(e.inFlightKey))) {
      got.remove(e.inFlightKey); // not acknowledged, but it may have reached the disk
    }
    if (got.equals(e.rows)) {
      return null;
    }
    for (Map.Entry<Integer, String> en : e.rows.entrySet()) {
      if (!en.getValue().equals(got.get(en.getKey()))) {
        return "acknowledged row " + en.getKey() + " lost or wrong: " + got.get(en.getKey());
      }
    }
    return "rows back from the dead or never written: "
        + got.keySet().stream().filter(key -> !e.rows.containsKey(key)).toList();
  }

  @Test
  void everyCrashPointOfAFlush() {
    enumerate(Operation.FLUSH, 1, 4);
  }

  @Test
  void everyCrashPointOfACompaction() {
    enumerate(Operation.COMPACTION, 1, 4);
  }

  @Test
  void everyCrashPointOfASchemaChange() {
    enumerate(Operation.SCHEMA_CHANGE, 1, 4);
  }

  @Test
  void everyCrashPointOfACommitLogRoll() {
    enumerate(Operation.COMMIT_LOG_ROLL, 1, 4);
  }

  @Test
  void everyCrashPointOfAManifestRewrite() {
    enumerate(Operation.MANIFEST_REWRITE, 1, 4);
  }

  @Test
  @Tag("slow")
  @Tag("crash")
  void everyStateAtEveryCrashPoint() {
    int seeds = Integer.getInteger("talus.crashstates.seeds", 20);
    for (Operation op : Operation.values()) {
      enumerate(op, seeds, 1);
    }
  }
}
