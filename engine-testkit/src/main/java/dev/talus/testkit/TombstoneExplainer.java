package dev.talus.testkit;

import dev.talus.ColumnDef;
import dev.talus.SSTableSummary;
import dev.talus.StoredPartition;
import dev.talus.StoredPartition.RangeDeletion;
import dev.talus.StoredPartition.StoredCell;
import dev.talus.StoredPartition.StoredRow;
import dev.talus.Table;
import dev.talus.testkit.Explanation.Kind;
import dev.talus.testkit.Explanation.Reason;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Answers "why is this tombstone still on disk?" from what the public API shows — {@link
 * Table#dump}, {@link Table#sstables()}, the schema's gc_grace and the clock — applying the purge
 * rules of docs/tombstones.md:
 *
 * <ol>
 *   <li>gc_grace: a tombstone deleted at second D goes only at a compaction at or after D +
 *       gc_grace + 1 s ({@code ldt < now − gc_grace}); an expired TTL cell counts as deleted at its
 *       write second; an expired row marker waits for expiry + gc_grace + 1 s;
 *   <li>overlap: it stays while another SSTable holding the partition has an oldest timestamp at or
 *       before the tombstone's (the engine uses that SSTable's overall minimum), or a memtable
 *       holds older data for the partition;
 *   <li>opportunity: purgeable tombstones go only when a compaction includes their SSTable, and
 *       memtable contents are never compacted before a flush.
 * </ol>
 *
 * <p>Collection tombstones (a whole collection or user type deleted, or replaced by a write, which
 * deletes the old value at its timestamp − 1) and the tombstones and expired TTL cells of single
 * elements are explained like the others, each named with its column and, for an element, the
 * element ({@code cell tombstone tags['a'] (seq=3)}).
 *
 * <p>The engine decides overlap with Bloom filters and token ranges too; a Bloom false positive can
 * keep a tombstone this explainer calls purgeable (rare, and only ever towards keeping). Stateless
 * and thread-safe.
 */
public final class TombstoneExplainer {
  private TombstoneExplainer() {}

  /**
   * Why the partition with these key values still holds tombstones or expired data, in every
   * memtable and SSTable. An empty explanation means there is none stored. The table must belong to
   * an open {@link TalusTestDb} (whose clock gives "now"); otherwise pass the clock.
   */
  public static Explanation explain(Table table, Object... partitionKey) {
    return explain(null, table, partitionKey);
  }

  /** {@link #explain(Table, Object...)} at the time of {@code clock} (the database's clock). */
  public static Explanation explain(InstantSource clock, Table table, Object... partitionKey) {
    long now = nowSeconds(clock, table);
    long grace = table.schema().gcGrace().getSeconds();
    List<String> ck = table.schema().clustering().stream().map(ColumnDef::name).toList();
    List<StoredPartition> sources = table.dump(partitionKey);
    Map<Long, SSTableSummary> summaries =
        table.sstables().stream()
            .collect(Collectors.toMap(SSTableSummary::generation, Function.identity()));
    List<Reason> reasons = new ArrayList<>();
    for (StoredPartition source : sources) {
      List<StoredTombstone> items = StoredTombstone.of(source, ck, now, grace);
      Map<StoredTombstone.Kind, List<StoredTombstone>> byKind = new LinkedHashMap<>();
      for (StoredTombstone t : items) {
        byKind.computeIfAbsent(t.kind(), k -> new ArrayList<>()).add(t);
      }
      for (List<StoredTombstone> group : byKind.values()) {
        explainGroup(source, group, sources, summaries, now, grace, reasons);
      }
    }
    reasons.addAll(ShadowedData.reasons(sources));
    return new Explanation(
        partitionName(table, partitionKey),
        Instant.ofEpochSecond(now),
        Instant.ofEpochSecond(now - grace),
        reasons);
  }

  /**
   * Every tombstone and piece of expired data stored for the partition, in every source, newest
   * source first.
   */
  public static List<StoredTombstone> tombstones(Table table, Object... partitionKey) {
    return tombstones(null, table, partitionKey);
  }

