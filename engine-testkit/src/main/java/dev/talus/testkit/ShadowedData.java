package dev.talus.testkit;

import dev.talus.StoredPartition;
import dev.talus.StoredPartition.Deletion;
import dev.talus.StoredPartition.StoredCell;
import dev.talus.StoredPartition.StoredRow;
import dev.talus.testkit.Explanation.Kind;
import dev.talus.testkit.Explanation.Reason;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The {@link TombstoneExplainer}'s account of shadowed data: what one source still stores that a
 * deletion in another source hides from reads, until a compaction merges the two. Stateless.
 */
final class ShadowedData {
  private ShadowedData() {}

  /**
   * Live data in one source that a partition or row deletion, or a collection tombstone, in another
   * source shadows.
   */
  static List<Reason> reasons(List<StoredPartition> sources) {
    List<Reason> out = new ArrayList<>();
    for (StoredPartition holder : sources) {
      for (StoredPartition deleter : sources) {
        if (holder == deleter) {
          continue;
        }
        int count = 0;
        long deletionTs = 0;
        for (StoredRow r : holder.rows()) {
          Deletion d = deleter.partitionDeletion();
          for (StoredRow dr : deleter.rows()) {
            if (dr.rowDeletion() != null
                && Objects.equals(dr.clustering(), r.clustering())
                && (d == null || dr.rowDeletion().timestampMicros() > d.timestampMicros())) {
              d = dr.rowDeletion();
            }
          }
          if (d == null) {
            continue;
          }
          final long ts = d.timestampMicros();
          boolean shadowedRow =
              (r.markerTimestampMicros() != null && r.markerTimestampMicros() <= ts)
                  || r.cells().stream().anyMatch(c -> c.timestampMicros() <= ts);
          if (shadowedRow) {
            count++;
            deletionTs = Math.max(deletionTs, ts);
          }
        }
        if (count > 0) {
          out.add(
              shadowedReason(holder, deleter, count, count == 1 ? " row" : " rows", deletionTs));
        }
        int elements = 0;
        long collectionTs = 0;
        for (StoredRow r : holder.rows()) {
          for (StoredRow dr : deleter.rows()) {
            if (dr.isStatic() != r.isStatic() || !Objects.equals(dr.clustering(), r.clustering())) {
              continue;
            }
            for (StoredPartition.CollectionDeletion cd : dr.collectionDeletions()) {
              long ts = cd.deletion().timestampMicros();
              for (StoredCell c : r.cells()) {
                if (c.column().equals(cd.column())
                    && c.element() != null
                    && c.timestampMicros() <= ts) {
                  elements++;
                  collectionTs = Math.max(collectionTs, ts);
                }
              }
            }
          }
        }
        if (elements > 0) {
          out.add(
              shadowedReason(
                  holder,
                  deleter,
                  elements,
                  (elements == 1 ? " collection element" : " collection elements")
                      + " (of a collection deleted or replaced whole)",
                  collectionTs));
        }
      }
    }
    return out;
  }

  private static Reason shadowedReason(
      StoredPartition holder, StoredPartition deleter, int count, String what, long deletionTs) {
    return new Reason(
        Kind.SHADOWED_DATA,
        holder.source(),
        "still holds "
            + count
            + what
            + " shadowed by deletions in "
            + deleter.source()
            + " (written at or before "
            + TombstoneExplainer.micros(deletionTs)
            + "): reads skip it; it goes when a compaction merges both"
            + (holder.sstableGeneration() < 0 || deleter.sstableGeneration() < 0
                ? " (flush first)"
                : ""));
  }
}
