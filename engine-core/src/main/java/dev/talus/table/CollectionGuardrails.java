package dev.talus.table;

import dev.talus.CollectionThresholds;
import dev.talus.ColumnDef;
import dev.talus.DataType;
import dev.talus.GuardrailViolationException;
import dev.talus.TalusMetricsListener.GuardrailKind;
import dev.talus.TalusMetricsListener.WarningKind;
import dev.talus.TalusOptions;
import dev.talus.data.Cell;
import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionUpdate;
import dev.talus.data.Row;
import dev.talus.metrics.MetricsEvents;
import dev.talus.schema.KeyCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The collection size guardrails of one table ({@link CollectionThresholds}; docs/guardrails.md),
 * following Cassandra 5.0: writes are judged by the elements they write to each collection column
 * of each row (Cassandra's {@code cql3/terms/Sets}, {@code Maps}, {@code Lists}: no read before
 * write), and SSTable writes by the live elements each stored non-frozen collection holds
 * (Cassandra's {@code SSTableWriter#guardCollectionSize}). A write over a failure threshold is
 * refused; a collection over a warning threshold is warned about once per open per row and column
 * (bounded memory: the last {@value #MAX_TRACKED} warned collections per table).
 *
 * <p>Bytes are counted per element cell as Cassandra's {@code Cell.dataSize()} does: path + value +
 * {@value #CELL_OVERHEAD} (timestamp, TTL, deletion time). Thread-safe.
 */
final class CollectionGuardrails {
  private static final Logger LOG = LoggerFactory.getLogger(CollectionGuardrails.class);

  /** Collections remembered as warned about, per table. */
  static final int MAX_TRACKED = 10_000;

  /** Bytes a cell adds to its path and value: timestamp (8), TTL (4), deletion time (4). */
  static final int CELL_OVERHEAD = 16;

  private final TableStore table;
  private final TalusOptions options;
  private final MetricsEvents metrics;
  private final AtomicLong warnings = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private final Map<Warned, Boolean> warned =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Warned, Boolean> eldest) {
          return size() > MAX_TRACKED;
        }
      };

  /** One collection: partition, row and column. */
  private record Warned(PartitionKey key, byte[] clustering, int column) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Warned w
          && w.column == column
          && w.key.equals(key)
          && Arrays.equals(w.clustering, clustering);
    }

    @Override
    public int hashCode() {
      return (key.hashCode() * 31 + Arrays.hashCode(clustering)) * 31 + column;
    }
  }

  CollectionGuardrails(TableStore table, TalusOptions options, MetricsEvents metrics) {
    this.table = table;
    this.options = options;
    this.metrics = metrics;
  }

  long warnings() {
    return warnings.get();
  }

  long failures() {
    return failures.get();
  }

  /** Items and bytes of one collection, summed over its cells. */
  private static final class Size {
    long items;
    long bytes;
  }

  /**
   * Refuses {@code u} if it writes more to one collection than a failure threshold allows. Called
   * before the write is logged. Returns the warnings to raise once the write has passed every check
   * (none if nothing is over a warning threshold).
   */
  List<Runnable> checkWrite(PartitionUpdate u) {
    CollectionThresholds t = options.collectionThresholds();
    List<Runnable> warn = new ArrayList<>(0);
    if (t.equals(CollectionThresholds.OFF)) {
      return warn;
    }
    KeyCodec keys = table.keys();
    for (Row r : u.rows()) {
      Map<Integer, Size> sizes = null;
      for (Cell c : r.cells()) {
        DataType type = keys.column(c.column()).type();
        if (!type.isCollection() || c.isTombstone()) {
          continue;
        }
        if (sizes == null) {
          sizes = new LinkedHashMap<>();
        }
        Size s = sizes.computeIfAbsent(c.column(), k -> new Size());
        if (c.hasPath()) {
          s.items++;
          s.bytes += c.path().length + c.value().length + CELL_OVERHEAD;
        } else {
          s.items += frozenCount(c.value());
          s.bytes += c.value().length + CELL_OVERHEAD;
        }
      }
      if (sizes == null) {
        continue;
      }
      for (Map.Entry<Integer, Size> e : sizes.entrySet()) {
        ColumnDef col = keys.column(e.getKey());
        Size s = e.getValue();
        if (t.itemsFail() > 0 && s.items > t.itemsFail()) {
          fail(u.key(), r, col, GuardrailKind.COLLECTION_ITEMS_FAIL, s.items + " elements", t);
        }
        if (t.bytesFail() > 0 && s.bytes > t.bytesFail()) {
          fail(u.key(), r, col, GuardrailKind.COLLECTION_SIZE_FAIL, s.bytes + " bytes", t);
        }
      }
      for (Map.Entry<Integer, Size> e : sizes.entrySet()) {
        Size s = e.getValue();
        if ((t.itemsWarn() > 0 && s.items > t.itemsWarn())
            || (t.bytesWarn() > 0 && s.bytes > t.bytesWarn())) {
          warn.add(() -> warnIfOver(u.key(), r, e.getKey(), s, t, "in one write"));
        }
      }
    }
    return warn;
  }

  /**
   * Called by the SSTable writer for each row it appends: measures its non-frozen collections. The
   * rows written have been through the partition merge, which drops cells their deletions shadow;
   * tombstones and expired elements are not counted.
   */
  void rowWritten(PartitionKey key, Row r) {
    try {
      CollectionThresholds t = options.collectionThresholds();
      if ((t.itemsWarn() <= 0 && t.bytesWarn() <= 0) || r.cells().length == 0) {
        return;
      }
      KeyCodec keys = table.keys();
      long now = options.clock().instant().getEpochSecond();
      int column = -1;
      Size s = null;
      for (Cell c : r.cells()) {
        if (c.column() != column) {
          if (s != null) {
            warnIfOver(key, r, column, s, t, "in an SSTable just written");
          }
          column = c.column();
          // a column dropped while its cells were in the memtable has no definition: skip it
          ColumnDef def = keys.column(column);
          DataType type = def == null ? null : def.type();
          s = type != null && type.isCollection() && type.isMultiCell() ? new Size() : null;
        }
        if (s != null && c.hasPath() && c.isLive(now)) {
          s.items++;
          s.bytes += c.path().length + c.value().length + CELL_OVERHEAD;
        }
      }
      if (s != null) {
        warnIfOver(key, r, column, s, t, "in an SSTable just written");
      }
    } catch (RuntimeException e) {
      // A guardrail must never fail a flush or a compaction.
      LOG.warn("Collection guardrail check of table {} failed", table.schema().name(), e);
    }
  }

  /** The element count a frozen collection's cell starts with (an unsigned LEB128 varint). */
  static long frozenCount(byte[] value) {
    long n = 0;
    for (int i = 0, shift = 0; i < value.length && shift < 64; i++, shift += 7) {
      n |= (long) (value[i] & 0x7F) << shift;
      if ((value[i] & 0x80) == 0) {
        break;
      }
    }
    return n;
  }

  private void warnIfOver(
      PartitionKey key, Row r, int column, Size s, CollectionThresholds t, String where) {
    boolean items = t.itemsWarn() > 0 && s.items > t.itemsWarn();
    boolean bytes = t.bytesWarn() > 0 && s.bytes > t.bytesWarn();
    if (!items && !bytes) {
      return;
    }
    synchronized (warned) {
      if (warned.put(new Warned(key, r.clustering(), column), Boolean.TRUE) != null) {
        return;
      }
    }
    warnings.incrementAndGet();
    String name = table.schema().name();
    ColumnDef col = table.keys().column(column);
    String is =
        items
            ? s.items + " elements, over the warning threshold of " + t.itemsWarn()
            : s.bytes + " bytes, over the warning threshold of " + t.bytesWarn() + " bytes";
    String option =
        items ? "items_per_collection_warn_threshold" : "collection_size_warn_threshold";
    metrics.warning(
        name,
        WarningKind.GUARDRAIL,
        "Collection "
            + col.name()
            + " of table "
            + name
            + " at "
            + describe(key, r)
            + " has "
            + is
            + " "
            + where
            + " ("
            + option
            + ", TalusOptions.collectionThresholds). Collections are read whole and should stay"
            + " small (a few hundred elements); model a growing one as clustering rows");
    metrics.guardrail(
        name,
        items ? GuardrailKind.COLLECTION_ITEMS_WARN : GuardrailKind.COLLECTION_SIZE_WARN,
        table.keys().describe(key));
  }

  private void fail(
      PartitionKey key,
      Row r,
      ColumnDef col,
      GuardrailKind kind,
      String would,
      CollectionThresholds t) {
    failures.incrementAndGet();
    String name = table.schema().name();
    metrics.guardrail(name, kind, table.keys().describe(key));
    boolean items = kind == GuardrailKind.COLLECTION_ITEMS_FAIL;
    throw new GuardrailViolationException(
        "write to table "
            + name
            + " at "
            + describe(key, r)
            + " refused: it writes "
            + would
            + " to collection "
            + col.name()
            + ", over the limit of "
            + (items ? t.itemsFail() + " elements" : t.bytesFail() + " bytes")
            + " ("
            + (items ? "items_per_collection_fail_threshold" : "collection_size_fail_threshold")
            + ", TalusOptions.collectionThresholds). Nothing was written. Keep collections small:"
            + " model a growing collection as clustering rows");
  }

  /** The partition key and, for a clustering row, its clustering values, as text. */
  private String describe(PartitionKey key, Row r) {
    KeyCodec keys = table.keys();
    String pk = keys.describe(key);
    if (r.isStatic() || table.schema().clustering().isEmpty()) {
      return "partition " + pk + (r.isStatic() ? " (static row)" : "");
    }
    Object[] ck = keys.decodeClustering(r.clustering());
    StringBuilder b = new StringBuilder("partition ").append(pk).append(" row (");
    for (int i = 0; i < ck.length; i++) {
      if (i > 0) {
        b.append(", ");
      }
      b.append(table.schema().clustering().get(i).name())
          .append('=')
          .append(keys.clusteringCodec(i).format(ck[i]));
    }
    return b.append(')').toString();
  }
}
