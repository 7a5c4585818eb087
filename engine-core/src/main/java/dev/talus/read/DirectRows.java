package dev.talus.read;

import dev.talus.data.DeletionTime;
import dev.talus.data.LiveRows;
import dev.talus.data.Row;
import dev.talus.data.RowVisitor;
import dev.talus.data.SimpleRow;
import dev.talus.schema.KeyCodec;
import java.util.List;

/**
 * The rows of a partition read from a single source that streams them ({@link
 * dev.talus.data.PartitionData#visit}): a simple row becomes a result row straight from the
 * source's bytes, with no {@link Row}, cells or merge in between; a bare row deletion is counted as
 * the tombstone it is; any other row goes through what the merge and {@link LiveRows} do to a row
 * of one source without a partition deletion or range tombstone (the only sources that stream).
 * Results and tombstone counts are the general path's. Single-use, one thread.
 */
final class DirectRows implements RowVisitor {
  private final KeyCodec keys;
  private final Projection proj;
  private final Object[] pkValues;
  private final int index;
  private final long now;
  private final LiveRows live;
  private final List<ReadPath.Found> out;
  private final int max;

  DirectRows(
      KeyCodec keys,
      Projection proj,
      Object[] pkValues,
      int index,
      long now,
      long gcBefore,
      LiveRows.TombstoneCounter counter,
      List<ReadPath.Found> out,
      int max) {
    this.keys = keys;
    this.proj = proj;
    this.pkValues = pkValues;
    this.index = index;
    this.now = now;
    this.live = new LiveRows(java.util.Collections.emptyIterator(), now, gcBefore, counter);
    this.out = out;
    this.max = max;
  }

  @Override
  public boolean simple(SimpleRow row) {
    if (row.isLive()) {
      live.flush(); // the tombstones before it are counted before it is handed out
      byte[] clustering = row.clustering();
      out.add(
          new ReadPath.Found(
              index, clustering, proj.viewSimple(keys, pkValues, clustering, row, now)));
    }
    return out.size() < max;
  }

  @Override
  public boolean rowTombstone(SimpleRow row, long markedForDeleteAt, long localDeletionTime) {
    live.acceptRowTombstone(localDeletionTime);
    return true;
  }

  @Override
  public boolean other(Row row) {
    Row kept = row.withoutShadowed(DeletionTime.LIVE);
    Row r = kept == null ? null : live.accept(kept);
    if (r != null) {
      out.add(new ReadPath.Found(index, r.clustering(), proj.view(keys, pkValues, r, null, now)));
    }
    return out.size() < max;
  }

  /** Reports the tombstones counted since the last row handed out. */
  void finish() {
    live.flush();
  }
}
