package dev.talus.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.talus.DataType;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusMetricsListener;
import dev.talus.TalusMetricsListener.WarningKind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Data-model, tombstone and guardrail warnings are captured by the test database although this
 * module's tests run with slf4j-nop (no log output at all), can be asserted on, and can fail a
 * test.
 */
class WarningsTest {
  private static TableSchema lowCardinality() {
    return TableSchema.builder("orders_by_status")
        .partitionKey("status", DataType.TEXT)
        .clusteringColumn("id", DataType.INT)
        .column("total", DataType.DOUBLE)
        .build();
  }

  @Test
  void aSchemaLintWarningIsCapturedAndAssertable() {
    try (TalusTestDb db = TalusTestDb.create()) {
      db.createTable(lowCardinality());
      List<CapturedWarning> w = db.warnings().of(WarningKind.DATA_MODEL);
      assertThat(w).hasSize(1);
      assertThat(w.get(0).table()).isEqualTo("orders_by_status");
      assertThat(w.get(0).message()).startsWith("Data model: ").contains("status");
      TalusAssertions.assertThat(db.warnings()).hasWarning(WarningKind.DATA_MODEL, "status");
      assertThatThrownBy(() -> TalusAssertions.assertThat(db.warnings()).hasNoDataModelWarnings())
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("Expected no [DATA_MODEL] warnings")
          .hasMessageContaining("orders_by_status");
      db.warnings().clear();
      TalusAssertions.assertThat(db.warnings()).hasNoWarnings();
    }
  }

  @Test
  void tombstoneAndGuardrailWarningsAreCaptured() {
    List<String> forwarded = new ArrayList<>();
    TalusMetricsListener mine =
        new TalusMetricsListener() {
          @Override
          public void onWarning(String table, WarningKind kind, String message) {
            forwarded.add(kind + " " + table);
          }
        };
    try (TalusTestDb db =
        TalusTestDb.builder()
            .options(b -> b.partitionRowsThresholds(20, 0).metricsListener(mine))
            .open()) {
      Table t =
          db.createTable(
              TableSchema.builder("jobs")
                  .partitionKey("queue", DataType.TEXT)
                  .clusteringColumn("seq", DataType.INT)
                  .column("payload", DataType.TEXT)
                  .tombstoneThresholds(5, 1_000)
                  .build());
      for (int i = 0; i < 30; i++) {
        t.insert().value("queue", "q").value("seq", i).value("payload", "job").execute();
      }
      db.flush(t); // a partition of 30 rows: over the 20-row guardrail warning
      for (int i = 0; i < 10; i++) {
        t.delete().eq("queue", "q").eq("seq", i).execute();
      }
      t.select().eq("queue", "q").execute(); // scans 10 tombstones: over the warning threshold of 5
      TalusAssertions.assertThat(db.warnings())
          .hasWarning(WarningKind.GUARDRAIL, "partition_rows_warn_threshold")
          .hasWarning(WarningKind.TOMBSTONES, "tombstone_warn_threshold")
          .hasNoDataModelWarnings();
      assertThat(forwarded).contains("GUARDRAIL jobs", "TOMBSTONES jobs");
    }
  }

  @Test
  void failOnWarningsFailsATestThatLeavesOneBehind() {
    TestExecutionSummary warns = run(WarnsUnderFailOnWarnings.class);
    assertThat(warns.getTestsFailedCount()).isEqualTo(1);
    Throwable why = warns.getFailures().get(0).getException();
    assertThat(why)
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("TalusExtension.failOnWarnings")
        .hasMessageContaining("DATA_MODEL orders_by_status");

    TestExecutionSummary cleared = run(ClearsItsExpectedWarning.class);
    assertThat(cleared.getTestsSucceededCount()).isEqualTo(1);
    assertThat(cleared.getTestsFailedCount()).isZero();
  }

  private static TestExecutionSummary run(Class<?> testClass) {
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    LauncherFactory.create()
        .execute(
            LauncherDiscoveryRequestBuilder.request().selectors(selectClass(testClass)).build(),
            listener);
    return listener.getSummary();
  }

  /** Run by {@link #failOnWarningsFailsATestThatLeavesOneBehind}, not by the build directly. */
  static class WarnsUnderFailOnWarnings {
    @RegisterExtension static final TalusExtension talus = TalusExtension.create().failOnWarnings();

    @Test
    void createsALowCardinalityTable() {
      talus.db().createTable(lowCardinality());
    }
  }

  /** A test that expects its warning and clears it passes under failOnWarnings. */
  static class ClearsItsExpectedWarning {
    @RegisterExtension static final TalusExtension talus = TalusExtension.create().failOnWarnings();

    @Test
    void createsALowCardinalityTableOnPurpose() {
      talus.db().createTable(lowCardinality());
      assertThat(talus.db().warnings().of(WarningKind.DATA_MODEL)).hasSize(1);
      talus.db().warnings().clear();
    }
  }
}
