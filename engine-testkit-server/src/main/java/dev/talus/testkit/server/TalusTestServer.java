package dev.talus.testkit.server;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import dev.talus.KeyspaceSchema;
import dev.talus.ManualClock;
import dev.talus.Table;
import dev.talus.TalusDb;
import dev.talus.server.ServerOptions;
import dev.talus.server.TalusServer;
import dev.talus.testkit.Explanation;
import dev.talus.testkit.TalusTestDb;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * A {@link TalusTestDb} served by a {@link TalusServer} on an ephemeral loopback port, with a
 * connected Java driver {@link CqlSession}: what a driver-based test needs, with the testkit's
 * manual clock, flush and compaction helpers and explainer still at hand through {@link #db()}.
 *
 * <pre>{@code
 * try (TalusTestServer talus = TalusTestServer.start()) {
 *   CqlSession session = talus.session();
 *   session.execute("CREATE KEYSPACE shop WITH replication = "
 *       + "{'class': 'SimpleStrategy', 'replication_factor': 1}");
 *   ...
 *   talus.db().advance(Duration.ofDays(1));   // the server's clock is the manual clock
 * }
 * }</pre>
 *
 * <p>The session differs from the driver's defaults in three ways: request and connection timeouts
 * of 60 s rather than 2 s and 5 s, so that a test on a loaded machine does not fail on time; the
 * server-side timestamp generator, so that every write is stamped by the server with the manual
 * clock ({@code writetime()} and the testkit's clock agree; the driver's default stamps writes with
 * the machine's clock); and a 100 ms quiet period when its Netty threads stop, so that it closes in
 * about 100 ms rather than 2 s. {@link #close()} closes the session, the server and the database,
 * and deletes the directory. The session is thread-safe; the {@link TalusTestDb} helpers are not
 * (one test drives them).
 */
public final class TalusTestServer implements AutoCloseable {
  /** The data center the server reports, which the driver's load balancing must be told. */
  public static final String DATACENTER = "datacenter1";

  private static final Duration GENEROUS = Duration.ofSeconds(60);

  private final TalusTestDb db;
  private final TalusServer server;
  private final CqlSession session;
  private final String keyspace;
  private boolean closed;

  private TalusTestServer(TalusTestDb db, String keyspace) {
    this.db = db;
    this.keyspace = keyspace;
    TalusServer s = null;
    CqlSession c = null;
    try {
      s = TalusServer.start(db.db(), ServerOptions.defaults());
      if (keyspace != null) {
        // through the engine, as CREATE KEYSPACE IF NOT EXISTS would: no second session to open
        db.db()
            .createKeyspaceIfNotExists(KeyspaceSchema.builder(keyspace).simpleStrategy(1).build());
      }
      CqlSessionBuilder b = builderFor(s.address());
      c = (keyspace == null ? b : b.withKeyspace(keyspace)).build();
    } catch (RuntimeException e) {
      if (s != null) {
        s.close();
      }
      db.close();
      throw e;
    }
    this.server = s;
    this.session = c;
  }

  /** A fresh database (testkit defaults), served, with a session connected to it. */
  public static TalusTestServer start() {
    return start(TalusTestDb.create(), null);
  }

  /**
   * Serves {@code db} and connects a session; if {@code keyspace} is not null, that keyspace is
   * created first (SimpleStrategy, replication factor 1) and is the session's keyspace. The
   * returned instance owns {@code db}: closing it closes the database.
   */
  public static TalusTestServer start(TalusTestDb db, String keyspace) {
    return new TalusTestServer(Objects.requireNonNull(db, "db"), keyspace);
  }

  /**
   * A driver session builder for a server at {@code address}: the contact point, the local data
   * center and the generous timeouts of {@link #session()}. For a second session, another keyspace
   * or other driver options (add {@code withConfigLoader} to replace the timeouts).
   */
  public static CqlSessionBuilder builderFor(InetSocketAddress address) {
    DriverConfigLoader config =
        DriverConfigLoader.programmaticBuilder()
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, GENEROUS)
            .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, GENEROUS)
            .withDuration(DefaultDriverOption.CONNECTION_SET_KEYSPACE_TIMEOUT, GENEROUS)
            .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, GENEROUS)
            .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, GENEROUS)
            .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, GENEROUS)
            // the server stamps writes with its clock, the test's manual clock
            .withString(
                DefaultDriverOption.TIMESTAMP_GENERATOR_CLASS, "ServerSideTimestampGenerator")
            // close in 100 ms rather than the 2 s quiet period of the driver's Netty groups. Not
            // 0: the driver submits its close task to the admin group and then listens on it, and
            // a group that may stop at once can be gone before the listener is added (a logged
            // RejectedExecutionException, harmless but alarming)
            .withInt(DefaultDriverOption.NETTY_IO_SHUTDOWN_QUIET_PERIOD, 100)
            .withString(DefaultDriverOption.NETTY_IO_SHUTDOWN_UNIT, "MILLISECONDS")
            .withInt(DefaultDriverOption.NETTY_IO_SHUTDOWN_TIMEOUT, 15_000)
            .withInt(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_QUIET_PERIOD, 100)
            .withString(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_UNIT, "MILLISECONDS")
            .withInt(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_TIMEOUT, 15_000)
            .build();
    return CqlSession.builder()
        .addContactPoint(address)
        .withLocalDatacenter(DATACENTER)
        .withConfigLoader(config);
  }

  /** A builder for another session on this server ({@link #builderFor}). */
  public CqlSessionBuilder sessionBuilder() {
    return builderFor(server.address());
  }

  /** The connected session (in {@link #keyspace()} if one was asked for). */
  public CqlSession session() {
    return session;
  }

  /** The testkit database behind the server: clock, flush, compaction, explainer, warnings. */
  public TalusTestDb db() {
    return db;
  }

  /** The manual clock every write and read of the server uses. */
  public ManualClock clock() {
    return db.clock();
  }

  /** The server. */
  public TalusServer server() {
    return server;
  }

  /** Where the server listens (loopback, an ephemeral port). */
  public InetSocketAddress address() {
    return server.address();
  }

  /** The session's keyspace, or null if none was asked for. */
  public String keyspace() {
    return keyspace;
  }

  /** The engine's handle on the CQL table {@code keyspace.table}, for the testkit's helpers. */
  public Table table(String keyspace, String table) {
    return db.db().table(keyspace, table);
  }

  /**
   * Why this partition of a CQL table still holds tombstones or expired data ({@link
   * TalusTestDb#explain}); the key parts are Java values as the engine takes them.
   */
  public Explanation explain(String keyspace, String table, Object... partitionKey) {
    return db.explain(table(keyspace, table), partitionKey);
  }

  /**
   * Empties every table (their schemas, the keyspaces and the session stay): what a per-class
   * extension does before each test. Data written through the session before this call is gone
   * after it.
   */
  public void truncateAll() {
    TalusDb d = db.db();
    for (Table t : d.tables()) {
      t.truncate();
    }
  }

  /** Closes the session, the server and the database (deleting its directory). Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
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

  @Override
  public String toString() {
    return "TalusTestServer{" + server.address() + ", " + db + "}";
  }
}
