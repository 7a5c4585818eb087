package dev.talus.read;

import dev.talus.TableSchema;
import dev.talus.TalusMetricsListener;
import dev.talus.TombstoneOverwhelmingException;
import dev.talus.data.LiveRows;
import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionMerger;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Slice;
import dev.talus.runtime.DbContext;
import dev.talus.schema.KeyCodec;
import dev.talus.table.TableMetrics;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The tombstones one read scans: all of them, for the statistics, and those not yet past gc_grace,
 * which count towards the table's thresholds. As in Cassandra, tombstones a compaction may already
 * purge do not fail or warn a read even before a compaction has removed them.
 */
final class ReadTombstones {
  private final TableSchema schema;
  private final KeyCodec keys;
  private final TableMetrics metrics;
  private final DbContext ctx;
  final long gcBefore;
  final AtomicInteger scanned = new AtomicInteger();
  final AtomicInteger counted = new AtomicInteger();

  ReadTombstones(
      TableSchema schema, KeyCodec keys, TableMetrics metrics, DbContext ctx, long gcBefore) {
    this.schema = schema;
    this.keys = keys;
    this.metrics = metrics;
    this.ctx = ctx;
    this.gcBefore = gcBefore;
  }

  LiveRows.TombstoneCounter counter(PartitionKey key) {
    return new LiveRows.TombstoneCounter() {
      @Override
      public void add(int tombstones) {
        add(tombstones, 0);
      }

      @Override
      public void add(int tombstones, int purgeable) {
        ReadTombstones.this.add(key, tombstones, purgeable);
      }
    };
  }

  void rangeDeletions(LiveRows.TombstoneCounter counter, PartitionMerger.Merged m, Slice slice) {
    if (m.rangeDeletions().isEmpty()) {
      return;
    }
    rangeDeletions(counter, m.rangeDeletions().within(slice, m.partitionDeletion()));
  }

  /** Counts the range deletions a read of one slice met (those past gc_grace as purgeable). */
  void rangeDeletions(LiveRows.TombstoneCounter counter, List<RangeTombstone> within) {
    int all = 0;
    int purgeable = 0;
    for (RangeTombstone t : within) {
      all++;
      if (t.deletion().localDeletionTime() < gcBefore) {
        purgeable++;
      }
    }
    if (all > 0) {
      counter.add(all, purgeable);
    }
  }

  void add(PartitionKey key, int tombstones, int purgeable) {
    scanned.addAndGet(tombstones);
    int added = tombstones - purgeable;
    if (added == 0) {
      return;
    }
    int before = counted.getAndAdd(added);
    int after = before + added;
    // the warning first: a read that fails crossed the warning threshold too, even when its
    // tombstones were counted in one batch
    if (before <= schema.tombstoneWarnThreshold() && after > schema.tombstoneWarnThreshold()) {
      metrics.tombstoneWarning();
      ctx.metrics()
          .warning(
              schema.name(),
              TalusMetricsListener.WarningKind.TOMBSTONES,
              "Read of table "
                  + schema.name()
                  + " partition "
                  + keys.describe(key)
                  + " scanned more than "
                  + schema.tombstoneWarnThreshold()
                  + " tombstones (tombstone_warn_threshold)");
    }
    if (after > schema.tombstoneFailureThreshold()) {
      throw new TombstoneOverwhelmingException(
          "read of table "
              + schema.name()
              + " partition "
              + keys.describe(key)
              + " scanned more than "
              + schema.tombstoneFailureThreshold()
              + " tombstones (tombstone_failure_threshold; tombstones past gc_grace are not"
              + " counted). Deleted or expired data is kept as tombstones until gc_grace ("
              + schema.gcGrace()
              + ") has passed and compaction purges them. Fix the data model (time buckets, TTL"
              + " instead of deletes, no queue-like delete-then-read) or compact after"
              + " gc_grace");
    }
  }
}
