package dev.talus.bench.ycsb;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import org.HdrHistogram.Histogram;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * Times every operation of a binding into its own HdrHistograms (nanoseconds), one per operation
 * kind, counting non-OK results apart (they are not in the latency). Used instead of YCSB's
 * DBWrapper, whose measurements are a process-wide singleton that cannot be reset between the runs
 * RunYcsb makes in one process. One instance per client thread; not thread-safe.
 */
final class TimedDb extends DB {
  enum Op {
    READ,
    UPDATE,
    INSERT,
    SCAN,
    DELETE
  }

  private static final long MAX_NANOS = 60_000_000_000L;

  private final DB delegate;
  private final Map<Op, Histogram> latency = new EnumMap<>(Op.class);
  private final Map<Op, Long> failures = new EnumMap<>(Op.class);
  private final Map<Op, Status> lastFailure = new EnumMap<>(Op.class);

  TimedDb(DB delegate) {
    this.delegate = delegate;
    for (Op op : Op.values()) {
      latency.put(op, new Histogram(MAX_NANOS, 3));
      failures.put(op, 0L);
    }
  }

  Map<Op, Histogram> latency() {
    return latency;
  }

  Map<Op, Long> failures() {
    return failures;
  }

  Map<Op, Status> lastFailure() {
    return lastFailure;
  }

  @Override
  public void setProperties(Properties p) {
    super.setProperties(p);
    delegate.setProperties(p);
  }

  @Override
  public void init() throws DBException {
    delegate.init();
  }

  @Override
  public void cleanup() throws DBException {
    delegate.cleanup();
  }

  private Status record(Op op, long start, Status s) {
    long nanos = System.nanoTime() - start;
    if (s.isOk()) {
      latency.get(op).recordValue(Math.min(nanos, MAX_NANOS));

    } else {
      failures.merge(op, 1L, Long::sum);
      lastFailure.put(op, s);
    }
    return s;
  }

  @Override
  public Status read(String t, String key, Set<String> fields, Map<String, ByteIterator> result) {
    ReadTimeline timeline = ReadTimeline.current();
    if (timeline != null) {
      return timelineRead(timeline, t, key, fields, result);
    }
    long start = System.nanoTime();
    return record(Op.READ, start, delegate.read(t, key, fields, result));
  }

  /** A read with the thread's scheduler counters around it, for {@link ReadTimeline}. */
  private Status timelineRead(
      ReadTimeline timeline,
      String t,
      String key,
      Set<String> fields,
      Map<String, ByteIterator> result) {
    long[] before = ReadTimeline.threadSched();
    long start = System.nanoTime();
    Status s = record(Op.READ, start, delegate.read(t, key, fields, result));
    long nanos = System.nanoTime() - start;
    if (s.isOk() && nanos > ReadTimeline.SLOW_NANOS) {
      timeline.slowRead(nanos, before, ReadTimeline.threadSched());
    }
    return s;
  }

  @Override
  public Status scan(
      String t,
      String startkey,
      int recordcount,
      Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    long start = System.nanoTime();
    return record(Op.SCAN, start, delegate.scan(t, startkey, recordcount, fields, result));
  }

  @Override
  public Status update(String t, String key, Map<String, ByteIterator> values) {
    long start = System.nanoTime();
    return record(Op.UPDATE, start, delegate.update(t, key, values));
  }

  @Override
  public Status insert(String t, String key, Map<String, ByteIterator> values) {
    long start = System.nanoTime();
    return record(Op.INSERT, start, delegate.insert(t, key, values));
  }

  @Override
  public Status delete(String t, String key) {
    long start = System.nanoTime();
    return record(Op.DELETE, start, delegate.delete(t, key));
  }
}
