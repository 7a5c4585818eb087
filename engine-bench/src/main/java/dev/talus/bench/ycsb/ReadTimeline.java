package dev.talus.bench.ycsb;

import dev.talus.TalusMetricsListener;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A per-read latency timeline of one YCSB run phase, to find what slow reads wait on: every read
 * slower than a threshold, set beside what else the process did in each 20 ms slice — CPU used by
 * the engine's flush and compaction threads and by the client threads, GC pauses, and the flushes
 * and compactions the engine reported through its {@link TalusMetricsListener}.
 *
 * <p>Off unless {@code -Dtalus.ycsb.timeline=DIR} is given; then {@link RunYcsb} records each run
 * phase into {@code DIR/timeline-<workload>-<engine>-<n>.tsv} and prints a summary line: of the
 * slow reads, the share that finished in a slice with a GC pause, with flush CPU, with compaction
 * CPU, against the share of all slices with each (a cause shows as a share well above its base
 * rate). {@code -Dtalus.ycsb.timeline.slowMicros} sets the threshold (default 1000). When off,
 * {@link TimedDb} tests one null reference per operation and nothing else runs.
 *
 * <p>Thread-safe: client threads call {@link #slowRead}, engine threads {@link #LISTENER}, one
 * sampler thread of its own does the rest.
 */
final class ReadTimeline implements AutoCloseable {
  static final String DIR = "talus.ycsb.timeline";
  static final long SLOW_NANOS =
      Long.getLong(DIR + ".slowMicros", 1000) * 1000L; // read once, at class load
  private static final long SLICE_NANOS = 20_000_000L;

  /** The recorder of the phase running now, or null; set by {@link #start}, read by callers. */
  private static volatile ReadTimeline current;

  /**
   * Reports flushes and compactions to the running timeline; installed by the Talus binding when
   * the timeline is on.
   */
  static final TalusMetricsListener LISTENER =
      new TalusMetricsListener() {
        @Override
        public void onFlush(String table, long bytes) {
          ReadTimeline t = current;
          if (t != null) {
            t.events.add(new Event(System.nanoTime(), "flush", bytes, 0, 0));
          }
        }

        @Override
        public void onCompaction(String table, long bytesIn, long bytesOut) {
          ReadTimeline t = current;
          if (t != null) {
            t.events.add(new Event(System.nanoTime(), "compaction", bytesIn, 0, 0));
          }
        }
      };

  /** A slow read ({@code kind} "read": wall, CPU and run-queue nanos) or an engine event. */
  private record Event(long nanos, String kind, long value, long cpu, long queued) {}

  /** CPU nanos per thread group in one slice, GC pauses counted by the JVM. */
  private record Slice(long endNanos, long[] cpu, long gcMillis, int gcs) {}

  /** Thread groups, matched on the thread names the kernel sees (15 characters). */
  private static final String[] GROUPS = {
    "client", "flush", "compaction", "jit", "gc", "timeline", "other"
  };

  private static int group(String comm) {
    if (comm.startsWith("ycsb-timeline")) {
      return 5;
    }
    if (comm.startsWith("ycsb-")) {
      return 0;
    }
    if (comm.contains("-flush")) {
      return 1;
    }
    if (comm.contains("-compac")) {
      return 2;
    }
    if (comm.contains("Compiler")) {
      return 3;
    }
    if (comm.startsWith("GC Thread") || comm.startsWith("VM Thread")) {
      return 4;
    }
    return 6;
  }

  private final Path file;
  private final long startNanos = System.nanoTime();
  private final ConcurrentLinkedQueue<Event> events = new ConcurrentLinkedQueue<>();
  private final List<Slice> slices = new ArrayList<>();
  private final Thread sampler;
  private volatile boolean stop;
  private boolean closed;

  private ReadTimeline(Path file) {
    this.file = file;
    this.sampler = new Thread(this::sample, "ycsb-timeline");
    this.sampler.setDaemon(true);
    this.sampler.start();
  }

  static boolean enabled() {
    String d = System.getProperty(DIR);
    return d != null && !d.isBlank();
  }

  /** The running recorder, for {@link TimedDb}; null when the timeline is off or between phases. */
  static ReadTimeline current() {
    return current;
  }

  /** Starts recording a phase into {@code name}.tsv under the timeline directory. */
  static ReadTimeline start(String name) {
    try {
      Path dir = Path.of(System.getProperty(DIR));
      Files.createDirectories(dir);
      ReadTimeline t = new ReadTimeline(dir.resolve(name + ".tsv"));
      current = t;
      return t;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The calling thread's CPU time and time spent runnable but waiting for a CPU, in nanos, from
   * {@code /proc/thread-self/schedstat} (Linux); {-1, -1} where it cannot be read.
   */
  static long[] threadSched() {
    return sched(Path.of("/proc/thread-self/schedstat"));
  }

  private static long[] sched(Path p) {
    try {
      String[] f = Files.readString(p).trim().split(" ");
      return new long[] {Long.parseLong(f[0]), Long.parseLong(f[1])};
    } catch (IOException | RuntimeException e) {
      return new long[] {-1, -1};
    }
  }

  /**
   * A read that took {@code nanos} (above {@link #SLOW_NANOS}) ended now; {@code before} and {@code
   * after} are {@link #threadSched()} around it.
   */
  void slowRead(long nanos, long[] before, long[] after) {
    long cpu = before[0] < 0 || after[0] < 0 ? -1 : after[0] - before[0];
    long queued = before[1] < 0 || after[1] < 0 ? -1 : after[1] - before[1];
    events.add(new Event(System.nanoTime(), "read", nanos, cpu, queued));
  }

  private void sample() {
    List<GarbageCollectorMXBean> gcs = ManagementFactory.getGarbageCollectorMXBeans();
    Map<String, Long> lastCpu = new HashMap<>();
    long lastGcMillis = 0;
    long lastGcCount = 0;
    boolean first = true;
    Path tasks = Path.of("/proc/self/task");
    while (!stop) {
      long[] cpu = new long[GROUPS.length];
      Map<String, Long> now = new HashMap<>();
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(tasks)) {
        for (Path t : ds) {
          String comm;
          try {
            comm = Files.readString(t.resolve("comm")).trim();
          } catch (IOException | RuntimeException e) {
            continue; // the thread ended
          }
          long c = sched(t.resolve("schedstat"))[0];
          if (c < 0) {
            continue;
          }
          String id = t.getFileName().toString();
          now.put(id, c);
          Long before = lastCpu.get(id);
          cpu[group(comm)] += Math.max(0, c - (before == null ? c : before));
        }
      } catch (IOException e) {
        return; // no /proc: no slices
      }
      lastCpu = now;
      long gcMillis = 0;
      long gcCount = 0;
      for (GarbageCollectorMXBean gc : gcs) {
        gcMillis += Math.max(0, gc.getCollectionTime());
        gcCount += Math.max(0, gc.getCollectionCount());
      }
      if (!first) {
        synchronized (slices) {
          slices.add(
              new Slice(
                  System.nanoTime(), cpu, gcMillis - lastGcMillis, (int) (gcCount - lastGcCount)));
        }
      }
      lastGcMillis = gcMillis;
      lastGcCount = gcCount;
      first = false;
      try {
        Thread.sleep(SLICE_NANOS / 1_000_000L);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Stops the sampler and writes the file; once (later calls do nothing). */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    current = null;
    stop = true;
    sampler.interrupt();
    try {
      sampler.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    List<Slice> s = slices();
    List<Event> e = sortedEvents();
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file))) {
      w.println("# ms since the phase started, kind, then:");
      w.println("#  read: wall µs, on-CPU µs, waiting-for-a-CPU µs (-1: no schedstat)");
      w.println("#  flush / compaction (ended): bytes written / read");
      w.println("#  slice: CPU ms per thread group " + String.join(" ", GROUPS) + ", GC ms, GCs");
      int i = 0;
      for (Slice x : s) {
        while (i < e.size() && e.get(i).nanos() <= x.endNanos()) {
          writeEvent(w, e.get(i++));
        }
        StringBuilder b = new StringBuilder();
        for (long c : x.cpu()) {
          b.append(String.format(Locale.ROOT, "%.1f ", c / 1e6));
        }
        w.printf(Locale.ROOT, "%.1f\tslice\t%s%d %d%n", ms(x.endNanos()), b, x.gcMillis(), x.gcs());
      }
      while (i < e.size()) {
        writeEvent(w, e.get(i++));
      }
    } catch (IOException x) {
      throw new UncheckedIOException(x);
    }
  }

  /**
   * The slow reads, where their time went (on a CPU, waiting for one, neither: blocked on I/O, a
   * lock or a GC pause), the share of them that ended within 40 ms of a GC, flush or compaction
   * against the share of the phase's time with one, and the CPU each thread group used.
   */
  String summary() {
    List<Slice> s = slices();
    int slow = 0;
    long wall = 0;
    long cpu = 0;
    long queued = 0;
    int[] hit = new int[3];
    int[] base = new int[3];
    for (int i = 0; i < s.size(); i++) {
      boolean[] f = flags(s, i);
      for (int k = 0; k < 3; k++) {
        base[k] += f[k] ? 1 : 0;
      }
    }
    int j = 0;
    for (Event ev : sortedEvents()) {
      if (!ev.kind().equals("read")) {
        continue;
      }
      while (j < s.size() && s.get(j).endNanos() < ev.nanos()) {
        j++;
      }
      slow++;
      wall += ev.value();
      cpu += Math.max(0, ev.cpu());
      queued += Math.max(0, ev.queued());
      if (j < s.size()) {
        boolean[] f = flags(s, j);
        for (int k = 0; k < 3; k++) {
          hit[k] += f[k] ? 1 : 0;
        }
      }
    }
    long[] groups = new long[GROUPS.length];
    for (Slice x : s) {
      for (int k = 0; k < groups.length; k++) {
        groups[k] += x.cpu()[k];
      }
    }
    StringBuilder g = new StringBuilder();
    for (int k = 0; k < groups.length; k++) {
      g.append(String.format(Locale.ROOT, " %s %.0f", GROUPS[k], groups[k] / 1e6));
    }
    int n = Math.max(1, s.size());
    int d = Math.max(1, slow);
    double w = Math.max(1, wall);
    return String.format(
        Locale.ROOT,
        "%s: %d reads over %d µs, their time %.0f%% on a CPU, %.0f%% waiting for a CPU, %.0f%%"
            + " neither; ended near a GC %.0f%% (of the time %.0f%%), flush CPU %.0f%% (%.0f%%),"
            + " compaction CPU %.0f%% (%.0f%%); CPU ms in the phase:%s",
        file.getFileName(),
        slow,
        SLOW_NANOS / 1000,
        100 * cpu / w,
        100 * queued / w,
        100 * (wall - cpu - queued) / w,
        100.0 * hit[0] / d,
        100.0 * base[0] / n,
        100.0 * hit[1] / d,
        100.0 * base[1] / n,
        100.0 * hit[2] / d,
        100.0 * base[2] / n,
        g);
  }

  private List<Slice> slices() {
    synchronized (slices) {
      return List.copyOf(slices);
    }
  }

  /** GC, flush CPU, compaction CPU in slice {@code i} or the one before (a read spans both). */
  private static boolean[] flags(List<Slice> s, int i) {
    boolean[] f = new boolean[3];
    for (int k = Math.max(0, i - 1); k <= i; k++) {
      Slice x = s.get(k);
      f[0] |= x.gcs() > 0;
      f[1] |= x.cpu()[1] > 1_000_000L;
      f[2] |= x.cpu()[2] > 1_000_000L;
    }
    return f;
  }

  private List<Event> sortedEvents() {
    List<Event> e = new ArrayList<>(events);
    e.sort(Comparator.comparingLong(Event::nanos));
    return e;
  }

  private void writeEvent(PrintWriter w, Event ev) {
    if (ev.kind().equals("read")) {
      w.printf(
          Locale.ROOT,
          "%.1f\tread\t%d %d %d%n",
          ms(ev.nanos()),
          ev.value() / 1000,
          ev.cpu() < 0 ? -1 : ev.cpu() / 1000,
          ev.queued() < 0 ? -1 : ev.queued() / 1000);
    } else {
      w.printf(Locale.ROOT, "%.1f\t%s\t%d%n", ms(ev.nanos()), ev.kind(), ev.value());
    }
  }

  private double ms(long nanos) {
    return (nanos - startNanos) / 1e6;
  }
}
