package dev.talus.db;

import dev.talus.ColumnDef;
import dev.talus.IndexStatus;
import dev.talus.InvalidQueryException;
import dev.talus.ResultRow;
import dev.talus.TableSchema;
import dev.talus.data.PartitionKey;
import dev.talus.index.IndexCandidates;
import dev.talus.index.IndexProgress;
import dev.talus.index.IndexQueries;
import dev.talus.index.IndexRange;
import dev.talus.memtable.Memtable;
import dev.talus.read.ReadPath;
import dev.talus.request.ReadRequest;
import dev.talus.request.ReadResult;
import dev.talus.request.Restriction;
import dev.talus.request.TupleRestriction;
import dev.talus.schema.KeyCodec;
import dev.talus.sstable.SSTableReader;
import dev.talus.table.TableStore;
import dev.talus.table.TableView;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableSet;

/**
 * A read served by the table's storage-attached indexes ({@link IndexQueries}). Without the
 * partition key: the candidate rows are those that may match every indexed condition (per
 * condition, the union over the SSTables' term dictionaries and a scan of the memtables; then the
 * intersection), grouped by partition in token order; each partition is then read by the normal
 * read path with every condition of the query applied as a filter — only its candidate rows (a
 * {@code (clustering) IN (...)} restriction) when the query restricts no clustering column, the
 * partition has at most {@link IndexCandidates#MAX_ROWS} of them and they fit in the page, else the
 * whole partition — so that the read path applies partition deletions, range tombstones, TTL and
 * newer values to each row as it always does, so what returns is exactly what a filtering scan
 * returns — overwritten, deleted and expired values never do. With the partition key, the named
 * partitions are read the same way. Paging state: the rows returned so far, the last partition read
 * and the inner read's own paging state within it. Stateless.
 */
final class IndexedRead {
  private static final int MAGIC = 0x53414950; // "SAIP"

  private IndexedRead() {}

  /** The result of {@code req}, or null if the indexes do not serve it. */
  static ReadResult read(TableStore store, ReadPath reads, ReadRequest asked) {
    IndexQueries.Plan plan =
        IndexQueries.plan(store.schema(), store.indexes().definitions(), asked);
    if (plan == null) {
      return null;
    }
    ReadRequest req = plan.request(); // analyzed equalities rechecked as analyzed
    // a read that opted into filtering is served by the filtering scan while an index builds,
    // unless an analyzer changes its equalities (the scan would compare them unanalyzed)
    boolean plainRecheck = req.restrictions().equals(asked.restrictions());
    for (IndexRange range : plan.ranges()) {
      IndexProgress p = store.indexes().progress(range.index().name());
      if (p != null
          && p.state() != IndexStatus.State.QUERYABLE
          && req.allowFiltering()
          && plainRecheck) {
        return null; // the read opted into filtering: it reads without the index
      }
    }
    for (IndexRange range : plan.ranges()) {
      IndexProgress p = store.indexes().progress(range.index().name());
      if (p != null) {
        p.checkQueryable(); // refuses a building or failed index; counts the read
      }
    }
    if (plan.keyed()) {
      return reads.read(
          IndexQueries.narrowed(req, List.of(), req.limit(), req.pageSize(), req.pagingState()));
    }
    KeyCodec keys = store.keys();
    IndexCandidates candidates = candidates(store, keys, plan.ranges());
    Resume at = resume(req.pagingState());
    int returned = at.returned;
    byte[] inner = at.inner;
    NavigableSet<PartitionKey> todo =
        at.partition == null
            ? candidates.partitions()
            : candidates.partitions().tailSet(PartitionKey.of(at.partition), at.inclusive);
    List<ResultRow> rows = new ArrayList<>();
    int sources = 0;
    int tombstones = 0;
    TableSchema s = keys.schema();
    boolean rowLevel = !s.clustering().isEmpty() && !restrictsClustering(s, req);
    for (PartitionKey pk : todo) {
      if (returned >= req.limit()) {
        break;
      }
      if (rows.size() >= req.pageSize()) {
        return new ReadResult(rows, state(returned, pk, null, true), sources, tombstones);
      }
      Object[] values = keys.decodePartitionKey(pk.bytes());
      List<Restriction> eq = new ArrayList<>(values.length);
      for (int i = 0; i < values.length; i++) {
        eq.add(
            new Restriction(s.partitionKey().get(i).name(), Restriction.Op.EQ, List.of(values[i])));
      }
      int room = Math.min(req.limit() - returned, req.pageSize() - rows.size());
      NavigableSet<byte[]> only = rowLevel && inner == null ? candidates.rowsOf(pk) : null;
      ReadRequest one = IndexQueries.narrowed(req, eq, Integer.MAX_VALUE, room, inner);
      if (only != null && only.size() < req.pageSize() - rows.size()) {
        // only the candidate rows: fewer than the page has room for, so this read ends within
        // the page (or at the limit) and never hands out an inner paging state tied to the list
        one = onlyRows(one, keys, only);
      }
      ReadResult r = reads.read(one);
      inner = null;
      rows.addAll(r.rows());
      returned += r.rows().size();
      sources += r.sourcesTouched();
      tombstones += r.tombstonesScanned();
      if (r.pagingState() != null && returned < req.limit()) {
        return new ReadResult(
            rows, state(returned, pk, r.pagingState(), false), sources, tombstones);
      }
    }
    return new ReadResult(rows, null, sources, tombstones);
  }

