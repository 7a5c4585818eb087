package dev.talus.index;

import dev.talus.data.PartitionKey;
import dev.talus.sstable.IndexRowKeysReader;
import java.io.IOException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.roaringbitmap.RoaringBitmap;

/**
 * The rows an indexed read must look at: partitions in token order, each with the clusterings of
 * its candidate rows (the row keys of the index hits), or "the whole partition" when it has more
 * candidate rows than {@link #MAX_ROWS} (reading it whole with the filter is then as cheap) or when
 * a hit names no row. A superset of the matching rows: the caller reads each candidate and checks
 * it. Not thread-safe (one read builds and uses it).
 */
public final class IndexCandidates {
  /** Above this many candidate rows in one partition the partition is read whole. */
  public static final int MAX_ROWS = 64;

  /** Partition → its candidate clusterings in unsigned byte order; null: the whole partition. */
  private final NavigableMap<PartitionKey, NavigableSet<byte[]>> rows = new TreeMap<>();

  /** Adds row {@code clustering} of partition {@code pk}. */
  public void addRow(PartitionKey pk, byte[] clustering) {
    if (rows.containsKey(pk) && rows.get(pk) == null) {
      return;
    }
    NavigableSet<byte[]> set =
        rows.computeIfAbsent(pk, k -> new TreeSet<>(Arrays::compareUnsigned));
    set.add(clustering);
    if (set.size() > MAX_ROWS) {
      rows.put(pk, null);
    }
  }

  /** Adds partition {@code pk} whole. */
  public void addPartition(PartitionKey pk) {
    rows.put(pk, null);
  }

  /** Whether {@code pk} holds candidates already read whole (no need to look at its rows). */
  boolean isWhole(PartitionKey pk) {
    return rows.containsKey(pk) && rows.get(pk) == null;
  }

  /** Keeps only the rows that are candidates in {@code other} too (AND of two conditions). */
  public void retainAll(IndexCandidates other) {
    for (Iterator<Map.Entry<PartitionKey, NavigableSet<byte[]>>> it = rows.entrySet().iterator();
        it.hasNext(); ) {
      Map.Entry<PartitionKey, NavigableSet<byte[]>> e = it.next();
      if (!other.rows.containsKey(e.getKey())) {
        it.remove();
        continue;
      }
      NavigableSet<byte[]> theirs = other.rows.get(e.getKey());
      if (theirs == null) {
        continue;
      }
      if (e.getValue() == null) {
        e.setValue(new TreeSet<>(theirs));
      } else {
        e.getValue().retainAll(theirs);
        if (e.getValue().isEmpty()) {
          it.remove();
        }
      }
    }
  }

  /** The candidate partitions, in token order. */
  public NavigableSet<PartitionKey> partitions() {
    return rows.navigableKeySet();
  }

  /** The candidate clusterings of {@code pk}, in order; null if it is to be read whole. */
  public NavigableSet<byte[]> rowsOf(PartitionKey pk) {
    return rows.get(pk);
  }

  /**
   * Adds the rows of {@code hits} (row ids of one SSTable, ascending, so each partition's rows come
   * together): a partition with more hits than {@link IndexCandidates#MAX_ROWS} whole, without
   * reading its row keys; the others row by row.
   */
  static void addHits(
      IndexRowKeysReader rowKeys, RoaringBitmap hits, boolean rowLevel, IndexCandidates out)
      throws IOException {
    byte[] last = null;
    int[] group = new int[IndexCandidates.MAX_ROWS + 1];
    int n = 0;
    for (Iterator<Integer> it = hits.iterator(); ; ) {
      int rowId = it.hasNext() ? it.next() : -1;
      byte[] pk = rowId < 0 ? null : rowKeys.partitionKey(rowId);
      if (last != null && (pk == null || !Arrays.equals(last, pk))) {
        PartitionKey key = PartitionKey.of(last);
        if (!rowLevel || n > IndexCandidates.MAX_ROWS) {
          out.addPartition(key);
        } else if (!out.isWhole(key)) {
          for (int i = 0; i < n; i++) {
            out.addRow(key, rowKeys.rowKey(group[i]).clustering());
          }
        }
        n = 0;
      }
      if (pk == null) {
        return;
      }
      last = pk;
      if (n < group.length) {
        group[n] = rowId;
      }
      n++;
    }
  }
}
