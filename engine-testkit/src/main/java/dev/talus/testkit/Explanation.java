package dev.talus.testkit;

import java.time.Instant;
import java.util.List;

/**
 * Why tombstones, expired data or a whole SSTable are still on disk, as {@link TombstoneExplainer}
 * computed it at one clock time. Immutable.
 *
 * @param subject what was explained, e.g. {@code "queue(q=jobs)"} or {@code "queue sstable 3"}
 * @param now the clock time of the explanation
 * @param gcBefore now − gc_grace: tombstones deleted strictly before it pass the gc_grace rule
 * @param reasons the reasons, most actionable last within each source
 */
public record Explanation(String subject, Instant now, Instant gcBefore, List<Reason> reasons) {
  public Explanation {
    reasons = List.copyOf(reasons);
  }

  /** One reason. */
  public record Reason(Kind kind, String source, String message) {
    @Override
    public String toString() {
      return source.isEmpty() ? message : source + ": " + message;
    }
  }

  /** What kind of reason it is, for tests that check one. */
  public enum Kind {
    /** The data is in a memtable; compaction purges only SSTables. */
    IN_MEMTABLE,
    /** gc_grace has not passed yet. */
    GC_GRACE_NOT_PASSED,
    /** An expired row marker waits for expiry + gc_grace. */
    EXPIRED_ROW_MARKER,
    /** Another SSTable holds data for the partition at or before the tombstone's timestamp. */
    OLDER_DATA_IN_OTHER_SSTABLE,
    /** A memtable holds data for the partition at or before the tombstone's timestamp. */
    OLDER_DATA_IN_MEMTABLE,
    /** Purgeable, but no compaction has included it since. */
    NOT_COMPACTED_SINCE_PURGEABLE,
    /** Data shadowed by a tombstone in another source; it goes when both are merged. */
    SHADOWED_DATA,
    /** An SSTable holds live data without TTL: it is never dropped whole. */
    HOLDS_DATA_THAT_NEVER_EXPIRES,
    /** An SSTable's latest deletion or expiry time is not before gcBefore. */
    NOT_FULLY_EXPIRED_YET,
    /** An SSTable is fully expired and nothing blocks dropping it: the next compaction will. */
    DROPPABLE_NOW,
    /** The memtables hold data that may be older than the SSTable's newest write. */
    MEMTABLE_MAY_HOLD_OLDER_DATA,
    /** The SSTable is not live (compacted away or dropped). */
    NOT_LIVE
  }

  public boolean isEmpty() {
    return reasons.isEmpty();
  }

  public boolean has(Kind kind) {
    return reasons.stream().anyMatch(r -> r.kind() == kind);
  }

  @Override
  public String toString() {
    StringBuilder b =
        new StringBuilder("why ")
            .append(subject)
            .append(" still holds tombstones or expired data, at ")
            .append(now)
            .append(" (gcBefore ")
            .append(gcBefore)
            .append("):");
    if (reasons.isEmpty()) {
      b.append("\n  - nothing: no tombstones or expired data are stored");
    }
    for (Reason r : reasons) {
      b.append("\n  - ").append(r);
    }
    return b.toString();
  }
}
