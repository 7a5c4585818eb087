package dev.talus.table;

import dev.talus.GuardrailViolationException;
import dev.talus.TalusMetricsListener;
import dev.talus.TalusMetricsListener.GuardrailKind;
import dev.talus.TalusOptions;
import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionUpdate;
import dev.talus.data.Row;
import dev.talus.memtable.MemPartition;
import dev.talus.memtable.Memtable;
import dev.talus.metrics.MetricsEvents;
import dev.talus.sstable.PartitionObserver;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The partition size and partition rows guardrails of one table (docs/guardrails.md).
 *
 * <ul>
 *   <li><b>Warnings</b> are raised where SSTables are written: every partition a flush or a
 *       compaction appends is measured exactly (serialized bytes, rows) through the writer's {@link
 *       PartitionObserver}; one crossing a warning threshold is logged once per partition (bounded
 *       memory: the last {@value #MAX_TRACKED} warned keys per table) and counted.
 *   <li><b>Failures</b> are checked on each write, before it is logged: the partition's estimated
 *       size — the memtables' heap estimate for it, plus the largest size an SSTable write recorded
 *       for it since the table was opened — plus the write itself. A write adding rows or cells
 *       that would cross a failure threshold is refused; deletions never are (they are how a user
 *       shrinks an oversized partition).
 * </ul>
 *
 * The collection size guardrails ({@link CollectionGuardrails}) are checked through this class too,
 * at the same two places, and counted with it; writes that passed are shown to {@link
 * CollectionOverwrites}.
 *
 * <p>Thresholds are read from the schema on each use (a schema value of null means the engine
 * default; 0 means off), so a schema change takes effect at once. Thread-safe; two concurrent
 * writes to one partition may both pass a check that only one of them would (the check is an
 * estimate, not a lock).
 */
public final class PartitionGuardrails implements PartitionObserver {
  private static final Logger LOG = LoggerFactory.getLogger(PartitionGuardrails.class);

  /** Per table: warned keys remembered, and SSTable-recorded partition sizes remembered. */
  static final int MAX_TRACKED = 10_000;

  private final TableStore table;
  private final TalusOptions options;
  private final MetricsEvents metrics;
  private final AtomicLong warnings = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private final Map<PartitionKey, Boolean> warned = lru();
  private final Map<PartitionKey, long[]> recorded = lru();
  private final CollectionGuardrails collections;
  private final CollectionOverwrites overwrites;

  PartitionGuardrails(TableStore table, TalusOptions options, MetricsEvents metrics) {
    this.table = table;
    this.options = options;
    this.metrics = metrics;
    this.collections = new CollectionGuardrails(table, options, metrics);
    this.overwrites = new CollectionOverwrites(table, metrics);
  }

  private static <V> Map<PartitionKey, V> lru() {
    return new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<PartitionKey, V> eldest) {
        return size() > MAX_TRACKED;
      }
    };
  }

  /** Warnings of the partition and collection guardrails. */
  long warnings() {
    return warnings.get() + collections.warnings();
  }

  /** Writes refused by the partition and collection guardrails. */
  long failures() {
    return failures.get() + collections.failures();
  }

  private static long resolve(Long tableValue, long engineDefault) {
    return tableValue != null ? tableValue : engineDefault;
  }

  long sizeWarn() {
    return resolve(table.schema().partitionSizeWarnBytes(), options.partitionSizeWarnBytes());
  }

  long sizeFail() {
    return resolve(table.schema().partitionSizeFailBytes(), options.partitionSizeFailBytes());
  }

  long rowsWarn() {
    return resolve(table.schema().partitionRowsWarn(), options.partitionRowsWarn());
  }

  long rowsFail() {
    return resolve(table.schema().partitionRowsFail(), options.partitionRowsFail());
  }

  /**
   * Refuses {@code u} if it would push its partition past a failure threshold. Called before the
   * write is logged, so a refused write leaves nothing behind.
   */
  public void checkWrite(PartitionUpdate u) {
    List<Runnable> collectionWarnings = collections.checkWrite(u);
    checkPartition(u);
    collectionWarnings.forEach(Runnable::run);
    overwrites.written(u);
  }

  private void checkPartition(PartitionUpdate u) {
    PartitionKey key = u.key();
    if (!u.partitionDeletion().isLive()) {
      synchronized (recorded) {
        recorded.remove(key); // what the SSTables held for it is now deleted
      }
    }
    long sizeFail = sizeFail();
    long rowsFail = rowsFail();
    if ((sizeFail <= 0 && rowsFail <= 0) || !addsData(u)) {
      return;
    }
    TableView v = table.tracker().current();
    long bytes = u.heapSize();
    long rows = 0;
    MemPartition active = v.active().get(key);
    for (Row r : u.rows()) {
      if (active == null || !active.hasRow(r.clustering())) {
        rows++;
      }
    }
    if (active != null) {
      bytes += active.estimatedBytes();
      rows += active.rowCount();
    }
    for (Memtable m : v.flushing()) {
      MemPartition p = m.get(key);
      if (p != null) {
        bytes += p.estimatedBytes();
        rows += p.rowCount();
      }
    }
    long[] onDisk;
    synchronized (recorded) {
      onDisk = recorded.get(key);
    }
    if (onDisk != null) {
      bytes += onDisk[0];
      rows += onDisk[1];
    }
    if (sizeFail > 0 && bytes > sizeFail) {
      fail(
          key,
          GuardrailKind.PARTITION_SIZE_FAIL,
          "an estimated " + bytes + " bytes",
          sizeFail,
          "partition_size_fail_threshold, bytes");
    }
    if (rowsFail > 0 && rows > rowsFail) {
      fail(
          key,
          GuardrailKind.PARTITION_ROWS_FAIL,
          "an estimated " + rows + " rows",
          rowsFail,
          "partition_rows_fail_threshold");
    }
  }

  /** True if {@code u} writes a cell or a row marker (pure deletions are always allowed). */
  private static boolean addsData(PartitionUpdate u) {
    for (Row r : u.rows()) {
      if (r.cells().length > 0 || !r.liveness().isEmpty()) {
        return true;
      }
    }
    return false;
  }

  private void fail(PartitionKey key, GuardrailKind kind, String would, long limit, String what) {
    failures.incrementAndGet();
    String name = table.schema().name();
    String described = table.keys().describe(key);
    metrics.guardrail(name, kind, described);
    throw new GuardrailViolationException(
        "write to table "
            + name
            + " partition "
            + described
            + " refused: it would grow the partition to "
            + would
            + ", over the limit of "
            + limit
            + " ("
            + what
            + "). Nothing was written. Bound the partition: add a time or hash bucket to the"
            + " partition key (see dev.talus.Buckets)");
  }

  /** Called by the SSTable writer (flush and compaction) for each row it appends. */
  @Override
  public void rowWritten(PartitionKey key, Row row) {
    collections.rowWritten(key, row);
  }

  /** Called by the SSTable writer (flush and compaction) for each partition it appends. */
  @Override
  public void partitionWritten(PartitionKey key, long bytes, long rows) {
    try {
      long sizeWarn = sizeWarn();
      long rowsWarn = rowsWarn();
      if (sizeWarn > 0 && bytes > sizeWarn) {
        warnOnce(key, GuardrailKind.PARTITION_SIZE_WARN, bytes + " bytes", sizeWarn, "bytes");
      } else if (rowsWarn > 0 && rows > rowsWarn) {
        warnOnce(key, GuardrailKind.PARTITION_ROWS_WARN, rows + " rows", rowsWarn, "rows");
      }
      long sizeFail = sizeFail();
      long rowsFail = rowsFail();
      if ((sizeFail > 0 && bytes >= sizeFail / 2) || (rowsFail > 0 && rows >= rowsFail / 2)) {
        // Only partitions halfway to a failure threshold are remembered: memory stays bounded and
        // small partitions cost nothing.
        synchronized (recorded) {
          long[] old = recorded.get(key);
          if (old == null || old[0] < bytes || old[1] < rows) {
            recorded.put(
                key,
                new long[] {
                  Math.max(bytes, old == null ? 0 : old[0]),
                  Math.max(rows, old == null ? 0 : old[1])
                });
          }
        }
      }
    } catch (RuntimeException e) {
      // A guardrail must never fail a flush or a compaction.
      LOG.warn("Partition guardrail check of table {} failed", table.schema().name(), e);
    }
  }

  private void warnOnce(PartitionKey key, GuardrailKind kind, String is, long limit, String unit) {
    synchronized (warned) {
      if (warned.put(key, Boolean.TRUE) != null) {
        return;
      }
    }
    warnings.incrementAndGet();
    String name = table.schema().name();
    String described = table.keys().describe(key);
    metrics.warning(
        name,
        TalusMetricsListener.WarningKind.GUARDRAIL,
        "Partition "
            + described
            + " of table "
            + name
            + " is "
            + is
            + " in an SSTable just written, over the warning threshold of "
            + limit
            + " "
            + unit
            + " ("
            + (kind == GuardrailKind.PARTITION_SIZE_WARN
                ? "partition_size_warn_threshold"
                : "partition_rows_warn_threshold")
            + "). Large partitions make reads, compaction and repair slow; add a time or hash"
            + " bucket to the partition key");
    metrics.guardrail(name, kind, described);
  }
}
