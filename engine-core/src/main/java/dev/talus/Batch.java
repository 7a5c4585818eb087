package dev.talus;

import dev.talus.db.TableHandle;
import dev.talus.request.WriteRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * Several writes, to one or more tables, applied together: they are validated first (one invalid
 * write refuses the whole batch and nothing is stored), then recorded as one commit-log record, so
 * after a crash either all of them are replayed or none is — Cassandra's logged batch. Writes
 * without an explicit timestamp share one. It is not an isolated transaction: a concurrent read may
 * see some of the writes before the others.
 *
 * <p>Built with {@link TalusDb#batch()}. Not thread-safe; execute once.
 */
public final class Batch {
  private final TalusDb db;
  private final List<TableHandle> tables = new ArrayList<>();
  private final List<WriteRequest> requests = new ArrayList<>();
  private final List<ConditionalWrites.Stmt> stmts = new ArrayList<>();
  private boolean conditional;

  Batch(TalusDb db) {
    this.db = db;
  }

  public Batch add(Insert insert) {
    return add(insert.table(), insert.request(), insert.spec());
  }

  public Batch add(Update update) {
    return add(update.table(), update.request(), update.spec());
  }

  public Batch add(Delete delete) {
    return add(delete.table(), delete.request(), delete.spec());
  }

  private Batch add(Table table, WriteRequest request, ConditionalWrites.Spec spec) {
    tables.add(table.store());
    requests.add(request);
    stmts.add(new ConditionalWrites.Stmt(table, request, spec));
    conditional |= spec.conditional();
    return this;
  }

  public int size() {
    return requests.size();
  }

  /**
   * Validates every write, then logs and applies them as one record.
   *
   * @throws IllegalStateException if a write of the batch has conditions: run it with {@link
   *     #executeConditional()}
   */
  public void execute() {
    if (conditional) {
      throw new IllegalStateException(
          "a batch with conditional writes reports whether it applied: run it with"
              + " executeConditional()");
    }
    if (requests.isEmpty()) {
      return;
    }
    db.database().writeBatch(tables, requests);
  }

  /**
   * A conditional batch (Cassandra's {@code BEGIN BATCH ... IF ...}): every write must go to the
   * same partition of one table and none may set its own timestamp. If the conditions of all its
   * writes hold on the partition's current state, all writes are applied with one timestamp, as one
   * commit-log record; otherwise none is, and the result holds the current state of the rows the
   * conditions examined. Writes without conditions may be part of it.
   *
   * @throws IllegalStateException if no write of the batch has conditions
   */
  public ConditionalResult executeConditional() {
    if (!conditional) {
      throw new IllegalStateException("a batch without conditional writes runs with execute()");
    }
    return ConditionalWrites.run(stmts, true, timed -> db.database().writeBatch(tables, timed));
  }
}
