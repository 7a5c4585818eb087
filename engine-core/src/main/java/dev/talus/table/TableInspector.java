package dev.talus.table;

import dev.talus.IndexDef;
import dev.talus.IndexStatus;
import dev.talus.Percentiles;
import dev.talus.SSTableSummary;
import dev.talus.TableHistograms;
import dev.talus.TableStats;
import dev.talus.sstable.LogHistogram;
import dev.talus.sstable.SSTableReader;
import dev.talus.sstable.SSTableStats;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns a table's internal state into the public inspection records: its statistics, SSTable
 * summaries and histograms. Read-only; thread-safe. (What each source holds for one partition is a
 * read: {@code dev.talus.read.PartitionDump}.)
 */
public final class TableInspector {
  private final TableStore table;

  public TableInspector(TableStore table) {
    this.table = table;
  }

  /** The table's statistics now (like {@code nodetool tablestats}). */
  public TableStats stats(long now) {
    TableView v = table.tracker().current();
    TableMetrics m = table.metrics();
    TableCompactions c = table.compactions();
    PartitionGuardrails g = table.guardrails();
    Map<Integer, Integer> perLevel = new TreeMap<>();
    Map<Integer, Long> bytesPerLevel = new TreeMap<>();
    long disk = 0;
    long droppable = 0;
    long sstableHeap = 0;
    long gcBefore = c.gcBefore(now);
    for (SSTableReader r : v.sstables()) {
      int level = r.stats().level();
      perLevel.merge(level, 1, Integer::sum);
      bytesPerLevel.merge(level, r.onDiskSize(), Long::sum);
      disk += r.onDiskSize();
      sstableHeap += r.heapBytes();
      droppable += r.stats().estimatedDroppableTombstones(gcBefore);
    }
    return new TableStats(
        table.schema().name(),
        v.sstables().size(),
        perLevel,
        bytesPerLevel,
        disk,
        v.memtableBytes(),
        sstableHeap,
        m.writes.sum(),
        m.reads.sum(),
        TableMetrics.percentiles(m.writeLatency),
        TableMetrics.percentiles(m.readLatency),
        TableMetrics.percentiles(m.sourcesPerRead),
        TableMetrics.percentiles(m.tombstonesPerRead),
        m.flushes.get(),
        m.bytesFlushed.get(),
        table.flushRunningSince(),
        c.pending(),
        c.running(),
        c.completed.get(),
        c.bytesRead.get(),
        c.bytesWritten.get(),
        c.expiredDropped.get(),
        c.tombstonesPurged.get(),
        droppable,
        m.tombstoneWarnings.get(),
        g.warnings(),
        g.failures(),
        m.bloomFalsePositives.sum(),
        m.bloomLookups.sum(),
        c.outOfOrderFlushes.get(),
        table.quarantine().count(),
        c.describe(),
        c.failures().total(),
        c.failures().consecutive(),
        c.failures().retryAt(),
        c.failures().lastFailure(),
        indexes(v));
  }

  private List<IndexStatus> indexes(TableView v) {
    List<IndexStatus> out = new ArrayList<>();
    for (IndexDef d : table.indexes().definitions()) {
      out.add(table.indexes().status(d, v.sstables()));
    }
    return out;
  }

  /** The live SSTables with their statistics, oldest first. */
  public List<SSTableSummary> sstables(long now) {
    List<SSTableSummary> out = new ArrayList<>();
    long gcBefore = now - table.schema().gcGrace().getSeconds();
    for (SSTableReader r : table.tracker().current().sstables()) {
      SSTableStats s = r.stats();
      out.add(
          new SSTableSummary(
              r.generation(),
              s.level(),
              r.onDiskSize(),
              Instant.ofEpochSecond(s.createdAtSeconds()),
              s.minTimestamp(),
              s.maxTimestamp(),
              s.minLocalDeletionTime(),
              s.maxLocalDeletionTime(),
              s.partitionCount(),
              s.rowCount(),
              s.cellCount(),
              s.tombstoneCount(),
              s.estimatedDroppableTombstones(gcBefore),
              Arrays.asList(table.keys().decodePartitionKey(r.firstKey().bytes())),
              Arrays.asList(table.keys().decodePartitionKey(r.lastKey().bytes())),
              r.firstKey().token(),
              r.lastKey().token()));
    }
    out.sort((a, b) -> Long.compare(a.generation(), b.generation()));
    return out;
  }

  /** Partition size and cell count percentiles over the live SSTables. */
  public TableHistograms histograms() {
    long[] sizes = new long[65];
    long[] cells = new long[65];
    for (SSTableReader r : table.tracker().current().sstables()) {
      add(sizes, r.stats().partitionSizes());
      add(cells, r.stats().cellsPerPartition());
    }
    return new TableHistograms(percentiles(sizes), percentiles(cells));
  }

  private static void add(long[] into, LogHistogram h) {
    long[] b = h.buckets();
    for (int i = 0; i < into.length && i < b.length; i++) {
      into[i] += b[i];
    }
  }

  /** Power-of-two buckets: each percentile is the upper end of its bucket. */
  private static Percentiles percentiles(long[] buckets) {
    long total = 0;
    for (long c : buckets) {
      total += c;
    }
    if (total == 0) {
      return Percentiles.EMPTY;
    }
    return new Percentiles(
        total,
        at(buckets, total, 0.50),
        at(buckets, total, 0.75),
        at(buckets, total, 0.95),
        at(buckets, total, 0.98),
        at(buckets, total, 0.99),
        at(buckets, total, 1.0));
  }

  private static long at(long[] buckets, long total, double q) {
    long target = Math.max(1, (long) Math.ceil(q * total));
    long seen = 0;
    for (int b = 0; b < buckets.length; b++) {
      seen += buckets[b];
      if (seen >= target) {
        return b == 0 ? 0 : b >= 63 ? Long.MAX_VALUE : (1L << b) - 1;
      }
    }
    return Long.MAX_VALUE;
  }
}
