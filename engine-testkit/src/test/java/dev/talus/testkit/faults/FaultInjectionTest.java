package dev.talus.testkit.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.ClusteringOrder;
import dev.talus.CommitLogSync;
import dev.talus.CompactionOptions;
import dev.talus.DataType;
import dev.talus.ResultRow;
import dev.talus.SSTableSummary;
import dev.talus.StorageException;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.WriteRejectedException;
import dev.talus.testkit.FaultInjector;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * ENOSPC and EIO at every n-th file write and every n-th fsync, and EIO at every n-th rename,
 * delete and directory fsync, of a flush, a compaction and a run of commit-log appends, injected
 * through the public {@link FaultInjector} (SQLite's I/O-error test: fail call n for every n until
 * the operation completes untouched). After each fault the operation has either completed or thrown
 * a clear exception; reads equal the expected rows (no acknowledged write lost, no failed write
 * half-visible, no deleted row back); after clearing the fault the operation can be retried —
 * unless the fault was a failed fsync of the commit log or a manifest, which stops the instance
 * (fail-stop: the retry and a write must be refused, naming the cause) — and after a reopen the
 * data is whole and no temporary or orphaned file remains.
 */
class FaultInjectionTest {
  @TempDir Path tmp;

  enum Operation {
    FLUSH,
    COMPACTION,
    COMMIT_LOG_APPENDS
  }

  enum Kind {
    WRITE_ENOSPC(FaultInjector.Operation.WRITE, FaultInjector.Fault.DISK_FULL),
    WRITE_EIO(FaultInjector.Operation.WRITE, FaultInjector.Fault.IO_ERROR),
    FSYNC_ENOSPC(FaultInjector.Operation.FSYNC, FaultInjector.Fault.DISK_FULL),
    FSYNC_EIO(FaultInjector.Operation.FSYNC, FaultInjector.Fault.IO_ERROR),
    RENAME_EIO(FaultInjector.Operation.RENAME, FaultInjector.Fault.IO_ERROR),
    DELETE_EIO(FaultInjector.Operation.DELETE, FaultInjector.Fault.IO_ERROR),
    DIRECTORY_FSYNC_EIO(FaultInjector.Operation.DIRECTORY_FSYNC, FaultInjector.Fault.IO_ERROR);

    final FaultInjector.Operation operation;
    final FaultInjector.Fault fault;

    Kind(FaultInjector.Operation operation, FaultInjector.Fault fault) {
      this.operation = operation;
      this.fault = fault;
    }
  }

  /** Faults injected per kind, and outcomes that left the store inconsistent (must stay 0). */
  static final Map<String, Integer> INJECTED = new TreeMap<>();

  static final Map<String, Integer> FAILED_CLEANLY = new TreeMap<>();
  static final Map<String, Integer> STOPPED = new TreeMap<>();
  static int inconsistent;

  private static final int ROWS = 60;

