package dev.talus.testkit.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.talus.ManualClock;
import dev.talus.TalusDb;
import dev.talus.server.TalusServer;
import dev.talus.testkit.Explanation;
import dev.talus.testkit.TalusTestDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

@ExtendWith(TalusServerExtension.class)
class TalusServerExtensionTest {
  private static final String KS =
      "CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}";

  @Test
  void injectsAConnectedSessionOnTheTestDatabase(
      CqlSession session, TalusTestServer talus, TalusTestDb db, TalusDb raw, TalusServer server) {
    Row local = session.execute("SELECT data_center FROM system.local").one();
    assertThat(local.getString("data_center")).isEqualTo(TalusTestServer.DATACENTER);
    assertThat(talus.session()).isSameAs(session);
    assertThat(talus.db()).isSameAs(db);
    assertThat(db.db()).isSameAs(raw);
    assertThat(server.address()).isEqualTo(talus.address());
    assertThat(server.address().getAddress().isLoopbackAddress()).isTrue();

    session.execute(KS);
    session.execute("CREATE TABLE shop.items (id int PRIMARY KEY, name text)");
    session.execute("INSERT INTO shop.items (id, name) VALUES (1, 'apple')");
    // what the driver wrote is in the engine the test holds
    assertThat(raw.table("shop", "items").select().eq("id", 1).one())
        .hasValueSatisfying(r -> assertThat(r.getString("name")).isEqualTo("apple"));
  }

  @Test
  void theServerRunsOnTheManualClock(CqlSession session, ManualClock clock) {
    assertThat(clock.instant()).isEqualTo(TalusTestDb.DEFAULT_START);
    session.execute(KS);
    session.execute("CREATE TABLE shop.carts (id int PRIMARY KEY, total int)");
    session.execute("INSERT INTO shop.carts (id, total) VALUES (1, 10) USING TTL 3600");
    Row r = session.execute("SELECT writetime(total) AS w FROM shop.carts WHERE id = 1").one();
    assertThat(r.getLong("w")).isEqualTo(TalusTestDb.DEFAULT_START.toEpochMilli() * 1000);
    clock.advance(Duration.ofSeconds(3599));
    assertThat(session.execute("SELECT * FROM shop.carts WHERE id = 1").one()).isNotNull();
    clock.advance(Duration.ofSeconds(1));
    assertThat(session.execute("SELECT * FROM shop.carts WHERE id = 1").one()).isNull();
  }

  @Test
  void theExplainerSeesWhatTheDriverDeleted(TalusTestServer talus) {
    CqlSession session = talus.session();
    session.execute(KS);
    session.execute("CREATE TABLE shop.baskets (id int, item int, PRIMARY KEY (id, item))");
    session.execute("INSERT INTO shop.baskets (id, item) VALUES (7, 1)");
    session.execute("DELETE FROM shop.baskets WHERE id = 7 AND item = 1");
    talus.db().flush(talus.table("shop", "baskets"));
    Explanation why = talus.explain("shop", "baskets", 7);
    assertThat(why.has(Explanation.Kind.GC_GRACE_NOT_PASSED)).as("%s", why).isTrue();
    talus.db().advancePastGcGrace(talus.table("shop", "baskets"));
    talus.db().compactAll(talus.table("shop", "baskets"));
    assertThat(talus.explain("shop", "baskets", 7).isEmpty()).isTrue();
  }

  // ------------------------------------------------------------------ lifecycles, run in-process

  static final Map<String, Object> seen = new ConcurrentHashMap<>();

  /** Run by {@link #eachTestGetsAFreshDatabaseServerAndSession()}, not on its own. */
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class PerTest {
    @RegisterExtension
    static final TalusServerExtension talus = TalusServerExtension.create().keyspace("app");

    @Test
    @Order(1)
    void first() {
      CqlSession s = talus.session();
      seen.put("first.keyspace", s.getKeyspace().orElseThrow().asInternal());
      s.execute("CREATE TABLE t (k int PRIMARY KEY)");
      s.execute("INSERT INTO t (k) VALUES (1)");
      talus.db().advance(Duration.ofDays(1));
      seen.put("first.dir", talus.db().directory());
      seen.put("first.port", talus.server().address().getPort());
    }

    @Test
    @Order(2)
    void second() {
      seen.put("second.tables", talus.db().db().tables().size());
      seen.put("second.now", talus.db().now());
      seen.put("second.dir", talus.db().directory());
      seen.put("first.dirExistsDuringSecond", Files.exists((Path) seen.get("first.dir")));
    }
  }

  @Test
  void eachTestGetsAFreshDatabaseServerAndSession() {
    seen.clear();
    assertThat(run(PerTest.class).getTestsSucceededCount()).isEqualTo(2);
    assertThat(seen.get("first.keyspace")).isEqualTo("app");
    assertThat(seen.get("second.tables")).as("tables left by the first test").isEqualTo(0);
    assertThat(seen.get("second.now")).isEqualTo(TalusTestDb.DEFAULT_START);
    assertThat(seen.get("second.dir")).isNotEqualTo(seen.get("first.dir"));
    assertThat(seen.get("first.dirExistsDuringSecond")).isEqualTo(false);
    assertThat(Files.exists((Path) seen.get("second.dir"))).isFalse();
  }

  /** Run by {@link #perClassKeepsTheSchemaAndEmptiesTheTables()}, not on its own. */
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class PerClass {
    @RegisterExtension
    static final TalusServerExtension talus = TalusServerExtension.perClass().keyspace("app");

    @Test
    @Order(1)
    void first(CqlSession s) {
      s.execute("CREATE TABLE t (k int PRIMARY KEY)");
      s.execute("INSERT INTO t (k) VALUES (1)");
      seen.put("first.rows", s.execute("SELECT * FROM t").all().size());
      seen.put("first.session", s);
      seen.put("first.dir", talus.db().directory());
    }

    @Test
    @Order(2)
    void second(CqlSession s) {
      List<Row> rows = new ArrayList<>(s.execute("SELECT * FROM t").all());
      seen.put("second.rows", rows.size());
      seen.put("second.sameSession", s == seen.get("first.session"));
      seen.put("second.dirExists", Files.exists(talus.db().directory()));
    }
  }

  @Test
  void perClassKeepsTheSchemaAndEmptiesTheTables() {
    seen.clear();
    assertThat(run(PerClass.class).getTestsSucceededCount()).isEqualTo(2);
    assertThat(seen.get("first.rows")).isEqualTo(1);
    assertThat(seen.get("second.rows")).as("rows left by the first test").isEqualTo(0);
    assertThat(seen.get("second.sameSession")).isEqualTo(true);
    assertThat(seen.get("second.dirExists")).isEqualTo(true);
    assertThat(Files.exists((Path) seen.get("first.dir"))).as("deleted after the class").isFalse();
  }

  @Test
  void talusServerOutsideATestSaysHowToGetOne() {
    TalusServerExtension e = TalusServerExtension.create();
    org.assertj.core.api.Assertions.assertThatThrownBy(e::session)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("TalusTestServer parameter");
  }

  private static TestExecutionSummary run(Class<?> testClass) {
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    LauncherFactory.create()
        .execute(
            LauncherDiscoveryRequestBuilder.request().selectors(selectClass(testClass)).build(),
            listener);
    TestExecutionSummary summary = listener.getSummary();
    summary.getFailures().forEach(f -> f.getException().printStackTrace());
    return summary;
  }
}
