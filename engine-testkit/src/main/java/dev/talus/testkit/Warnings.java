package dev.talus.testkit;

import dev.talus.TalusMetricsListener;
import dev.talus.TalusMetricsListener.WarningKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * The data-model, tombstone and guardrail warnings a {@link TalusTestDb} produced, captured whether
 * or not the test has an SLF4J binding (Talus ships none, so logged warnings are otherwise
 * invisible). Read them with {@link #all()} or {@link #of}, assert with {@code
 * TalusAssertions.assertThat(db).hasNoWarnings()}, or make every test fail on one with {@link
 * TalusExtension#failOnWarnings}. Thread-safe: the engine reports from its own threads.
 */
public final class Warnings {
  private final List<CapturedWarning> captured = Collections.synchronizedList(new ArrayList<>());

  Warnings() {}

  /** Every warning so far, oldest first (a copy). */
  public List<CapturedWarning> all() {
    synchronized (captured) {
      return List.copyOf(captured);
    }
  }

  /** The warnings of these kinds, oldest first. */
  public List<CapturedWarning> of(WarningKind... kinds) {
    Set<WarningKind> wanted = Set.of(kinds);
    return all().stream().filter(w -> wanted.contains(w.kind())).toList();
  }

  /** Forgets the warnings so far (e.g. after a setup that is expected to warn). */
  public void clear() {
    captured.clear();
  }

  /** A listener that records warnings and forwards every event to {@code next}. */
  TalusMetricsListener capturing(TalusMetricsListener next) {
    return new TalusMetricsListener() {
      @Override
      public void onWrite(String table, long micros) {
        next.onWrite(table, micros);
      }

      @Override
      public void onRead(String table, long micros, int sstables, int tombstones) {
        next.onRead(table, micros, sstables, tombstones);
      }

      @Override
      public void onFlush(String table, long bytes) {
        next.onFlush(table, bytes);
      }

      @Override
      public void onCompaction(String table, long bytesIn, long bytesOut) {
        next.onCompaction(table, bytesIn, bytesOut);
      }

      @Override
      public void onGuardrail(String table, GuardrailKind kind, String partitionKey) {
        next.onGuardrail(table, kind, partitionKey);
      }

      @Override
      public void onWarning(String table, WarningKind kind, String message) {
        captured.add(new CapturedWarning(kind, table, message));
        next.onWarning(table, kind, message);
      }
    };
  }

  @Override
  public String toString() {
    List<CapturedWarning> all = all();
    if (all.isEmpty()) {
      return "no warnings";
    }
    StringBuilder b = new StringBuilder(all.size() + " warning(s):");
    for (CapturedWarning w : all) {
      b.append("\n  - ").append(w);
    }
    return b.toString();
  }
}
