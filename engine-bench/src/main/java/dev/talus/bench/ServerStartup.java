package dev.talus.bench;

import com.datastax.oss.driver.api.core.CqlSession;
import dev.talus.testkit.TalusTestDb;
import dev.talus.testkit.server.TalusTestServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * What a driver-based test pays for Talus, measured (never asserted):
 *
 * <ol>
 *   <li><b>JVM start to first answered query</b>: forks a child JVM that starts a fresh {@link
 *       TalusTestServer} (temporary database, native protocol server, connected Java driver
 *       session) and runs one query; the wall time from starting the process to reading its answer
 *       line, median of {@code starts} children.
 *   <li><b>Per-test reset</b>, in this JVM after warm-up: a fresh database, server and session per
 *       test ({@code TalusServerExtension.create()}: start, create the test's table, close),
 *       against truncating the table of one long-lived server after 100 rows were written ({@code
 *       TalusServerExtension.perClass()}), median of {@code resets} each.
 * </ol>
 *
 * <pre>
 * java -cp engine-bench/target/benchmarks.jar dev.talus.bench.ServerStartup [starts] [resets]
 * </pre>
 */
public final class ServerStartup {
  private static final String ANSWER = "ANSWERED ";
  private static final String TABLE =
      "CREATE TABLE orders (customer text, id int, item text, PRIMARY KEY (customer, id))";

  private ServerStartup() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("child")) {
      child();
      return;
    }
    int starts = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int resets = args.length > 1 ? Integer.parseInt(args[1]) : 30;
    double[] wall = new double[starts];
    double[] uptime = new double[starts];
    double[] dbOpen = new double[starts];
    double[] cpu = new double[starts];
    for (int i = 0; i < starts; i++) {
      long[] r = forkOnce();
      wall[i] = r[0];
      uptime[i] = r[1];
      dbOpen[i] = r[2];
      cpu[i] = r[3];
      System.out.printf(
          Locale.ROOT,
          "start %d: %d ms to the first answer (child JVM uptime %d ms, of which %d ms until the"
              + " database was open; child CPU time %d ms)%n",
          i,
          r[0],
          r[1],
          r[2],
          r[3]);
    }
    System.out.printf(
        Locale.ROOT,
        "JVM start to first answered driver query: median %.0f ms of %d (child uptime median %.0f"
            + " ms, database open at %.0f ms, child CPU time median %.0f ms)%n",
        median(wall),
        starts,
        median(uptime),
        median(dbOpen),
        median(cpu));
    double[][] reset = resets(resets);
    System.out.printf(
        Locale.ROOT,
        "per-test reset, fresh database + server + session: median %.1f ms of %d%n",
        median(reset[0]),
        resets);
    System.out.printf(
        Locale.ROOT,
        "per-test reset, truncate the tables of one server: median %.2f ms of %d%n",
        median(reset[1]),
        resets);
  }

  /** The child: a fresh served database, a session, one query; prints the JVM's uptime. */
  private static void child() {
    TalusTestDb db = TalusTestDb.create();
    long dbOpen = ManagementFactory.getRuntimeMXBean().getUptime();
    try (TalusTestServer talus = TalusTestServer.start(db, null)) {
      String version =
          talus.session().execute("SELECT release_version FROM system.local").one().getString(0);
      long uptime = ManagementFactory.getRuntimeMXBean().getUptime();
      long cpuMs =
          ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                  .getProcessCpuTime()
              / 1_000_000;
      System.out.println(ANSWER + uptime + " " + dbOpen + " " + cpuMs + " " + version);
      System.out.flush();
    }
  }

  /**
   * One child: {wall ms from process start to its answer, the child's JVM uptime then, its uptime
   * when the database was open, the CPU time it had used (all threads) at its answer}.
   */
  private static long[] forkOnce() throws Exception {
    ProcessBuilder pb =
        new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp",
            System.getProperty("java.class.path"),
            ServerStartup.class.getName(),
            "child");
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    long t0 = System.nanoTime();
    Process p = pb.start();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (line.startsWith(ANSWER)) {
          long wallMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
          String[] f = line.substring(ANSWER.length()).split(" ");
          p.waitFor(60, TimeUnit.SECONDS);
          return new long[] {
            wallMs, Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2])
          };
        }
      }
    } finally {
      p.destroyForcibly();
      p.waitFor(60, TimeUnit.SECONDS);
    }
    throw new IllegalStateException("the child JVM printed no answer (exit " + p.exitValue() + ")");
  }

  /** {fresh start+close per test, truncate per test}, in ms, after as many warm-up rounds. */
  private static double[][] resets(int n) {
    double[] fresh = new double[n];
    double[] truncate = new double[n];
    for (int round = 0; round < 2; round++) { // round 0 warms up
      for (int i = 0; i < n; i++) {
        // what each test pays with a fresh database: start, make its table again, close
        long t0 = System.nanoTime();
        TalusTestServer t = TalusTestServer.start(TalusTestDb.create(), "app");
        t.session().execute(TABLE);
        t.close();
        fresh[i] = (System.nanoTime() - t0) / 1e6;
      }
      try (TalusTestServer t = TalusTestServer.start(TalusTestDb.create(), "app")) {
        CqlSession s = t.session();
        s.execute(TABLE);
        var insert = s.prepare("INSERT INTO orders (customer, id, item) VALUES (?, ?, ?)");
        for (int i = 0; i < n; i++) {
          for (int r = 0; r < 100; r++) { // what a test might leave behind
            s.execute(insert.bind("c" + (r % 10), r, "item"));
          }
          long t0 = System.nanoTime();
          t.truncateAll();
          truncate[i] = (System.nanoTime() - t0) / 1e6;
        }
      }
    }
    return new double[][] {fresh, truncate};
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    int m = s.length / 2;
    return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
  }
}
