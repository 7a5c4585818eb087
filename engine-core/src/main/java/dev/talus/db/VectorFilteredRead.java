package dev.talus.db;

import dev.talus.ColumnDef;
import dev.talus.ResultRow;
import dev.talus.TableSchema;
import dev.talus.read.ReadPath;
import dev.talus.request.ReadRequest;
import dev.talus.request.ReadResult;
import dev.talus.request.Restriction;
import dev.talus.table.TableStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * An ANN read with restrictions beyond the whole partition key ({@code WHERE x = ? ORDER BY v ANN
 * OF [...] LIMIT k}: an indexed column, a clustering range): the rows matching the restrictions are
 * read as the same read without the ordering would read them (by the table's indexes if they serve
 * it, else by the normal read path, which applies its own filtering rules), each is scored with its
 * current vector, and the best {@code k} come back, best first, each read again with the columns
 * asked for. Exact; its cost grows with the number of matching rows, not with the table. Stateless.
 */
final class VectorFilteredRead {
  private VectorFilteredRead() {}

  /** A matching row and its score. */
  private record Scored(float score, int order, ResultRow row) {}

  static ReadResult read(TableStore store, ReadPath reads, ReadRequest req, VectorPlan plan) {
    TableSchema s = store.schema();
    ReadRequest all =
        new ReadRequest(
            req.restrictions(),
            List.of(),
            List.of(),
            List.of(),
            false,
            Integer.MAX_VALUE,
            Integer.MAX_VALUE,
            null,
            req.allowFiltering(),
            Integer.MAX_VALUE,
            List.of(),
            List.of());
    ReadResult matching = IndexedRead.read(store, reads, all);
    if (matching == null) {
      matching = reads.read(all);
    }
    int touched = matching.sourcesTouched();
    int tombstones = matching.tombstonesScanned();
    List<Scored> scored = new ArrayList<>();
    for (ResultRow r : matching.rows()) {
      Object v = r.get(plan.column());
      if (v instanceof float[] f && plan.function().accepts(f)) {
        scored.add(new Scored(plan.function().score(plan.query(), f), scored.size(), r));
      }
    }
    // best first; equal scores in the order the read returned them (token, then clustering)
    scored.sort(Comparator.comparingDouble((Scored x) -> -x.score).thenComparingInt(x -> x.order));
    List<ResultRow> rows = new ArrayList<>();
    for (Scored x : scored.subList(0, Math.min(plan.k(), scored.size()))) {
      ReadResult one = reads.read(rowRead(s, x.row, req));
      rows.addAll(one.rows());
      touched += one.sourcesTouched();
      tombstones += one.tombstonesScanned();
    }
    return new ReadResult(rows, null, touched, tombstones);
  }

  /** A read of the one row {@code r} names, of the columns and selectors of {@code req}. */
  private static ReadRequest rowRead(TableSchema s, ResultRow r, ReadRequest req) {
    List<Restriction> eq = new ArrayList<>();
    for (ColumnDef c : s.partitionKey()) {
      eq.add(new Restriction(c.name(), Restriction.Op.EQ, List.of(r.get(c.name()))));
    }
    for (ColumnDef c : s.clustering()) {
      eq.add(new Restriction(c.name(), Restriction.Op.EQ, List.of(r.get(c.name()))));
    }
    return new ReadRequest(
        eq,
        List.of(),
        req.columns(),
        List.of(),
        false,
        1,
        Integer.MAX_VALUE,
        null,
        false,
        Integer.MAX_VALUE,
        List.of(),
        req.selectors());
  }
}
