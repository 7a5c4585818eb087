package dev.talus.testkit;

import dev.talus.ManualClock;
import dev.talus.TalusDb;
import dev.talus.TalusMetricsListener.WarningKind;
import dev.talus.TalusOptions;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;
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
 * <p>Warnings the engine logs (data model, tombstones, guardrails) are captured whether or not an
 * SLF4J binding is present: each test's are in {@code db.warnings()} (assert with {@code
 * TalusAssertions.assertThat(db.warnings()).hasNoWarnings()}), they are published as JUnit report
 * entries, and {@link #failOnWarnings()} fails any test that leaves one behind.
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
  private final Set<WarningKind> failOn;
  private final ThreadLocal<TalusTestDb> current = new ThreadLocal<>();

  /** For {@code @ExtendWith}: the defaults of {@link #create()}. */
  public TalusExtension() {
    this(TalusTestDb.DEFAULT_START, null, b -> {}, Set.of());
  }

  private TalusExtension(
      Instant start,
      Long faultSeed,
      Consumer<TalusOptions.Builder> options,
      Set<WarningKind> failOn) {
    this.start = start;
    this.faultSeed = faultSeed;
    this.options = options;
    this.failOn = failOn;
  }

  public static TalusExtension create() {
    return new TalusExtension();
  }

  /** Clocks start at {@code start} instead of 2026-01-01T00:00:00Z. */
  public TalusExtension clockAt(Instant start) {
    return new TalusExtension(Objects.requireNonNull(start, "start"), faultSeed, options, failOn);
  }

  /** Each test's database runs over a {@link FaultInjector} seeded with {@code seed}. */
  public TalusExtension withFaults(long seed) {
    return new TalusExtension(start, seed, options, failOn);
  }

  /** Adjust every test's options after the testkit defaults. */
  public TalusExtension options(Consumer<TalusOptions.Builder> customizer) {
    return new TalusExtension(
        start, faultSeed, Objects.requireNonNull(customizer, "customizer"), failOn);
  }

  /**
   * Fails a test that leaves a data-model, tombstone or guardrail warning behind (after the test
   * body, listing the warnings). A test that expects one clears it: {@code db.warnings().clear()}.
   */
  public TalusExtension failOnWarnings() {
    return failOnWarnings(WarningKind.values());
  }

  /** Like {@link #failOnWarnings()}, for these kinds only (e.g. {@code DATA_MODEL}). */
  public TalusExtension failOnWarnings(WarningKind... kinds) {
    return new TalusExtension(start, faultSeed, options, Set.of(kinds));
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

  /**
   * Closes the test's database. Every warning it produced is published as a JUnit report entry
   * ({@code talus.warning}: shown by IDEs and build tools), and with {@link #failOnWarnings} those
   * of the chosen kinds fail the test.
   */
  @Override
  public void afterEach(ExtensionContext context) {
    current.remove();
    TalusTestDb db = context.getStore(NS).remove(KEY, TalusTestDb.class);
    if (db == null) {
      return;
    }
    db.close();
    for (CapturedWarning w : db.warnings().all()) {
      context.publishReportEntry("talus.warning", w.toString());
    }
    List<CapturedWarning> failing = db.warnings().of(failOn.toArray(WarningKind[]::new));
    if (!failing.isEmpty() && context.getExecutionException().isEmpty()) {
      throw new AssertionError(
          "The test produced Talus warnings (TalusExtension.failOnWarnings"
              + failOn
              + "):\n"
              + WarningsAssert.list(failing));
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
