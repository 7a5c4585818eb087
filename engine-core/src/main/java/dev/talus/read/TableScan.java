package dev.talus.read;

import dev.talus.InvalidQueryException;
import dev.talus.ResultRow;
import dev.talus.TableSchema;
import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import dev.talus.data.Slice;
import dev.talus.request.ReadResult;
import dev.talus.schema.Columns;
import dev.talus.schema.KeyCodec;
import dev.talus.schema.PartitionKeys;
import dev.talus.sstable.SSTableReader;
import dev.talus.table.TableMetrics;
import dev.talus.table.TableStore;
import dev.talus.table.TableView;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One page of a scan (a read that names no partition): the table's current view is taken with a
 * reference on every SSTable for the whole page, its partition keys are merged in token order
 * ({@link ScanKeys}) from the paging state's partition or the start of the token range, and each
 * partition is read like a named one — same merge, reconciliation, tombstone counting, filters and
 * projection, from the SSTables the merge found it in (no Bloom filter or index search) — until the
 * page holds one row more than asked (which says that another page follows). Memory is bounded by
 * the page, never by the table. Thread-safe.
 */
final class TableScan {
  private final ReadPath path;
  private final TableStore table;
  private final KeyCodec keys;
  private final TableMetrics metrics;

  TableScan(ReadPath path, TableStore table) {
    this.path = path;
    this.table = table;
    this.keys = table.keys();
    this.metrics = table.metrics();
  }

  /** The token of the partition with these key values (checked and coerced as a read's). */
  static long token(KeyCodec keys, List<Object> values) {
    TableSchema s = keys.schema();
    if (values.size() != s.partitionKey().size()) {
      throw new InvalidQueryException(
          "token of "
              + s.name()
              + " needs "
              + s.partitionKey().size()
              + " partition key value(s), got "
              + values.size());
    }
    Object[] v = new Object[values.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = Columns.keyValue(s, s.partitionKey().get(i), values.get(i));
    }
    return PartitionKeys.of(keys, v).token();
  }

  ReadResult page(
      QueryPlanner.Plan plan, long now, ReadTombstones tombstones, AtomicInteger sources) {
    ScanPaging.Resume resume = ScanPaging.resume(plan);
    int remainingLimit = plan.limit() - resume.alreadyReturned();
    if (remainingLimit <= 0) {
      return new ReadResult(List.of(), null, 0, 0);
    }
    int want = Math.min(remainingLimit, plan.pageSize());
    int fetch = want == Integer.MAX_VALUE ? want : want + 1;
    List<ReadPath.Found> out = new ArrayList<>();
    List<PartitionKey> partitions = new ArrayList<>();
    TableView v = referencedView();
    try {
      PartitionKey start = resume.key() != null ? resume.key() : plan.scan().firstKey();
      ScanKeys it = new ScanKeys(v, start, true);
      while (out.size() < fetch && it.hasNext()) {
        PartitionKey key = it.next();
        PartitionData[] held = it.sstablePartitions(); // valid until the next key
        if (plan.scan().pastEnd(key)) {
          break;
        }
        boolean resumed = resume.key() != null && key.equals(resume.key());
        List<Slice> slices = resumed ? ScanPaging.after(plan, resume.clustering()) : plan.slices();
        int perPartition = plan.perPartitionLimit() - (resumed ? resume.inPartition() : 0);
        int max = Math.min(fetch - out.size(), perPartition);
        if (slices.isEmpty() || max <= 0) {
          continue;
        }
        int index = partitions.size();
        List<ReadPath.Found> rows =
            path.rows(
                plan,
                key,
                keys.decodePartitionKey(key.bytes()),
                index,
                slices,
                max,
                resumed,
                now,
                tombstones,
                sources,
                slice -> SSTableSelector.held(v, metrics, key, slice, held));
        if (!rows.isEmpty()) {
          partitions.add(key);
          out.addAll(rows);
        }
      }
    } finally {
      v.sstables().forEach(SSTableReader::release);
    }
    byte[] state = null;
    if (out.size() > want) {
      out = out.subList(0, want);
      ReadPath.Found last = out.get(want - 1);
      PartitionKey lastKey = partitions.get(last.partition());
      int inLast = 0;
      for (ReadPath.Found f : out) {
        inLast += f.partition() == last.partition() ? 1 : 0;
      }
      if (lastKey.equals(resume.key())) {
        inLast += resume.inPartition();
      }
      if (want < remainingLimit) {
        state =
            ScanPaging.state(
                plan, lastKey, last.clustering(), resume.alreadyReturned() + want, inLast);
      }
    }
    List<ResultRow> rows = new ArrayList<>(out.size());
    for (ReadPath.Found f : out) {
      rows.add(f.row());
    }
    return new ReadResult(rows, state, sources.get(), tombstones.scanned.get());
  }

  /** The current view, with a reference taken on each of its SSTables (released by the caller). */
  private TableView referencedView() {
    while (true) {
      TableView v = table.tracker().current();
      List<SSTableReader> taken = new ArrayList<>(v.sstables().size());
      for (SSTableReader r : v.sstables()) {
        if (!r.tryRef()) {
          break;
        }
        taken.add(r);
      }
      if (taken.size() == v.sstables().size()) {
        return v;
      }
      taken.forEach(SSTableReader::release); // a compaction replaced a file; take the new view
    }
  }
}
