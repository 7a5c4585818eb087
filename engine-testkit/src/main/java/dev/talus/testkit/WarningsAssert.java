package dev.talus.testkit;

import dev.talus.TalusMetricsListener.WarningKind;
import java.util.List;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on the warnings a test database produced ({@link TalusTestDb#warnings()}): that a test
 * left no data-model, tombstone or guardrail warning behind, or that it produced the one it
 * expected. Failure messages list the warnings.
 */
public final class WarningsAssert extends AbstractAssert<WarningsAssert, Warnings> {
  WarningsAssert(Warnings actual) {
    super(actual, WarningsAssert.class);
  }

  /** No warning of any kind. */
  public WarningsAssert hasNoWarnings() {
    return hasNone(WarningKind.values());
  }

  /** No data-model warning (schema lint: unbounded partitions, missing buckets, ...). */
  public WarningsAssert hasNoDataModelWarnings() {
    return hasNone(WarningKind.DATA_MODEL);
  }

  /** No warning of these kinds. */
  public WarningsAssert hasNone(WarningKind... kinds) {
    isNotNull();
    List<CapturedWarning> found = actual.of(kinds);
    if (!found.isEmpty()) {
      failWithMessage(
          "Expected no %s warnings but the test produced:%n%s", List.of(kinds), list(found));
    }
    return this;
  }

  /** At least one warning of {@code kind} whose message contains {@code text}. */
  public WarningsAssert hasWarning(WarningKind kind, String text) {
    isNotNull();
    if (actual.of(kind).stream().noneMatch(w -> w.message().contains(text))) {
      failWithMessage(
          "Expected a %s warning containing \"%s\" but the test produced:%n%s",
          kind, text, list(actual.all()));
    }
    return this;
  }

  static String list(List<CapturedWarning> warnings) {
    if (warnings.isEmpty()) {
      return "  (no warnings)";
    }
    StringBuilder b = new StringBuilder();
    for (CapturedWarning w : warnings) {
      b.append(b.length() == 0 ? "" : "\n").append("  - ").append(w);
    }
    return b.toString();
  }
}
