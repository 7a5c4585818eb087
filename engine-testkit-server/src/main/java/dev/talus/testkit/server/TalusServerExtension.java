package dev.talus.testkit.server;

import com.datastax.oss.driver.api.core.CqlSession;
import dev.talus.ManualClock;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.server.TalusServer;
import dev.talus.testkit.CapturedWarning;
import dev.talus.testkit.TalusTestDb;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives each test a Talus behind the native protocol server and a connected Java driver {@link
 * CqlSession} ({@link TalusTestServer}), so that a driver-based DAO test runs against Talus with
 * one annotation and no Cassandra to start.
 *
 * <pre>{@code
 * @ExtendWith(TalusServerExtension.class)
 * class OrderDaoTest {
 *   @Test void savesAndFinds(CqlSession session, ManualClock clock) { ... }
 * }
 *
 * class OrderDaoTest {
 *   @RegisterExtension
 *   static final TalusServerExtension talus = TalusServerExtension.create().keyspace("shop");
 *
 *   @Test void savesAndFinds() {
 *     CqlSession session = talus.session();   // connected, in keyspace shop
 *     talus.db().advance(Duration.ofDays(11)); // the testkit's clock, flush, explain...
 *   }
 * }
 * }</pre>
 *
 * <p>Two lifecycles:
 *
 * <ul>
 *   <li>{@link #create()} (and {@code @ExtendWith}): a fresh database, server and session for each
 *       test, closed and deleted after it. Nothing carries over, not even the clock.
 *   <li>{@link #perClass()}: one database, server and session for the test class (register it in a
 *       {@code static} field), with every table emptied before each test ({@link
 *       TalusTestServer#truncateAll()}). Keyspaces, tables and prepared statements made in one test
 *       stay for the next, and so does the manual clock's time. Much cheaper per test: see
 *       docs/testing-data-models.md for the measured figures.
 * </ul>
 *
 * <p>Parameters a test (or {@code @BeforeEach}) may declare: {@link CqlSession}, {@link
 * TalusTestServer}, {@link TalusTestDb}, {@link TalusDb}, {@link ManualClock}, {@link TalusServer}.
 * After each test the engine's captured warnings are published as JUnit report entries ({@code
 * talus.warning}). Thread-safe; {@link #server()} and its shortcuts are bound to the thread running
 * the test.
 */
public final class TalusServerExtension
    implements BeforeEachCallback, AfterEachCallback, AfterAllCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NS =
      ExtensionContext.Namespace.create(TalusServerExtension.class);
  private static final String KEY = "server";

  private final boolean perClass;
  private final String keyspace;
  private final Instant start;
  private final Consumer<TalusOptions.Builder> options;
  private final ThreadLocal<TalusTestServer> current = new ThreadLocal<>();

  /** For {@code @ExtendWith}: the defaults of {@link #create()}. */
  public TalusServerExtension() {
    this(false, null, TalusTestDb.DEFAULT_START, b -> {});
  }

  private TalusServerExtension(
      boolean perClass, String keyspace, Instant start, Consumer<TalusOptions.Builder> options) {
    this.perClass = perClass;
    this.keyspace = keyspace;
    this.start = start;
    this.options = options;
  }

  /** A fresh database, server and session per test. */
  public static TalusServerExtension create() {
    return new TalusServerExtension();
  }

  /**
   * One database, server and session per test class (register in a {@code static} field); every
   * table is truncated before each test.
   */
  public static TalusServerExtension perClass() {
    return new TalusServerExtension(true, null, TalusTestDb.DEFAULT_START, b -> {});
  }

  /**
   * Creates {@code keyspace} (SimpleStrategy, replication factor 1) before the session connects,
   * and connects the session to it, as {@code CqlSession.builder().withKeyspace(keyspace)} does.
   */
  public TalusServerExtension keyspace(String keyspace) {
    return new TalusServerExtension(
        perClass, Objects.requireNonNull(keyspace, "keyspace"), start, options);
  }

  /** The manual clock starts at {@code start} instead of 2026-01-01T00:00:00Z. */
  public TalusServerExtension clockAt(Instant start) {
    return new TalusServerExtension(
        perClass, keyspace, Objects.requireNonNull(start, "start"), options);
  }

  /** Adjusts the database's options after the testkit's defaults. */
  public TalusServerExtension options(Consumer<TalusOptions.Builder> customizer) {
    return new TalusServerExtension(
        perClass, keyspace, start, Objects.requireNonNull(customizer, "customizer"));
  }

  /** The current test's server, database and session. */
  public TalusTestServer server() {
    TalusTestServer s = current.get();
    if (s == null) {
      throw new IllegalStateException(
          "no Talus server on this thread: call talus.server() from a test method (or a"
              + " @BeforeEach after the extension's), or take a TalusTestServer parameter");
    }
    return s;
  }

  /** The current test's connected session. */
  public CqlSession session() {
    return server().session();
  }

  /** The current test's testkit database (clock, flush, compaction, explainer). */
  public TalusTestDb db() {
    return server().db();
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    TalusTestServer s = open(context);
    if (perClass) {
      // every test starts on empty tables, also the first (a @BeforeAll may have written)
      s.truncateAll();
      s.db().warnings().clear();
    }
  }

  private TalusTestServer open(ExtensionContext context) {
    ExtensionContext owner = perClass ? classContext(context) : context;
    ExtensionContext.Store store = owner.getStore(NS);
    TalusTestServer s = store.get(KEY, TalusTestServer.class);
    if (s == null) {
      TalusTestDb db = TalusTestDb.builder().clockAt(start).options(options).open();
      s = TalusTestServer.start(db, keyspace);
      // an AutoCloseable in the store is closed by JUnit with its context, also when this
      // extension was registered in an instance field and gets no afterAll
      store.put(KEY, s);
    }
    current.set(s);
    return s;
  }

  private static ExtensionContext classContext(ExtensionContext context) {
    ExtensionContext c = context;
    while (c.getTestMethod().isPresent() && c.getParent().isPresent()) {
      c = c.getParent().get();
    }
    return c;
  }

  @Override
  public void afterEach(ExtensionContext context) {
    current.remove();
    if (perClass) {
      TalusTestServer s = classContext(context).getStore(NS).get(KEY, TalusTestServer.class);
      if (s != null) {
        publishWarnings(context, s);
        s.db().warnings().clear();
      }
      return;
    }
    TalusTestServer s = context.getStore(NS).remove(KEY, TalusTestServer.class);
    if (s != null) {
      s.close();
      publishWarnings(context, s);
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    TalusTestServer s = context.getStore(NS).remove(KEY, TalusTestServer.class);
    if (s != null) {
      s.close();
    }
  }

  private static void publishWarnings(ExtensionContext context, TalusTestServer s) {
    for (CapturedWarning w : s.db().warnings().all()) {
      context.publishReportEntry("talus.warning", w.toString());
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
    Class<?> t = p.getParameter().getType();
    return t == CqlSession.class
        || t == TalusTestServer.class
        || t == TalusTestDb.class
        || t == TalusDb.class
        || t == ManualClock.class
        || t == TalusServer.class;
  }

  @Override
  public Object resolveParameter(ParameterContext p, ExtensionContext e) {
    TalusTestServer s = open(e);
    Class<?> t = p.getParameter().getType();
    if (t == CqlSession.class) {
      return s.session();
    }
    if (t == TalusTestDb.class) {
      return s.db();
    }
    if (t == TalusDb.class) {
      return s.db().db();
    }
    if (t == ManualClock.class) {
      return s.clock();
    }
    if (t == TalusServer.class) {
      return s.server();
    }
    return s;
  }
}
