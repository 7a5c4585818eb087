package dev.talus.tools;

import dev.talus.CommitLogSyncStats;
import dev.talus.DiskFullStats;
import dev.talus.IndexStatus;
import dev.talus.SSTableSummary;
import dev.talus.Table;
import dev.talus.TableStats;
import dev.talus.TalusDb;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code talus stats DIR [TABLE]}: every {@link TableStats} field, like nodetool tablestats. */
@Command(
    name = "stats",
    mixinStandardHelpOptions = true,
    version = TalusCli.VERSION,
    description = {
      "Print table statistics, like nodetool tablestats.",
      "Counters count since the database was opened, so read and write counts come from this"
          + " open (the commit-log replay); sizes, SSTables and compaction state are the table's."
    })
public final class StatsCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "The data directory.")
  Path dir;

  @Parameters(
      index = "1",
      arity = "0..1",
      paramLabel = "TABLE",
      description = "One table (default: every table).")
  String table;

  @Mixin OpenOptions open;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    try (TalusDb db = DataDirs.openExisting(dir, open, spec.commandLine().getErr())) {
      List<Table> tables =
          table == null
              ? db.tables().stream().sorted(Comparator.comparing(Table::name)).toList()
              : List.of(DataDirs.table(db, table));
      Instant now = db.clock().instant();
      out.println("Data directory: " + dir);
      out.println("Now (judges TTL and gc_grace): " + open.describeNow(now));
      clockWarning(tables, now, open).ifPresent(spec.commandLine().getErr()::println);
      out.println("Total number of tables: " + tables.size());
      out.println("Disk full: " + diskFull(db.diskFullStats()));
      out.println("Commit log: " + commitLog(db.commitLogSyncStats(), now));
      if (!db.quarantinedTables().isEmpty()) {
        out.println(
            "Tables set aside (damaged manifest): "
                + db.quarantinedTables().stream().map(q -> q.name()).toList());
      }
      out.println("----------------");
      for (Table t : tables) {
        print(out, t.stats());
        out.println();
      }
    }
    out.flush();
    return ExitCodes.OK;
  }

  /**
   * A warning when some data was written after "now": it was written under another clock (a manual
   * clock in tests, or a clock far ahead), so TTL and gc_grace are judged too early.
   */
  static Optional<String> clockWarning(List<Table> tables, Instant now, OpenOptions open) {
    long nowMicros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    long newest = Long.MIN_VALUE;
    String where = null;
    for (Table t : tables) {
      for (SSTableSummary s : t.sstables()) {
        if (s.maxTimestampMicros() > newest) {
          newest = s.maxTimestampMicros();
          where = t.name();
        }
      }
    }
    if (newest <= nowMicros + 60_000_000L) {
      return Optional.empty();
    }
    return Optional.of(
        "warning: table "
            + where
            + " holds writes up to "
            + Fmt.micros(newest)
            + ", after now ("
            + now
            + "): the data was written under another clock, so TTL and gc_grace are judged"
            + " too early. Pass --now "
            + Instant.ofEpochSecond(Math.floorDiv(newest, 1_000_000L) + 1)
            + " (or the instant you mean)"
            + (open.now == null ? "" : " instead of --now " + open.now));
  }

  static void print(PrintWriter out, TableStats s) {
    out.println("Table: " + s.table());
    line(out, "Compaction strategy", s.compactionStrategy());
    line(out, "SSTable count", s.sstableCount());
    line(out, "SSTables in each level", levels(s.sstablesPerLevel(), Object::toString));
    line(out, "Space used by level", levels(s.bytesPerLevel(), b -> Fmt.bytes((Long) b)));
    line(out, "Space used (live)", Fmt.bytes(s.liveDiskBytes()));
    line(out, "Memtable data size", Fmt.bytes(s.memtableBytes()));
    line(out, "SSTable heap (filters, index samples, offsets)", Fmt.bytes(s.sstableHeapBytes()));
    line(out, "Memtable flushes", s.flushes());
    line(out, "Bytes flushed", Fmt.bytes(s.bytesFlushed()));
    line(
        out,
        "Flush running since",
        s.flushRunningSince().map(Object::toString).orElse("none (no flush writing)"));
    line(out, "Local write count", s.writes());
    line(out, "Local write latency", Fmt.percentiles(s.writeLatencyMicros(), "µs"));
    line(out, "Local read count", s.reads());
    line(out, "Local read latency", Fmt.percentiles(s.readLatencyMicros(), "µs"));
    line(out, "SSTables per read", Fmt.percentiles(s.sstablesPerRead(), ""));
    line(out, "Tombstones per read", Fmt.percentiles(s.tombstonesPerRead(), ""));
    line(out, "Tombstone warnings", s.tombstoneWarnings());
    line(out, "Guardrail warnings", s.guardrailWarnings());
    line(out, "Guardrail failures", s.guardrailFailures());
    line(out, "Pending compactions", s.pendingCompactions());
    line(out, "Running compactions", s.runningCompactions());
    line(out, "Completed compactions", s.completedCompactions());
    line(out, "Failed compactions", s.failedCompactions());
    line(out, "Compactions failed in a row", s.consecutiveCompactionFailures());
    line(
        out,
        "Compaction retry at",
        s.compactionRetryAt().map(Object::toString).orElse("none (not backing off)"));
    line(out, "Last compaction failure", orNone(s.lastCompactionFailure()));
    line(out, "Bytes compacted (read)", Fmt.bytes(s.bytesCompactedRead()));
    line(out, "Bytes compacted (written)", Fmt.bytes(s.bytesCompactedWritten()));
    line(out, "SSTables dropped whole (expired)", s.sstablesDroppedExpired());
    line(out, "Tombstones purged", s.tombstonesPurged());
    line(out, "Estimated droppable tombstones", s.estimatedDroppableTombstones());
    line(out, "Bloom filter false positives", s.bloomFilterFalsePositives());
    line(out, "Bloom filter lookups", s.bloomFilterLookups());
    line(out, "Bloom filter false ratio", Fmt.ratio(s.bloomFilterFalsePositiveRatio()));
    line(out, "Out-of-order flushes (TWCS)", s.outOfOrderFlushes());
    line(out, "Quarantined SSTables", s.quarantinedSSTables());
    line(out, "Indexes", s.indexes().size());
    for (IndexStatus i : s.indexes()) {
      line(out, "Index " + i.name() + " on " + i.column(), index(i));
    }
  }

  /**
   * {@code no (0 episodes, 0 failures, 0 retries; last failure: none)}, or {@code YES, waiting for
   * space (...)} while flushes or compactions that failed for lack of space wait to be retried.
   */
  static String diskFull(DiskFullStats d) {
    return (d.waitingForSpace() ? "YES, waiting for space" : "no")
        + " ("
        + d.episodes()
        + " episodes, "
        + d.failures()
        + " failures, "
        + d.retries()
        + " retries since open; last failure: "
        + orNone(d.lastFailure())
        + ")";
  }

  /**
   * {@code BATCH; sync running since: none; 12 syncs; writes timed out: 0}, or, while an fsync is
   * running, {@code sync running since 2026-…Z (for PT12S)} and the timed-out writes still waiting.
   */
  static String commitLog(CommitLogSyncStats c, Instant now) {
    String running =
        c.syncRunningSince()
            .map(
                since ->
                    since + " (for " + java.time.Duration.between(since, now).withNanos(0) + ")")
            .orElse("none (no sync running)");
    return c.syncMode()
        + "; sync running since: "
        + running
        + "; "
        + c.syncs()
        + " syncs since open; writes timed out waiting for their sync: "
        + c.writesTimedOut()
        + " ("
        + c.writesAwaitingSync()
        + " still waiting, applied when it completes)";
  }

  private static String orNone(String s) {
    return s == null || s.isEmpty() ? "none" : Fmt.printable(s);
  }

  /**
   * {@code QUERYABLE; covers 3/3 live SSTables; size 1.2 KiB (row-key maps, shared by the table's
   * indexes: 800 B); reads served 0}; a build that is running or failed shows its progress ({@code
   * BUILDING (1/3 SSTables built)}), and a failure its reason.
   */
  static String index(IndexStatus i) {
    String progress =
        i.state() == IndexStatus.State.QUERYABLE
            ? ""
            : " (" + i.sstablesBuilt() + "/" + i.sstablesToBuild() + " SSTables built)";
    return i.state()
        + progress
        + "; covers "
        + i.sstablesCovered()
        + "/"
        + i.liveSSTables()
        + " live SSTables; size "
        + Fmt.bytes(i.diskBytes())
        + " (row-key maps, shared by the table's indexes: "
        + Fmt.bytes(i.rowKeyMapBytes())
        + "); reads served "
        + i.queriesServed()
        + (i.failure() == null ? "" : "; failed: " + i.failure());
  }

  private static void line(PrintWriter out, String label, Object value) {
    out.println("\t" + label + ": " + value);
  }

  /** {@code [L0: 3, L1: 10]}, or {@code []} when there are none. */
  private static String levels(
      Map<Integer, ?> byLevel, java.util.function.Function<Object, String> fmt) {
    StringBuilder b = new StringBuilder("[");
    for (Map.Entry<Integer, ?> e : new TreeMap<>(byLevel).entrySet()) {
      if (b.length() > 1) {
        b.append(", ");
      }
      b.append('L').append(e.getKey()).append(": ").append(fmt.apply(e.getValue()));
    }
    return b.append(']').toString();
  }
}