  /** Whether {@code req} restricts a clustering column (then its rows are not narrowed). */
  private static boolean restrictsClustering(TableSchema s, ReadRequest req) {
    if (!req.tupleRestrictions().isEmpty()) {
      return true;
    }
    for (Restriction x : req.restrictions()) {
      ColumnDef c = s.column(x.column()).orElse(null);
      if (c != null && c.kind() == ColumnDef.Kind.CLUSTERING) {
        return true;
      }
    }
    return false;
  }

  /** {@code one} reading only the rows of clusterings {@code only}: (c1, …, cn) IN (…). */
  private static ReadRequest onlyRows(ReadRequest one, KeyCodec keys, NavigableSet<byte[]> only) {
    List<String> columns = new ArrayList<>();
    keys.schema().clustering().forEach(c -> columns.add(c.name()));
    List<List<Object>> tuples = new ArrayList<>(only.size());
    for (byte[] clustering : only) {
      tuples.add(Arrays.asList(keys.decodeClustering(clustering)));
    }
    return new ReadRequest(
        one.restrictions(),
        List.of(new TupleRestriction(columns, Restriction.Op.IN, tuples)),
        one.columns(),
        one.orderBy(),
        one.reversed(),
        one.limit(),
        one.pageSize(),
        one.pagingState(),
        one.allowFiltering(),
        one.perPartitionLimit(),
        one.tokenRestrictions(),
        one.selectors());
  }

  /** The rows that may match every range, from one consistent view of the table. */
  private static IndexCandidates candidates(
      TableStore store, KeyCodec keys, List<IndexRange> ranges) {
    while (true) {
      TableView v = store.tracker().current();
      List<SSTableReader> taken = new ArrayList<>(v.sstables().size());
      for (SSTableReader r : v.sstables()) {
        if (!r.tryRef()) {
          break;
        }
        taken.add(r);
      }
      if (taken.size() != v.sstables().size()) {
        taken.forEach(SSTableReader::release); // a compaction replaced a file; take the new view
        continue;
      }
      try {
        List<Memtable> memtables = new ArrayList<>(v.flushing());
        memtables.add(v.active());
        IndexCandidates out = null;
        for (IndexRange range : ranges) {
          IndexCandidates these = store.indexes().candidates(range, memtables, taken, keys);
          if (out == null) {
            out = these;
          } else {
            out.retainAll(these);
          }
        }
        store.indexes().retain(v.sstables());
        return out;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        taken.forEach(SSTableReader::release);
      }
    }
  }

  /** Where a paged read resumes: nothing to skip, or after/in a partition. */
  private record Resume(int returned, byte[] partition, boolean inclusive, byte[] inner) {}

  /**
   * The paging state after partition {@code pk}: {@code inner} non-null resumes inside it with the
   * inner read's state; {@code before} true starts at it (it was not read yet).
   */
  private static byte[] state(int returned, PartitionKey pk, byte[] inner, boolean before) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeInt(returned);
      out.writeBoolean(before);
      out.writeInt(pk.bytes().length);
      out.write(pk.bytes());
      out.writeInt(inner == null ? -1 : inner.length);
      if (inner != null) {
        out.write(inner);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  private static Resume resume(byte[] state) {
    if (state == null) {
      return new Resume(0, null, false, null);
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(state))) {
      if (in.readInt() != MAGIC) {
        throw new InvalidQueryException(
            "paging state is not one of an indexed read (was the index created or dropped"
                + " between pages?)");
      }
      int returned = in.readInt();
      boolean before = in.readBoolean();
      byte[] pk = new byte[in.readInt()];
      in.readFully(pk);
      int n = in.readInt();
      byte[] inner = null;
      if (n >= 0) {
        inner = new byte[n];
        in.readFully(inner);
      }
      if (returned < 0 || (before && inner != null)) {
        throw new InvalidQueryException("paging state out of range");
      }
      return new Resume(returned, pk, before || inner != null, inner);
    } catch (IOException | NegativeArraySizeException e) {
      throw new InvalidQueryException("malformed paging state", e);
    }
  }
}
