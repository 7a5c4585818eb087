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

  Batch(TalusDb db) {
    this.db = db;
  }

  public Batch add(Insert insert) {
    return add(insert.table(), insert.request());
  }

  public Batch add(Update update) {
    return add(update.table(), update.request());
  }

  public Batch add(Delete delete) {
    return add(delete.table(), delete.request());
  }

  private Batch add(Table table, WriteRequest request) {
    tables.add(table.store());
    requests.add(request);
    return this;
  }

  public int size() {
    return requests.size();
  }

  /** Validates every write, then logs and applies them as one record. */
  public void execute() {
    if (requests.isEmpty()) {
      return;
    }
    db.database().writeBatch(tables, requests);
  }
}
