package dev.talus.cql.exec;

import dev.talus.ManualClock;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.cql.TalusSession;
import java.nio.file.Path;

/** A database and a CQL session on it for a test: manual clock, no background compaction. */
final class CqlDb implements AutoCloseable {
  final ManualClock clock = ManualClock.startingAtDefault();
  final TalusDb db;
  final TalusSession cql;

  CqlDb(Path dir) {
    this.db =
        TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
    this.cql = TalusSession.on(db);
  }

  @Override
  public void close() {
    db.close();
  }
}