  /** {@link #tombstones(Table, Object...)} at the time of {@code clock}. */
  public static List<StoredTombstone> tombstones(
      InstantSource clock, Table table, Object... partitionKey) {
    long now = nowSeconds(clock, table);
    long grace = table.schema().gcGrace().getSeconds();
    List<String> ck = table.schema().clustering().stream().map(ColumnDef::name).toList();
    List<StoredTombstone> out = new ArrayList<>();
    for (StoredPartition p : table.dump(partitionKey)) {
      out.addAll(StoredTombstone.of(p, ck, now, grace));
    }
    return out;
  }

  /**
   * Why the SSTable with this generation has not been dropped whole as fully expired (the rule of
   * docs/compaction.md "Whole-SSTable expiry"), or {@link Kind#DROPPABLE_NOW} if nothing stops it.
   */
  public static Explanation explainSSTable(Table table, long generation) {
    return explainSSTable(null, table, generation);
  }

  /** {@link #explainSSTable(Table, long)} at the time of {@code clock}. */
  public static Explanation explainSSTable(InstantSource clock, Table table, long generation) {
    long now = nowSeconds(clock, table);
    long grace = table.schema().gcGrace().getSeconds();
    long gcBefore = now - grace;
    String source = "sstable " + generation;
    List<SSTableSummary> all = table.sstables();
    SSTableSummary s =
        all.stream().filter(x -> x.generation() == generation).findFirst().orElse(null);
    List<Reason> reasons = new ArrayList<>();
    if (s == null) {
      reasons.add(
          new Reason(
              Kind.NOT_LIVE,
              source,
              "is not live: it was compacted away or dropped (live: "
                  + all.stream().map(SSTableSummary::generation).toList()
                  + ")"));
    } else {
      if (s.maxDeletionTimeSeconds() == Long.MAX_VALUE) {
        reasons.add(
            new Reason(
                Kind.HOLDS_DATA_THAT_NEVER_EXPIRES,
                source,
                "holds live data that never expires (a cell or row marker without TTL, so"
                    + " maxDeletionTime = MAX): it can be compacted but never dropped whole"));
      } else if (s.maxDeletionTimeSeconds() >= gcBefore) {
        long from = s.maxDeletionTimeSeconds() + grace + 1;
        reasons.add(
            new Reason(
                Kind.NOT_FULLY_EXPIRED_YET,
                source,
                "its latest deletion or expiry time "
                    + at(s.maxDeletionTimeSeconds())
                    + " is not before gcBefore "
                    + at(gcBefore)
                    + " (now − gc_grace "
                    + human(grace)
                    + "): fully expired from "
                    + at(from)
                    + " (maxDeletionTime + gc_grace + 1 s)"));
      }
      for (SSTableSummary o : all) {
        if (o.generation() == generation
            || o.maxDeletionTimeSeconds() < gcBefore
            || o.minTimestampMicros() > s.maxTimestampMicros()) {
          continue;
        }
        if (!s.overlaps(o)) {
          continue; // disjoint token ranges: it cannot hold data for these partitions
        }
        reasons.add(
            new Reason(
                Kind.OLDER_DATA_IN_OTHER_SSTABLE,
                source,
                "sstable "
                    + o.generation()
                    + " overlaps it"
                    + " and holds live data at or before its newest write (oldest write "
                    + micros(o.minTimestampMicros())
                    + " ≤ newest write "
                    + micros(s.maxTimestampMicros())
                    + "), which its tombstones could shadow"));
      }
      long memtableBytes = table.stats().memtableBytes();
      if (memtableBytes > 0) {
        reasons.add(
            new Reason(
                Kind.MEMTABLE_MAY_HOLD_OLDER_DATA,
                source,
                "the memtables hold "
                    + memtableBytes
                    + " bytes; any write in them at or before "
                    + micros(s.maxTimestampMicros())
                    + " blocks the drop: flush first"));
      }
      if (reasons.isEmpty()) {
        reasons.add(
            new Reason(
                Kind.DROPPABLE_NOW,
                source,
                "fully expired since "
                    + at(s.maxDeletionTimeSeconds() + grace + 1)
                    + " and nothing blocks it: not compacted since; the next compaction"
                    + " (runNextCompaction, compactAll) drops it whole"));
      }
    }
    return new Explanation(
        table.name() + " " + source,
        Instant.ofEpochSecond(now),
        Instant.ofEpochSecond(gcBefore),
        reasons);
  }