  static TableSchema schema() {
    return TableSchema.builder("f")
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT, ClusteringOrder.ASC)
        .column("v", DataType.TEXT)
        .column("w", DataType.BIGINT)
        .compaction(CompactionOptions.sizeTiered().minThreshold(2).build())
        .build();
  }

  static TalusOptions options(Path dir, FaultInjector faults) {
    return TalusOptions.builder(dir)
        .commitLogSync(CommitLogSync.BATCH) // acknowledged means synced
        .commitLogSegmentBytes(64 << 10) // appends roll segments
        .backgroundCompaction(false)
        .build();
  }

  /** The expected table: (p, c) → v; w is always v's length so a half-applied row shows. */
  static final class Expected {
    final TreeMap<Long, String> rows = new TreeMap<>();

    static long key(int p, int c) {
      return ((long) p << 32) | c;
    }
  }

  private static void write(Table t, Expected e, int p, int c, String v) {
    t.insert().value("p", p).value("c", c).value("v", v).value("w", (long) v.length()).execute();
    e.rows.put(Expected.key(p, c), v);
  }

  /**
   * Three overlapping SSTables (with deletes) and some rows in the memtable; each round is one
   * logged batch, so loading costs a few fsyncs, not one per row.
   */
  private static void load(TalusDb db, Table t, Expected e) {
    for (int round = 0; round < 3; round++) {
      var batch = db.batch();
      for (int i = 0; i < ROWS; i++) {
        int p = i % 4;
        String v = "r" + round + "-" + i + "-" + "x".repeat(i % 30);
        batch.add(
            t.insert()
                .value("p", p)
                .value("c", i + round * 7)
                .value("v", v)
                .value("w", (long) v.length()));
        e.rows.put(Expected.key(p, i + round * 7), v);
      }
      batch.execute();
      t.delete().eq("p", 3).eq("c", round * 7 + 3).execute();
      e.rows.remove(Expected.key(3, round * 7 + 3));
      t.flush();
    }
    for (int i = 0; i < 20; i++) {
      write(t, e, 1, 1000 + i, "mem-" + i);
    }
  }

  /** Null when the table reads exactly as expected, else the first difference. */
  private static String diff(Table t, Expected e, Long uncertainKey, String uncertainValue) {
    TreeMap<Long, String> actual = new TreeMap<>();
    for (int p = 0; p < 4; p++) {
      for (ResultRow r : t.select().eq("p", p).execute()) {
        String v = r.getString("v");
        if (v == null || r.getLong("w") != v.length()) {
          return "row " + p + "/" + r.getInt("c") + " is half-applied: " + v + "," + r.getLong("w");
        }
        actual.put(Expected.key(p, r.getInt("c")), v);
      }
    }
    TreeMap<Long, String> want = new TreeMap<>(e.rows);
    if (uncertainKey != null && uncertainValue.equals(actual.get(uncertainKey))) {
      want.put(uncertainKey, uncertainValue); // a failed write may or may not have survived
    }
    if (want.equals(actual)) {
      return null;
    }
    for (Long k : new TreeSet<>(want.keySet())) {
      if (!want.get(k).equals(actual.get(k))) {
        return "row "
            + (k >> 32)
            + "/"
            + (int) (long) k
            + ": expected "
            + want.get(k)
            + ", got "
            + actual.get(k);
      }
    }
    return "unexpected rows " + actual.keySet().stream().filter(k -> !want.containsKey(k)).toList();
  }

  /** Runs the operation with no fault and returns how many operations of each kind it made. */
  private Map<FaultInjector.Operation, Long> measure(Operation op) {
    Path dir = tmp.resolve(op + "-measure");
    FaultInjector faults = new FaultInjector(1);
    try (TalusDb db = faults.open(options(dir, faults))) {
      Table t = db.createTable(schema());
      Expected e = new Expected();
      load(db, t, e);
      Map<FaultInjector.Operation, Long> before =
          new java.util.EnumMap<>(FaultInjector.Operation.class);
      for (FaultInjector.Operation o : FaultInjector.Operation.values()) {
        before.put(o, faults.count(o));
      }
      runOperation(op, t, e, new String[1]);
      Map<FaultInjector.Operation, Long> made =
          new java.util.EnumMap<>(FaultInjector.Operation.class);
      for (FaultInjector.Operation o : FaultInjector.Operation.values()) {
        made.put(o, faults.count(o) - before.get(o));
      }
      return made;
    }
  }

  private static final int APPENDS = 12;

  /**
   * The operation under test. For the commit-log case, {@code failed[0]} is set to the value of the
   * write that failed (its row is then old-or-new after a reopen).
   */
  private static void runOperation(Operation op, Table t, Expected e, String[] failed) {
    switch (op) {
      case FLUSH -> t.flush();
      case COMPACTION -> t.compact();
      case COMMIT_LOG_APPENDS -> {
        for (int i = 0; i < APPENDS; i++) {
          String v = "append-" + i + "-" + "y".repeat(6000 + i); // 12 of them roll a segment
          failed[0] = v;
          write(t, e, 2, 5000 + i, v);
          failed[0] = null;
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Operation.class)
  void everyNthWriteAndFsyncFailure(Operation op) {
    Map<FaultInjector.Operation, Long> counts = measure(op);
    assertThat(counts.get(FaultInjector.Operation.WRITE)).as("%s writes files", op).isPositive();
    assertThat(counts.get(FaultInjector.Operation.FSYNC)).as("%s fsyncs", op).isPositive();
    assertThat(counts.get(FaultInjector.Operation.DIRECTORY_FSYNC))
        .as("%s fsyncs a directory", op)
        .isPositive();
    if (op != Operation.COMMIT_LOG_APPENDS) {
      assertThat(counts.get(FaultInjector.Operation.RENAME)).as("%s renames", op).isPositive();
    }
    for (Kind kind : Kind.values()) {
      long max = counts.get(kind.operation);
      for (long n = 1; n <= max; n++) {
        String problem = runCase(op, kind, n);
        if (problem != null) {
          inconsistent++;
          throw new AssertionError(op + ", " + kind + " at call #" + n + ": " + problem);
        }
      }
    }
  }

  /** One fault at the n-th call; returns a description of any inconsistency, or null. */
  private String runCase(Operation op, Kind kind, long n) {
    Path dir = tmp.resolve(op + "-" + kind + "-" + n);
    FaultInjector faults = new FaultInjector(n);
    TalusOptions options = options(dir, faults);
    Expected e = new Expected();
    TalusDb db = faults.open(options);
    Table t = db.createTable(schema());
    load(db, t, e);
    faults.fail(kind.operation, n, kind.fault);
    long before = faults.faultsInjected();
    String[] failed = new String[1];
    RuntimeException thrown = null;
    try {
      runOperation(op, t, e, failed);
    } catch (StorageException | WriteRejectedException ex) {
      thrown = ex;
    } catch (RuntimeException ex) {
      return "unclear exception " + ex;
    }
    boolean injected = faults.faultsInjected() > before;
    faults.clear();
    if (injected) {
      INJECTED.merge(op + " " + kind, 1, Integer::sum);
      if (thrown != null) {
        FAILED_CLEANLY.merge(op + " " + kind, 1, Integer::sum);
        if (thrown.getMessage() == null || thrown.getMessage().isBlank()) {
          return "exception without a message: " + thrown;
        }
      }
    }
    Long uncertainKey = failed[0] == null ? null : Expected.key(2, 5000 + indexOf(failed[0]));
    if (failed[0] != null) {
      e.rows.remove(uncertainKey); // not acknowledged: the model does not have it
    }
    // Nothing acknowledged lost, nothing half-visible, while the fault is still fresh. A write
    // that failed is not visible in this instance.
    String d = diff(t, e, null, null);
    if (d != null) {
      return "right after the fault: " + d;
    }
    // After clearing the fault, retrying works (flush and compaction), unless a failed fsync of
    // the commit log or a manifest stopped the instance: then it and any write are refused.
    boolean stopped = isFailStop(thrown);
    try {
      if (op != Operation.COMMIT_LOG_APPENDS) {
        runOperation(op, t, e, failed);
        d = diff(t, e, null, null);
        if (d != null) {
          return "after retrying: " + d;
        }
      }
    } catch (StorageException ex) {
      if (!isFailStop(ex)) {
        return "retry after clearing the fault failed: " + ex;
      }
      stopped = true;
    } catch (RuntimeException ex) {
      return "retry after clearing the fault failed: " + ex;
    }
    if (stopped) {
      // The commit log stops on any I/O error; flush and compaction only on a failed manifest
      // fsync (a failed SSTable fsync fails the operation, a failed manifest write is undone).
      if (op != Operation.COMMIT_LOG_APPENDS && kind.operation != FaultInjector.Operation.FSYNC) {
        return "stopped the instance after a failed " + kind + ": only failed fsyncs may";
      }
      STOPPED.merge(op + " " + kind, 1, Integer::sum);
      try {
        write(t, new Expected(), 0, 77_777, "refused");
        return "a write was accepted after the instance stopped";
      } catch (StorageException ex) {
        if (!isFailStop(ex)) {
          return "a write after the stop failed unclearly: " + ex;
        }
      }
      d = diff(t, e, null, null);
      if (d != null) {
        return "reads after the stop: " + d;
      }
    }
    try {
      db.close();
    } catch (StorageException ex) {
      // closing a database whose commit log failed may report it; the reopen below must cope
    }
    try (TalusDb reopened = faults.open(options)) {
      Table rt = reopened.table("f");
      d = diff(rt, e, uncertainKey, failed[0]);
      if (d != null) {
        return "after reopen: " + d;
      }
      String files = strayFiles(dir, rt);
      if (files != null) {
        return "after reopen: " + files;
      }
      // writes work again
      write(rt, e, 0, 99_999, "after");
      rt.flush();
      rt.compact();
      d = diff(rt, e, uncertainKey, failed[0]);
      if (d != null) {
        return "after writing on: " + d;
      }
    } catch (RuntimeException ex) {
      return "reopen failed: " + ex;
    }
    deleteTree(dir);
    return null;
  }

  private static boolean isFailStop(RuntimeException ex) {
    return ex instanceof StorageException
        && ex.getMessage() != null
        && ex.getMessage().contains("stopped accepting writes")
        && ex.getMessage().contains("open it again");
  }

  private static int indexOf(String appendValue) {
    return Integer.parseInt(appendValue.split("-")[1]);
  }

  /** Temporary files, or SSTable files of generations that are not live. */
  private static String strayFiles(Path dir, Table t) {
    Set<Long> live =
        t.sstables().stream().map(SSTableSummary::generation).collect(Collectors.toSet());
    List<String> stray = new ArrayList<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        String name = p.getFileName().toString();
        if (name.endsWith(".tmp")) {
          stray.add(name);
        } else if (name.startsWith("nb-")) {
          long gen = Long.parseLong(name.split("-")[1]);
          if (!live.contains(gen)) {
            stray.add(name);
          }
        }
      }
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
    return stray.isEmpty() ? null : "stray files " + stray;
  }

  static void deleteTree(Path d) {
    try (Stream<Path> s = Files.walk(d)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  @AfterAll
  static void report() {
    int total = INJECTED.values().stream().mapToInt(Integer::intValue).sum();
    StringBuilder b = new StringBuilder("[fault-injection] faults injected by kind:");
    for (Map.Entry<String, Integer> en : INJECTED.entrySet()) {
      b.append("\n  ")
          .append(en.getKey())
          .append(": ")
          .append(en.getValue())
          .append(" injected, ")
          .append(FAILED_CLEANLY.getOrDefault(en.getKey(), 0))
          .append(" reported as StorageException/WriteRejectedException, ")
          .append(STOPPED.getOrDefault(en.getKey(), 0))
          .append(" stopped the instance");
    }
    b.append("\n  total ").append(total).append(", inconsistent outcomes ").append(inconsistent);
    System.out.println(b);
  }
}
