package dev.talus.db;

import dev.talus.CompactionOptions;
import dev.talus.CorruptDataException;
import dev.talus.SSTableSummary;
import dev.talus.StorageException;
import dev.talus.StoredPartition;
import dev.talus.TableHistograms;
import dev.talus.TableSchema;
import dev.talus.TableStats;
import dev.talus.io.CorruptFileException;
import dev.talus.read.PartitionDump;
import dev.talus.read.ReadPath;
import dev.talus.request.ReadRequest;
import dev.talus.request.ReadResult;
import dev.talus.request.WriteRequest;
import dev.talus.table.TableInspector;
import dev.talus.table.TableStore;
import java.io.IOException;
import java.time.InstantSource;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * One table as the public API sees it (the other half of the seam, with {@link Database}): every
 * public call of a table lands here, goes to the part of the engine that does it — the write path,
 * the table's read path, its flusher, compactions or inspection — and has damaged stored bytes
 * translated by {@link Corruption}. Thread-safe.
 */
public final class TableHandle {
  private final Database db;
  private final TableStore store;
  private final ReadPath reads;
  private final PartitionDump dumps;
  private final TableInspector inspector;

  TableHandle(Database db, TableStore store, Executor readThreads) {
    this.db = db;
    this.store = store;
    this.reads = new ReadPath(store, db.context(), readThreads);
    this.dumps = new PartitionDump(store);
    this.inspector = new TableInspector(store);
  }

  TableStore store() {
    return store;
  }

  public TableSchema schema() {
    return store.schema();
  }

  private String name() {
    return store.schema().name();
  }

  /** The clock of this table's database. */
  public InstantSource clock() {
    return db.clock();
  }

  /** The token of the partition with these key values (coerced to the key columns' types). */
  public long token(List<Object> partitionKeyValues) {
    db.checkOpen();
    TableSchema s = store.schema();
    List<dev.talus.ColumnDef> pk = s.partitionKey();
    if (partitionKeyValues.size() != pk.size()) {
      throw new dev.talus.InvalidQueryException(
          "the partition key of "
              + s.name()
              + " has "
              + pk.size()
              + " column(s) "
              + pk.stream().map(dev.talus.ColumnDef::name).toList()
              + ", got "
              + partitionKeyValues.size()
              + " value(s)");
    }
    Object[] values = new Object[pk.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = dev.talus.schema.Columns.keyValue(s, pk.get(i), partitionKeyValues.get(i));
    }
    return store.keys().partitionKey(values).token();
  }

  /** Validates and applies one write. */
  public void write(WriteRequest req) {
    try {
      db.writes().write(store, req);
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "table " + name());
    }
  }

  /** Validates and runs one read. */
  public ReadResult read(ReadRequest req) {
    try {
      return reads.read(req);
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "table " + name());
    }
  }

  /** Flushes the memtable to an SSTable and waits until it is live. */
  public void flush() {
    try {
      store.flush();
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "flush of table " + name());
    }
  }

  /** A major compaction; returns when it is done. */
  public void compact() {
    db.checkOpen();
    try {
      store.compactions().major();
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "compaction of table " + name());
    }
  }

  /** Compacts exactly these SSTables together (a user-defined compaction). */
  public void compact(Collection<Long> generations) {
    db.checkOpen();
    try {
      store.compactions().userDefined(generations);
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "compaction of table " + name());
    }
  }

  /** Runs the strategy's next proposed compaction on this thread; false if it proposes none. */
  public boolean runNextCompaction() {
    db.checkOpen();
    try {
      return store.compactions().runNextBackground();
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "compaction of table " + name());
    }
  }

  /** Waits until no compaction runs for this table and its strategy proposes none. */
  public void awaitCompactions() {
    db.checkOpen();
    try {
      store.compactions().awaitIdle();
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "compaction of table " + name());
    }
  }

  public void setCompaction(CompactionOptions options) {
    db.setCompaction(store, options);
  }

  /**
   * Reads every SSTable component and chunk of this table and checks every checksum; returns the
   * number of SSTables checked.
   */
  public int verify() {
    try {
      return store.verify();
    } catch (CorruptFileException e) {
      Throwable[] more = e.getSuppressed();
      String context =
          "table "
              + name()
              + (more.length == 0 ? "" : " (" + (more.length + 1) + " damaged SSTables)");
      CorruptDataException first = Corruption.translate(e, context);
      for (Throwable t : more) {
        if (t instanceof CorruptFileException c) {
          first.addSuppressed(Corruption.translate(c, "table " + name()));
        }
      }
      throw first;
    } catch (IOException e) {
      throw new StorageException("verify of table " + name() + " failed: " + e.getMessage(), e);
    }
  }

  /** SSTables quarantined under {@link dev.talus.DiskFailurePolicy#QUARANTINE}. */
  public long quarantinedSSTables() {
    return store.quarantine().count();
  }

  /** The table's statistics now. */
  public TableStats stats() {
    db.checkOpen();
    try {
      return inspector.stats(db.context().nowSeconds());
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "table " + name());
    }
  }

  public TableHistograms histograms() {
    db.checkOpen();
    try {
      return inspector.histograms();
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "table " + name());
    }
  }

  public List<SSTableSummary> sstableSummaries() {
    db.checkOpen();
    try {
      return inspector.sstables(db.context().nowSeconds());
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "table " + name());
    }
  }

  /** What each source holds for the partition with these key values, newest first. */
  public List<StoredPartition> dump(List<Object> partitionKeyValues) {
    db.checkOpen();
    try {
      return dumps.dump(partitionKeyValues);
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "table " + name());
    }
  }

  /** Tombstones the most recent read on this table scanned. */
  public int lastReadTombstones() {
    return store.metrics().lastReadTombstones();
  }
}
