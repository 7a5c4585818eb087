package dev.talus.cql.exec.dml;

import dev.talus.GroupedRow;
import dev.talus.InvalidQueryException;
import dev.talus.PagingState;
import dev.talus.ResultRow;
import dev.talus.Select;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlRow;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.exec.support.TableInfo;
import dev.talus.cql.exec.term.Operand;
import dev.talus.cql.exec.term.Selectors;
import dev.talus.cql.parse.ast.Selector;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * A {@code GROUP BY} that ends in a function of a clustering column, as Cassandra 5.0 allows it
 * ({@code GROUP BY sensor, floor(ts, 1h)}; its {@code SelectStatement} and {@code
 * AggregationSpecification}): the rows, in primary key order, form one group while the primary key
 * columns before that column and the function's value stay the same. The engine groups by the
 * column itself; consecutive engine groups with the same key merge here. {@code LIMIT} and {@code
 * PER PARTITION LIMIT} count these groups, and so does the page size: a page ends after a whole
 * group (see {@link #run}). Immutable and thread-safe.
 */
final class FunctionGroups {
  private final Operand function;
  private final String column;
  private final String[] keyColumns;
  private final int partitionColumns;

  private FunctionGroups(
      Operand function, String column, List<String> keyColumns, int partitionColumns) {
    this.function = function;
    this.column = column;
    this.keyColumns = keyColumns.toArray(new String[0]);
    this.partitionColumns = partitionColumns;
  }

  /** Prepares the function {@code f}, the last element of a {@code GROUP BY}. */
  static FunctionGroups prepare(
      Selector.FunctionCall f, TableInfo info, Function<Object[], Long> token, PrepareContext pc) {
    Source src = pc.source();
    String name = f.name().name().name().toLowerCase(Locale.ROOT);
    if (dev.talus.cql.exec.term.Aggregates.isAggregate(name)) {
      throw src.invalid(
          f.position(),
          "Aggregate functions are not supported within the GROUP BY clause, got: system." + name);
    }
    Set<String> read = new LinkedHashSet<>();
    List<dev.talus.cql.exec.term.Aggregates.Call> none = new ArrayList<>();
    Selectors.Selected sel = Selectors.prepare(f, new Selectors.Scope(info, read, token, pc, none));
    if (read.isEmpty()) {
      throw src.invalid(
          f.position(), "GROUP BY functions must have one clustering column name as parameter");
    }
    if (read.size() > 1) {
      throw src.invalid(
          f.position(),
          "GROUP BY functions accept only one clustering column as parameter, got: "
              + String.join(",", read));
    }
    TableInfo.Column def = info.column(read.iterator().next());
    if (def.kind() != TableInfo.Kind.CLUSTERING) {
      throw src.invalid(
          f.position(),
          "Group by functions are only supported on clustering columns, got " + def.name());
    }
    List<String> key = new ArrayList<>();
    int partition = 0;
    for (TableInfo.Column c : info.columns()) {
      if (c.name().equals(def.name())) {
        break;
      }
      if (c.kind() == TableInfo.Kind.PARTITION_KEY) {
        partition++;
        key.add(c.name());
      } else if (c.kind() == TableInfo.Kind.CLUSTERING) {
        key.add(c.name());
      }
    }
    return new FunctionGroups(sel.operand(), def.name(), key, partition);
  }

  /** The clustering column the function reads: the engine groups by it. */
  String column() {
    return column;
  }

  /** The columns a row must carry to compute its group. */
  List<String> columns() {
    List<String> all = new ArrayList<>(Arrays.asList(keyColumns));
    all.add(column);
    return all;
  }

  /**
   * Reads the groups of {@code s} (already grouped by {@link #column}), one result row each, a page
   * of at most {@link ExecContext#pageSize()} groups at a time. The engine pages by its own groups
   * (one per value of the column), so a page of function groups ends inside an engine page: its
   * paging state is the engine's state where that engine page began, with the number of engine
   * groups to skip from there, the groups returned so far (for {@code LIMIT}) and the groups the
   * next one's partition has already returned (for {@code PER PARTITION LIMIT}). Resuming reads
   * those skipped engine groups again: at most one engine page.
   */
  CqlResult run(Select s, Selection selection, Limits limits, ExecContext ctx) {
    int pageSize = ctx.pageSize();
    Resume from = Resume.decode(ctx.pagingState());
    Grouper g =
        new Grouper(
            selection, limits.limit(ctx), limits.perPartitionLimit(ctx), pageSize, from, ctx);
    if (pageSize == Integer.MAX_VALUE && from == null) {
      s.forEachGroupedRow(g);
      g.finish();
      return CqlResult.rows(selection.columns(), g.rows, null, ctx.warnings());
    }
    if (pageSize != Integer.MAX_VALUE) {
      s.pageSize(pageSize);
    }
    PagingState engine = from == null ? null : from.engine();
    while (true) {
      s.pagingState(engine);
      g.enginePage(engine);
      PagingState next = s.forEachGroupedRow(g).orElse(null);
      if (g.stopped) {
        break;
      }
      if (next == null) {
        g.finish();
        break;
      }
      engine = next;
    }
    return CqlResult.rows(selection.columns(), g.rows, g.next, ctx.warnings());
  }

  /**
   * Where a page of function groups resumes.
   *
   * @param engine the engine's state where the engine page began, or null for the start
   * @param skip the engine groups of that page already returned
   * @param emitted the groups returned so far
   * @param inPartition the groups already returned from the partition of the next group
   */
  record Resume(PagingState engine, int skip, int emitted, int inPartition) {
    private static final byte VERSION = 1;

    static Resume decode(PagingState state) {
      if (state == null) {
        return null;
      }
      try (DataInputStream in =
          new DataInputStream(
              new ByteArrayInputStream(Base64.getUrlDecoder().decode(state.toString())))) {
        if (in.readByte() != VERSION) {
          throw new InvalidQueryException("not a paging state of a GROUP BY function query");
        }
        PagingState engine = in.readBoolean() ? PagingState.fromString(in.readUTF()) : null;
        return new Resume(engine, in.readInt(), in.readInt(), in.readInt());
      } catch (IOException | IllegalArgumentException e) {
        throw new InvalidQueryException("not a paging state of a GROUP BY function query", e);
      }
    }

    PagingState encode() {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (DataOutputStream out = new DataOutputStream(bytes)) {
        out.writeByte(VERSION);
        out.writeBoolean(engine != null);
        if (engine != null) {
          out.writeUTF(engine.toString());
        }
        out.writeInt(skip);
        out.writeInt(emitted);
        out.writeInt(inPartition);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return PagingState.fromString(
          Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.toByteArray()));
    }
  }

  /** Merges the engine's groups into the function's groups. Not thread-safe. */
  private final class Grouper implements GroupedRow {
    private final Selection selection;
    private final int limit;
    private final int perPartition;
    private final int pageSize;
    private final ExecContext ctx;
    private final List<CqlRow> rows = new ArrayList<>();
    private final int emittedBefore;
    private int resumeInPartition;
    private int toSkip;
    private boolean firstPage = true;
    private PagingState engineStart;
    private int engineGroup;
    private boolean skipping;
    private Object[] key;
    private int inPartition;
    private Selection.Group group;
    private boolean taking;
    private boolean stopped;
    private PagingState next;

    Grouper(
        Selection selection,
        int limit,
        int perPartition,
        int pageSize,
        Resume from,
        ExecContext ctx) {
      this.selection = selection;
      this.limit = limit;
      this.perPartition = perPartition;
      this.pageSize = pageSize;
      this.ctx = ctx;
      this.emittedBefore = from == null ? 0 : from.emitted();
      this.resumeInPartition = from == null ? 0 : from.inPartition();
      this.toSkip = from == null ? 0 : from.skip();
    }

    /** A new engine page begins at {@code state}; the skip applies to the first one only. */
    void enginePage(PagingState state) {
      if (!firstPage) {
        toSkip = 0;
      }
      firstPage = false;
      engineStart = state;
      engineGroup = -1;
    }

    @Override
    public void accept(ResultRow row, boolean firstOfGroup) {
      if (stopped) {
        return;
      }
      if (firstOfGroup) {
        engineGroup++;
        skipping = engineGroup < toSkip;
        if (!skipping && !newGroup(row)) {
          return;
        }
      }
      if (!skipping && taking && group != null) {
        group.add(row, ctx);
      }
    }

    /** Starts a function group at {@code row} if it begins one; false once the page is done. */
    private boolean newGroup(ResultRow row) {
      Object[] k = new Object[keyColumns.length + 1];
      for (int i = 0; i < keyColumns.length; i++) {
        k[i] = row.get(keyColumns[i]);
      }
      k[keyColumns.length] = function.eval(ctx, row);
      if (key != null && Arrays.deepEquals(key, k)) {
        return true;
      }
      int here;
      if (key == null) {
        here = resumeInPartition;
      } else {
        boolean samePartition =
            Arrays.deepEquals(
                Arrays.copyOf(key, partitionColumns), Arrays.copyOf(k, partitionColumns));
        here = samePartition ? inPartition : 0;
      }
      finish();
      if (emittedBefore + rows.size() >= limit) {
        stopped = true;
        return false;
      }
      if (rows.size() >= pageSize) {
        stopped = true;
        next = new Resume(engineStart, engineGroup, emittedBefore + rows.size(), here).encode();
        return false;
      }
      key = k;
      inPartition = here;
      taking = inPartition < perPartition;
      if (taking) {
        inPartition++;
        if (selection.aggregating()) {
          group = selection.group();
        } else {
          rows.add(selection.row(row, ctx));
        }
      }
      return true;
    }

    void finish() {
      if (group != null) {
        rows.add(group.row(ctx));
        group = null;
      }
    }
  }
}
