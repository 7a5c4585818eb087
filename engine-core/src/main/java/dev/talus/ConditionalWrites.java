package dev.talus;

import dev.talus.db.ConditionChecks;
import dev.talus.request.Restriction;
import dev.talus.request.WriteRequest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Conditional writes (Cassandra's lightweight transactions), for a single write and a conditional
 * batch alike: validate the writes and their conditions, then, holding the partition's
 * conditional-write lock, read the current state of every row a condition names, evaluate, and when
 * all hold give the writes one timestamp (see {@code ConditionalPartitions}) and log and apply them
 * through the ordinary write path. Stateless.
 */
final class ConditionalWrites {
  private ConditionalWrites() {}

  /** What kind of condition a write carries. */
  enum Kind {
    NONE,
    EXISTS,
    NOT_EXISTS,
    CONDITIONS
  }

  /** The conditions of one write, as its builder holds them. */
  record Spec(Kind kind, List<Condition> conditions) {
    static final Spec NONE = new Spec(Kind.NONE, List.of());

    Spec ifExists() {
      if (kind == Kind.CONDITIONS) {
        throw mixed();
      }
      return new Spec(Kind.EXISTS, List.of());
    }

    Spec onlyIf(Condition... more) {
      if (kind == Kind.EXISTS) {
        throw mixed();
      }
      List<Condition> all = new ArrayList<>(conditions);
      for (Condition c : more) {
        all.add(java.util.Objects.requireNonNull(c, "condition"));
      }
      return new Spec(Kind.CONDITIONS, List.copyOf(all));
    }

    boolean conditional() {
      return kind != Kind.NONE;
    }

    private static InvalidQueryException mixed() {
      return new InvalidQueryException(
          "IF EXISTS cannot be combined with IF conditions on columns in one write");
    }
  }

  /** One write of a conditional request. */
  record Stmt(Table table, WriteRequest request, Spec spec) {}

  /** The row a write targets: canonical key values; a null clustering is the static row. */
  private record Target(
      Stmt stmt,
      Object[] partitionKey,
      List<Object> clustering,
      List<ConditionChecks.Checked> checks) {}

  /**
   * Runs the writes if every condition holds.
   *
   * @param batch whether they came as a batch (for the error messages)
   * @param writer logs and applies the writes, given them with their timestamp set
   */
  static ConditionalResult run(
      List<Stmt> stmts, boolean batch, Consumer<List<WriteRequest>> writer) {
    String what = batch ? "conditional BATCH" : "conditional updates";
    Table table = stmts.get(0).table();
    TableSchema s = table.schema();
    if (s.isCounterTable()) {
      throw new InvalidQueryException("Conditional updates are not supported on counter tables");
    }
    List<Target> targets = new ArrayList<>(stmts.size());
    for (Stmt st : stmts) {
      if (st.table().store() != table.store()) {
        throw new InvalidQueryException("Batch with conditions cannot span multiple tables");
      }
      if (st.request().timestamp() != null) {
        throw new InvalidQueryException("Cannot provide custom timestamp for " + what);
      }
      targets.add(target(s, st));
    }
    Object[] pk = targets.get(0).partitionKey();
    for (Target t : targets) {
      if (!Arrays.deepEquals(pk, t.partitionKey())) {
        throw new InvalidQueryException("Batch with conditions cannot span multiple partitions");
      }
    }
    checkNotMixed(targets);
    return table.store().underPartitionLock(pk, () -> evaluateAndWrite(table, pk, targets, writer));
  }

  private static ConditionalResult evaluateAndWrite(
      Table table, Object[] pk, List<Target> targets, Consumer<List<WriteRequest>> writer) {
    boolean applied = true;
    List<ResultRow> current = new ArrayList<>();
    RowReads reads = new RowReads(table, pk);
    for (Target t : targets) {
      Spec spec = t.stmt().spec();
      if (!spec.conditional()) {
        continue;
      }
      ResultRow row = reads.row(t.clustering(), spec, t.checks());
      ResultRow statics = reads.statics(t.checks());
      if (t.clustering() == null && spec.kind() != Kind.CONDITIONS) {
        // IF [NOT] EXISTS without a clustering: whether the partition has any live data
        row = reads.anyRow();
      }
      boolean holds;
      ResultRow shown;
      switch (spec.kind()) {
        case NOT_EXISTS -> {
          holds = row == null;
          shown = row;
        }
        case EXISTS -> {
          holds = row != null;
          shown = null;
        }
        default -> {
          holds = true;
          for (ConditionChecks.Checked c : t.checks()) {
            ResultRow source = c.column().isStatic() ? statics : row;
            holds &= c.holds(source == null ? null : source.get(c.column().name()));
          }
          shown = row != null ? row : statics;
        }
      }
      if (!holds) {
        applied = false;
      }
      if (shown != null && !containsRow(current, shown)) {
        current.add(shown);
      }
    }
    if (!applied) {
      return new ConditionalResult(false, current);
    }
    List<List<Object>> clusterings = new ArrayList<>();
    for (Target t : targets) {
      clusterings.add(t.clustering());
    }
    long ts = table.store().conditionalTimestamp(pk, clusterings);
    List<WriteRequest> timed = new ArrayList<>(targets.size());
    for (Target t : targets) {
      WriteRequest r = t.stmt().request();
      timed.add(
          new WriteRequest(
              r.kind(), r.where(), r.values(), r.deleteColumns(), r.ttl(), ts, r.operations()));
    }
    writer.accept(timed);
    return new ConditionalResult(true, List.of());
  }

  private static boolean containsRow(List<ResultRow> rows, ResultRow r) {
    for (ResultRow x : rows) {
      if (x == r) {
        return true;
      }
    }
    return false;
  }

  /** IF NOT EXISTS and other conditions on one row contradict each other; Cassandra refuses. */
  private static void checkNotMixed(List<Target> targets) {
    for (Target a : targets) {
      for (Target b : targets) {
        Kind ka = a.stmt().spec().kind();
        Kind kb = b.stmt().spec().kind();
        if (ka == Kind.NOT_EXISTS
            && (kb == Kind.EXISTS || kb == Kind.CONDITIONS)
            && java.util.Objects.equals(a.clustering(), b.clustering())) {
          throw new InvalidQueryException(
              kb == Kind.EXISTS
                  ? "Cannot mix IF EXISTS and IF NOT EXISTS conditions for the same row"
                  : "Cannot mix IF conditions and IF NOT EXISTS for the same row");
        }
      }
    }
  }

  /** The key of the row a write targets, and its checked conditions. */
  private static Target target(TableSchema s, Stmt st) {
    WriteRequest r = st.request();
    Map<String, Object> keyValues = new java.util.HashMap<>();
    if (r.kind() == WriteRequest.Kind.INSERT) {
      for (ColumnDef c : s.columns()) {
        if (c.isPrimaryKey() && r.values().containsKey(c.name())) {
          keyValues.put(c.name(), r.values().get(c.name()));
        }
      }
    } else {
      for (Restriction x : r.where()) {
        ColumnDef c = ConditionChecks.column(s, x.column());
        if (!c.isPrimaryKey() || x.op() != Restriction.Op.EQ || x.values().size() != 1) {
          throw new InvalidQueryException(
              "a conditional write must name its row by equality on primary key columns; "
                  + x.column()
                  + " "
                  + x.op().symbol()
                  + " is not allowed here");
        }
        keyValues.put(c.name(), x.value());
      }
    }
    Object[] pk = new Object[s.partitionKey().size()];
    for (int i = 0; i < pk.length; i++) {
      ColumnDef c = s.partitionKey().get(i);
      if (!keyValues.containsKey(c.name())) {
        throw new InvalidQueryException(
            "a conditional write on " + s.name() + " needs partition key column " + c.name());
      }
      pk[i] = ConditionChecks.keyValue(s, c, keyValues.get(c.name()));
    }
    List<ConditionChecks.Checked> checks = new ArrayList<>();
    boolean onlyStatic = true;
    for (Condition c : st.spec().conditions()) {
      ConditionChecks.Checked checked = ConditionChecks.check(s, c);
      onlyStatic &= checked.column().isStatic();
      checks.add(checked);
    }
    List<Object> ck = new ArrayList<>();
    for (ColumnDef c : s.clustering()) {
      if (!keyValues.containsKey(c.name())) {
        ck = null;
        break;
      }
      ck.add(ConditionChecks.keyValue(s, c, keyValues.get(c.name())));
    }
    if (ck == null && st.spec().kind() == Kind.CONDITIONS && !onlyStatic) {
      throw new InvalidQueryException(
          "a conditional write on "
              + s.name()
              + " must restrict every PRIMARY KEY column by equality, unless its conditions are"
              + " only on static columns");
    }
    return new Target(st, pk, ck, checks);
  }

  /** The reads of the current state, all for one partition. */
  private static final class RowReads {
    private final Table table;
    private final Object[] pk;

    RowReads(Table table, Object[] pk) {
      this.table = table;
      this.pk = pk;
    }

    private Select partition() {
      Select sel = table.select();
      List<ColumnDef> keys = table.schema().partitionKey();
      for (int i = 0; i < pk.length; i++) {
        sel.eq(keys.get(i).name(), pk[i]);
      }
      return sel;
    }

    /** The row with its key and the condition columns (every column for IF NOT EXISTS). */
    ResultRow row(List<Object> ck, Spec spec, List<ConditionChecks.Checked> checks) {
      if (ck == null) {
        return null;
      }
      Select sel = partition();
      List<ColumnDef> cks = table.schema().clustering();
      for (int i = 0; i < cks.size(); i++) {
        sel.eq(cks.get(i).name(), ck.get(i));
      }
      if (spec.kind() != Kind.NOT_EXISTS) {
        Set<String> cols = keyColumns();
        for (ConditionChecks.Checked c : checks) {
          cols.add(c.column().name());
        }
        sel.columns(cols.toArray(new String[0]));
      }
      return sel.one().orElse(null);
    }

    /** The first live row (or the static row) of the partition, or null if it has none. */
    ResultRow anyRow() {
      return partition().limit(1).one().orElse(null);
    }

    /**
     * The partition's static values the conditions need, or null when none is needed or none has a
     * value.
     */
    ResultRow statics(List<ConditionChecks.Checked> checks) {
      Set<String> cols = new LinkedHashSet<>();
      for (ConditionChecks.Checked c : checks) {
        if (c.column().isStatic()) {
          cols.add(c.column().name());
        }
      }
      if (cols.isEmpty()) {
        return null;
      }
      Set<String> all = new LinkedHashSet<>();
      table.schema().partitionKey().forEach(c -> all.add(c.name()));
      all.addAll(cols);
      ResultRow r = partition().columns(all.toArray(new String[0])).limit(1).one().orElse(null);
      if (r == null) {
        return null;
      }
      for (String c : cols) {
        if (r.get(c) != null) {
          return r;
        }
      }
      return null;
    }

    private Set<String> keyColumns() {
      Set<String> cols = new LinkedHashSet<>();
      table.schema().partitionKey().forEach(c -> cols.add(c.name()));
      table.schema().clustering().forEach(c -> cols.add(c.name()));
      return cols;
    }
  }
}