  private static void explainGroup(
      StoredPartition source,
      List<StoredTombstone> group,
      List<StoredPartition> sources,
      Map<Long, SSTableSummary> summaries,
      long now,
      long grace,
      List<Reason> out) {
    String src = source.source();
    StoredTombstone first = group.get(0);
    int n = group.size();
    String what = n == 1 ? first.describe() : n + " × " + first.kind();
    if (first.inMemtable()) {
      out.add(
          new Reason(
              Kind.IN_MEMTABLE,
              src,
              "memtable holds "
                  + what
                  + ": compaction purges only SSTables (flush first)"
                  + (first.kind() == StoredTombstone.Kind.EXPIRED_CELL
                      ? ""
                      : "; the memtable never drops a tombstone")));
    }
    List<StoredTombstone> waiting =
        group.stream().filter(t -> now < t.purgeableFromSeconds()).toList();
    if (!waiting.isEmpty()) {
      out.add(gcGraceReason(src, waiting, grace));
    }
    // overlap: another source holding this partition with data at or before the tombstone
    boolean anyBlocked = false;
    for (StoredPartition other : sources) {
      if (other.source().equals(src)) {
        continue;
      }
      long oldest;
      String holder;
      Kind kind;
      if (other.sstableGeneration() >= 0) {
        SSTableSummary os = summaries.get(other.sstableGeneration());
        oldest = os != null ? os.minTimestampMicros() : oldestTimestamp(other);
        holder = "sstable " + other.sstableGeneration() + " overlaps and holds older data";
        kind = Kind.OLDER_DATA_IN_OTHER_SSTABLE;
      } else {
        oldest = oldestTimestamp(other);
        holder = other.source() + " holds older data";
        kind = Kind.OLDER_DATA_IN_MEMTABLE;
      }
      final long o = oldest;
      List<StoredTombstone> blocked = group.stream().filter(t -> o <= t.timestampMicros()).toList();
      if (blocked.isEmpty()) {
        continue;
      }
      anyBlocked = true;
      long maxTs = blocked.stream().mapToLong(StoredTombstone::timestampMicros).max().orElse(0);
      out.add(
          new Reason(
              kind,
              src,
              holder
                  + " for this partition (its oldest write at "
                  + micros(o)
                  + " ≤ tombstone timestamp "
                  + micros(maxTs)
                  + "): "
                  + (blocked.size() == 1
                      ? blocked.get(0).describe()
                      : blocked.size() + " × " + first.kind())
                  + " must stay while it does — "
                  + (kind == Kind.OLDER_DATA_IN_MEMTABLE
                      ? "flush, then compact both together"
                      : "compact " + src + " together with sstable " + other.sstableGeneration())));
    }
    if (!first.inMemtable() && !anyBlocked) {
      List<StoredTombstone> ready =
          group.stream().filter(t -> now >= t.purgeableFromSeconds()).toList();
      if (!ready.isEmpty()) {
        long since =
            ready.stream().mapToLong(StoredTombstone::purgeableFromSeconds).max().orElse(0);
        out.add(
            new Reason(
                Kind.NOT_COMPACTED_SINCE_PURGEABLE,
                src,
                "not compacted since it became purgeable (purgeable since "
                    + at(since)
                    + "): "
                    + (ready.size() == 1
                        ? ready.get(0).describe()
                        : ready.size() + " × " + first.kind())
                    + " go at the next compaction that includes "
                    + src));
      }
    }
  }

