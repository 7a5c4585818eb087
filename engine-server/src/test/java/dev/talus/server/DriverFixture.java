package dev.talus.server;

import com.datastax.oss.driver.api.core.CqlSession;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Path;

/**
 * A database in {@code dir} (background compaction off), a server on it and a driver session to the
 * server, for a test class that keeps all three for its tests; {@link #close} closes them in
 * reverse order. Not thread-safe.
 */
final class DriverFixture implements AutoCloseable {
  final TalusDb db;
  final TalusServer server;
  final CqlSession session;

  private DriverFixture(TalusDb db, TalusServer server, CqlSession session) {
    this.db = db;
    this.server = server;
    this.session = session;
  }

  static DriverFixture open(Path dir) {
    TalusDb db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build());
    TalusServer server = null;
    try {
      server = TalusServer.start(db);
      return new DriverFixture(db, server, DriverSessions.connect(server));
    } catch (RuntimeException e) {
      if (server != null) {
        server.close();
      }
      db.close();
      throw e;
    }
  }

  @Override
  public void close() {
    try {
      session.close();
    } finally {
      try {
        server.close();
      } finally {
        db.close();
      }
    }
  }
}
