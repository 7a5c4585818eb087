package dev.talus.bench;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import dev.talus.Table;
import dev.talus.TalusDb;
import dev.talus.cql.PreparedCql;
import dev.talus.cql.TalusSession;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Semaphore;

/**
 * One way of reaching the key-value table {@code bench.kv (k bigint PRIMARY KEY, v text)} of {@link
 * DriverThroughput}: through the Java driver (to a Talus server or to Cassandra), through the
 * embedded CQL layer ({@link TalusSession}, prepared statements) or through the builder API ({@link
 * Table}). Every target creates the table with the same CQL, and its {@link #insert} and {@link
 * #read} do the same work; only the layers between the caller and the engine differ. Thread-safe:
 * the measuring threads share one target.
 */
interface KvTarget extends AutoCloseable {
  String KEYSPACE_CQL =
      "CREATE KEYSPACE IF NOT EXISTS bench WITH replication = {'class': 'SimpleStrategy',"
          + " 'replication_factor': 1}";
  String TABLE_CQL = "CREATE TABLE IF NOT EXISTS bench.kv (k bigint PRIMARY KEY, v text)";
  String INSERT_CQL = "INSERT INTO bench.kv (k, v) VALUES (?, ?)";
  String SELECT_CQL = "SELECT v FROM bench.kv WHERE k = ?";

  /** Writes (or overwrites) row {@code k}. */
  void insert(long k, String v);

  /** Reads row {@code k}'s value; {@code false} when the row is absent. */
  boolean read(long k);

  /** Writes rows 0 to {@code keys - 1} with value {@code v}, as fast as the target takes them. */
  default void load(int keys, String v) {
    for (long k = 0; k < keys; k++) {
      insert(k, v);
    }
  }

  @Override
  default void close() {}

  /** The Java driver, prepared statements, to the CQL server at {@code address}. */
  static KvTarget driver(InetSocketAddress address) {
    DriverConfigLoader config =
        DriverConfigLoader.programmaticBuilder()
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(30))
            .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(30))
            .withDuration(
                DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(60))
            .withDuration(
                DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(60))
            .build();
    CqlSession s =
        CqlSession.builder()
            .addContactPoint(address)
            .withLocalDatacenter("datacenter1")
            .withConfigLoader(config)
            .build();
    s.execute(KEYSPACE_CQL);
    s.execute(TABLE_CQL);
    PreparedStatement insert = s.prepare(INSERT_CQL);
    PreparedStatement select = s.prepare(SELECT_CQL);
    return new KvTarget() {
      @Override
      public void insert(long k, String v) {
        s.execute(insert.bind(k, v));
      }

      @Override
      public boolean read(long k) {
        return s.execute(select.bind(k)).one() != null;
      }

      /** 256 requests in flight: the driver's asynchronous API. */
      @Override
      public void load(int keys, String v) {
        Semaphore inFlight = new Semaphore(256);
        try {
          for (long k = 0; k < keys; k++) {
            inFlight.acquire();
            s.executeAsync(insert.bind(k, v))
                .whenComplete(
                    (r, e) -> {
                      inFlight.release();
                      if (e != null) {
                        e.printStackTrace();
                      }
                    });
          }
          inFlight.acquire(256);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while loading", e);
        }
      }

      @Override
      public void close() {
        s.close();
      }
    };
  }

  /** The embedded CQL layer: {@link TalusSession#prepare} once, then {@link PreparedCql}. */
  static KvTarget cql(TalusDb db) {
    TalusSession s = TalusSession.on(db);
    s.execute(KEYSPACE_CQL);
    s.execute(TABLE_CQL);
    PreparedCql insert = s.prepare(INSERT_CQL);
    PreparedCql select = s.prepare(SELECT_CQL);
    return new KvTarget() {
      @Override
      public void insert(long k, String v) {
        insert.execute(k, v);
      }

      @Override
      public boolean read(long k) {
        return select.execute(k).one().isPresent();
      }
    };
  }

  /** The builder API on the table the same CQL created: no parsing, no binding. */
  static KvTarget builder(TalusDb db) {
    TalusSession s = TalusSession.on(db);
    s.execute(KEYSPACE_CQL);
    s.execute(TABLE_CQL);
    Table t = db.table("bench", "kv");
    return new KvTarget() {
      @Override
      public void insert(long k, String v) {
        t.insert().value("k", k).value("v", v).execute();
      }

      @Override
      public boolean read(long k) {
        return t.select().columns("v").eq("k", k).one().isPresent();
      }
    };
  }
}