  private static Reason gcGraceReason(String src, List<StoredTombstone> waiting, long grace) {
    StoredTombstone earliest =
        waiting.stream()
            .min((a, b) -> Long.compare(a.purgeableFromSeconds(), b.purgeableFromSeconds()))
            .orElseThrow();
    StoredTombstone latest =
        waiting.stream()
            .max((a, b) -> Long.compare(a.purgeableFromSeconds(), b.purgeableFromSeconds()))
            .orElseThrow();
    StoredTombstone.Kind k = earliest.kind();
    String count = waiting.size() == 1 ? earliest.describe() : waiting.size() + " × " + k;
    if (k == StoredTombstone.Kind.EXPIRED_ROW_MARKER) {
      return new Reason(
          Kind.EXPIRED_ROW_MARKER,
          src,
          count
              + ": expired row marker purgeable at "
              + at(earliest.purgeableFromSeconds())
              + " (expired at "
              + at(earliest.expiredAtSeconds())
              + " + gc_grace "
              + human(grace)
              + " + 1 s)"
              + range(earliest, latest));
    }
    String basis =
        k == StoredTombstone.Kind.EXPIRED_CELL
            ? "written at "
                + at(earliest.deletedAtSeconds())
                + ", expired at "
                + at(earliest.expiredAtSeconds())
                + "; an expired cell counts as deleted at its write time"
            : "tombstone deleted at " + at(earliest.deletedAtSeconds());
    return new Reason(
        Kind.GC_GRACE_NOT_PASSED,
        src,
        count
            + ": gc_grace ends at "
            + at(earliest.purgeableFromSeconds() - 1)
            + " ("
            + basis
            + " + gc_grace "
            + human(grace)
            + "); purgeable by a compaction from "
            + at(earliest.purgeableFromSeconds())
            + range(earliest, latest));
  }

  private static String range(StoredTombstone earliest, StoredTombstone latest) {
    return earliest.purgeableFromSeconds() == latest.purgeableFromSeconds()
        ? ""
        : " (the last of them from " + at(latest.purgeableFromSeconds()) + ")";
  }

  static long oldestTimestamp(StoredPartition p) {
    long min = Long.MAX_VALUE;
    if (p.partitionDeletion() != null) {
      min = Math.min(min, p.partitionDeletion().timestampMicros());
    }
    for (RangeDeletion rt : p.rangeTombstones()) {
      min = Math.min(min, rt.deletion().timestampMicros());
    }
    for (StoredRow r : p.rows()) {
      if (r.markerTimestampMicros() != null) {
        min = Math.min(min, r.markerTimestampMicros());
      }
      if (r.rowDeletion() != null) {
        min = Math.min(min, r.rowDeletion().timestampMicros());
      }
      for (StoredPartition.CollectionDeletion cd : r.collectionDeletions()) {
        min = Math.min(min, cd.deletion().timestampMicros());
      }
      for (StoredCell c : r.cells()) {
        min = Math.min(min, c.timestampMicros());
      }
    }
    return min;
  }

  static String partitionName(Table table, Object... pk) {
    List<ColumnDef> cols = table.schema().partitionKey();
    StringBuilder b = new StringBuilder(table.name()).append('(');
    for (int i = 0; i < pk.length; i++) {
      if (i > 0) {
        b.append(", ");
      }
      b.append(i < cols.size() ? cols.get(i).name() : "?").append('=').append(pk[i]);
    }
    return b.append(')').toString();
  }

  /** The clock's second, or, without a clock, that of the open TalusTestDb owning the table. */
  static long nowSeconds(InstantSource clock, Table table) {
    return clock != null ? clock.instant().getEpochSecond() : ClockOf.now(table);
  }

  static String at(long epochSecond) {
    return Instant.ofEpochSecond(epochSecond).toString();
  }

  static String human(long seconds) {
    Duration d = Duration.ofSeconds(seconds);
    if (seconds != 0 && seconds % 86_400 == 0) {
      long n = seconds / 86_400;
      return n + (n == 1 ? " day" : " days");
    }
    if (seconds != 0 && seconds % 3600 == 0) {
      long n = d.toHours();
      return n + (n == 1 ? " hour" : " hours");
    }
    if (seconds != 0 && seconds % 60 == 0) {
      long n = d.toMinutes();
      return n + (n == 1 ? " minute" : " minutes");
    }
    return seconds + " s";
  }

  /**
   * A write timestamp (microseconds) as an ISO-8601 instant with microseconds, like every other
   * time in an explanation.
   */
  static String micros(long micros) {
    return Instant.ofEpochSecond(
            Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L)
        .toString();
  }
}
