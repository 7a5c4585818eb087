package dev.talus.testkit;

import dev.talus.ManualClock;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives each test a fresh {@link TalusTestDb}: a temporary directory, a {@link ManualClock},
 * background compaction off, the commit log without per-write fsync. It is closed and its directory
 * deleted after the test.
 *
 * <pre>{@code
 * class MyModelTest {
 *   @RegisterExtension static final TalusExtension talus = TalusExtension.create();
 *
 *   @Test void tombstonesGo() {
 *     TalusTestDb db = talus.db();       // or declare a TalusTestDb (or TalusDb, ManualClock) parameter
 *     ...
 *   }
 * }
 * }</pre>
 *
 * <p>Also usable as {@code @ExtendWith(TalusExtension.class)} with parameter injection of {@link
 * TalusTestDb}, {@link TalusDb} or {@link ManualClock}. The instance returned by {@link #db()} is
 * bound to the thread running the test; with parallel execution inside a class, use parameters.
 * Thread-safe.
 */
public final class TalusExtension
    implements BeforeEachCallback, AfterEachCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NS =
      ExtensionContext.Namespace.create(TalusExtension.class);
  private static final String KEY = "db";

  private final Instant start;
  private final Long faultSeed;
  private final Consumer<TalusOptions.Builder> options;
  private final ThreadLocal<TalusTestDb> current = new ThreadLocal<>();

  /** For {@code @ExtendWith}: the defaults of {@link #create()}. */
  public TalusExtension() {
    this(TalusTestDb.DEFAULT_START, null, b -> {});
  }

  private TalusExtension(Instant start, Long faultSeed, Consumer<TalusOptions.Builder> options) {
    this.start = start;
    this.faultSeed = faultSeed;
    this.options = options;
  }

  public static TalusExtension create() {
    return new TalusExtension();
  }

  /** Clocks start at {@code start} instead of 2026-01-01T00:00:00Z. */
  public TalusExtension clockAt(Instant start) {
    return new TalusExtension(Objects.requireNonNull(start, "start"), faultSeed, options);
  }

  /** Each test's database runs over a {@link FaultInjector} seeded with {@code seed}. */
  public TalusExtension withFaults(long seed) {
    return new TalusExtension(start, seed, options);
  }

  /** Adjust every test's options after the testkit defaults. */
  public TalusExtension options(Consumer<TalusOptions.Builder> customizer) {
    return new TalusExtension(start, faultSeed, Objects.requireNonNull(customizer, "customizer"));
  }

  /** The current test's database. */
  public TalusTestDb db() {
    TalusTestDb db = current.get();
    if (db == null) {
      throw new IllegalStateException(
          "no Talus test database on this thread: call talus.db() from a test method (or a"
              + " @BeforeEach after the extension's), or take a TalusTestDb parameter");
    }
    return db;
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    open(context);
  }

  private TalusTestDb open(ExtensionContext context) {
    ExtensionContext.Store store = context.getStore(NS);
    TalusTestDb db = store.get(KEY, TalusTestDb.class);
    if (db == null) {
      TalusTestDb.Builder b = TalusTestDb.builder().clockAt(start).options(options);
      if (faultSeed != null) {
        b.faults(new FaultInjector(faultSeed));
      }
      db = b.open();
      store.put(KEY, db);
      current.set(db);
    }
    return db;
  }

  @Override
  public void afterEach(ExtensionContext context) {
    current.remove();
    TalusTestDb db = context.getStore(NS).remove(KEY, TalusTestDb.class);
    if (db != null) {
      db.close();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
    Class<?> t = p.getParameter().getType();
    return t == TalusTestDb.class || t == TalusDb.class || t == ManualClock.class;
  }

  @Override
  public Object resolveParameter(ParameterContext p, ExtensionContext e) {
    TalusTestDb db = open(e);
    Class<?> t = p.getParameter().getType();
    if (t == TalusDb.class) {
      return db.db();
    }
    if (t == ManualClock.class) {
      return db.clock();
    }
    return db;
  }
}
