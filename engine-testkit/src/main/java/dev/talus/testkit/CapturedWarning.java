package dev.talus.testkit;

import dev.talus.TalusMetricsListener.WarningKind;

/**
 * A warning the engine logged during a test (and reported through {@link
 * dev.talus.TalusMetricsListener#onWarning}), as {@link Warnings} captured it. Immutable.
 *
 * @param kind data model (schema lint), tombstones (a read over the warning threshold) or guardrail
 * @param table the table it is about
 * @param message the text the engine logged
 */
public record CapturedWarning(WarningKind kind, String table, String message) {
  @Override
  public String toString() {
    return kind + " " + table + ": " + message;
  }
}
