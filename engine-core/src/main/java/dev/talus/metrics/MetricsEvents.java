package dev.talus.metrics;

import dev.talus.TalusMetricsListener;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's side of {@link TalusMetricsListener}: forwards each event and swallows whatever the
 * listener throws, so a faulty listener can never fail a write, read, flush or compaction. The
 * first failure is logged at WARN, later ones at DEBUG (a listener failing on every write must not
 * flood the log). Thread-safe.
 */
public final class MetricsEvents {
  private static final Logger LOG = LoggerFactory.getLogger(MetricsEvents.class);

  /** The logger of the warnings users act on (data model, tombstones, guardrails). */
  private static final Logger LOG_WARNINGS = LoggerFactory.getLogger("dev.talus.warnings");

  private final TalusMetricsListener listener;
  private final boolean enabled;
  private final AtomicBoolean warned = new AtomicBoolean();

  public MetricsEvents(TalusMetricsListener listener) {
    this.listener = listener;
    this.enabled = listener != TalusMetricsListener.NO_OP;
  }

  public boolean enabled() {
    return enabled;
  }

  public void write(String table, long micros) {
    if (enabled) {
      try {
        listener.onWrite(table, micros);
      } catch (RuntimeException e) {
        failed("onWrite", e);
      }
    }
  }

  public void read(String table, long micros, int sstables, int tombstones) {
    if (enabled) {
      try {
        listener.onRead(table, micros, sstables, tombstones);
      } catch (RuntimeException e) {
        failed("onRead", e);
      }
    }
  }

  public void flush(String table, long bytes) {
    if (enabled) {
      try {
        listener.onFlush(table, bytes);
      } catch (RuntimeException e) {
        failed("onFlush", e);
      }
    }
  }

  public void diskFull(String directory, boolean full, String detail) {
    if (enabled) {
      try {
        listener.onDiskFull(directory, full, detail);
      } catch (RuntimeException e) {
        failed("onDiskFull", e);
      }
    }
  }

  public void compactionFailed(
      String table, int inARow, java.time.Duration retryAfter, String cause) {
    if (enabled) {
      try {
        listener.onCompactionFailure(table, inARow, retryAfter, cause);
      } catch (RuntimeException e) {
        failed("onCompactionFailure", e);
      }
    }
  }

  public void compaction(String table, long bytesIn, long bytesOut) {
    if (enabled) {
      try {
        listener.onCompaction(table, bytesIn, bytesOut);
      } catch (RuntimeException e) {
        failed("onCompaction", e);
      }
    }
  }

  public void guardrail(String table, TalusMetricsListener.GuardrailKind kind, String key) {
    if (enabled) {
      try {
        listener.onGuardrail(table, kind, key);
      } catch (RuntimeException e) {
        failed("onGuardrail", e);
      }
    }
  }

  /** Logs {@code message} at WARN and forwards it to the listener. */
  public void warning(String table, TalusMetricsListener.WarningKind kind, String message) {
    LOG_WARNINGS.warn("{}", message);
    if (enabled) {
      try {
        listener.onWarning(table, kind, message);
      } catch (RuntimeException e) {
        failed("onWarning", e);
      }
    }
  }

  private void failed(String method, RuntimeException e) {
    if (warned.compareAndSet(false, true)) {
      LOG.warn(
          "Metrics listener {}.{} threw; the event is dropped (further failures are logged at"
              + " DEBUG)",
          listener.getClass().getName(),
          method,
          e);
    } else {
      LOG.debug("Metrics listener {}.{} threw", listener.getClass().getName(), method, e);
    }
  }
}
