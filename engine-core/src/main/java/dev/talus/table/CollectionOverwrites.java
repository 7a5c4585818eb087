package dev.talus.table;

import dev.talus.ColumnDef;
import dev.talus.TalusMetricsListener.WarningKind;
import dev.talus.data.Cell;
import dev.talus.data.ComplexDeletion;
import dev.talus.data.PartitionUpdate;
import dev.talus.data.Row;
import dev.talus.metrics.MetricsEvents;
import dev.talus.schema.KeyCodec;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Watches how one table's writes treat its non-frozen collections and user types, and warns (once
 * per column per open, as a data-model warning) when they keep replacing whole values: each
 * replacement writes a collection tombstone (at the write's timestamp − 1, as Cassandra does) that
 * reads scan until gc_grace has passed and a compaction purges it — an INSERT of a new row
 * included. Seed 001's lint rule "collections in a table written by overwrite" needs the writes, so
 * it is checked here rather than in {@link dev.talus.SchemaLint}.
 *
 * <p>A write replaces a column's value when it carries both a complex deletion for the column and
 * elements written one microsecond after it; it writes elements when it carries elements and no
 * deletion of the column (add, put, append, element removal). Setting a column to null or empty, or
 * deleting it, counts as neither. Every {@value #EVERY} replacements of a column, if fewer than one
 * write in ten of that column was element-wise, the warning is logged; then never again for the
 * column until the table is reopened. Cost: a few counter increments per write of such a column.
 * Thread-safe.
 */
final class CollectionOverwrites {
  /** Replacements of one column between two looks at the ratio. */
  static final long EVERY = 1000;

  private final TableStore table;
  private final MetricsEvents metrics;
  private final Map<String, Counts> columns = new ConcurrentHashMap<>();

  private static final class Counts {
    final AtomicLong replacements = new AtomicLong();
    final AtomicLong elementWrites = new AtomicLong();
    volatile boolean warned;
  }

  CollectionOverwrites(TableStore table, MetricsEvents metrics) {
    this.table = table;
    this.metrics = metrics;
  }

  /**
   * Counts what {@code u} does to each multi-cell column; called once a write passed its checks.
   */
  void written(PartitionUpdate u) {
    KeyCodec keys = table.keys();
    for (Row r : u.rows()) {
      Cell[] cells = r.cells();
      int i = 0;
      while (i < cells.length) {
        int column = cells[i].column();
        long ts = cells[i].timestamp();
        while (i < cells.length && cells[i].column() == column) {
          i++;
        }
        ColumnDef c = keys.column(column);
        if (!c.type().isMultiCell()) {
          continue;
        }
        Counts counts = columns.computeIfAbsent(c.name(), k -> new Counts());
        if (counts.warned) {
          continue;
        }
        if (replaces(r, column, ts)) {
          long n = counts.replacements.incrementAndGet();
          if (n % EVERY == 0 && counts.elementWrites.get() * 10 < n) {
            warn(c, counts, n);
          }
        } else if (r.complexDeletion(column).isLive()) {
          counts.elementWrites.incrementAndGet();
        }
      }
    }
  }

  private static boolean replaces(Row r, int column, long cellTimestamp) {
    for (ComplexDeletion d : r.complexDeletions()) {
      if (d.column() == column) {
        return d.deletion().markedForDeleteAt() == cellTimestamp - 1;
      }
    }
    return false;
  }

  private void warn(ColumnDef c, Counts counts, long n) {
    counts.warned = true;
    String name = table.schema().name();
    metrics.warning(
        name,
        WarningKind.DATA_MODEL,
        "table "
            + name
            + ": column "
            + c.name()
            + " ("
            + c.type().cqlName()
            + ") was replaced whole by "
            + n
            + " writes since the table was opened and written element by element by "
            + counts.elementWrites.get()
            + ". Each replacement, an INSERT included, leaves a collection tombstone that reads"
            + " scan until it is purged after gc_grace. Write elements (add, put, append: in CQL"
            + " SET c = c + ...) instead, or make the column frozen if it is always written whole");
  }
}
