package dev.talus.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.DataType;
import dev.talus.Table;
import dev.talus.TableSchema;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Measures what a test pays for its database: open a fresh {@link TalusTestDb}, create a table,
 * write one row and read it back. Prints the first (cold) time and the p50/p90/max over 100 opens
 * after 50 warm-up opens; asserts nothing about time (timings belong to JMH, see
 * docs/benchmarks.md). Run it alone to get a cold first figure:
 *
 * <pre>
 * mvn -q -B -pl engine-testkit -am verify -Dtest='dev.talus.testkit.OpenTimeTest' \
 *     -Dsurefire.failIfNoSpecifiedTests=false
 * cat engine-testkit/target/surefire-reports/dev.talus.testkit.OpenTimeTest-output.txt
 * </pre>
 *
 * Also runnable as a plain main on the test classpath.
 */
class OpenTimeTest {
  static final TableSchema SCHEMA =
      TableSchema.builder("t")
          .partitionKey("k", DataType.TEXT)
          .clusteringColumn("c", DataType.INT)
          .column("v", DataType.TEXT)
          .build();

  /** Open + create table + first write + read, in nanoseconds; and then close + delete. */
  static long[] once() {
    long t0 = System.nanoTime();
    TalusTestDb db = TalusTestDb.create();
    Table t = db.createTable(SCHEMA);
    t.insert().value("k", "a").value("c", 1).value("v", "x").execute();
    int rows = t.select().eq("k", "a").execute().size();
    long t1 = System.nanoTime();
    db.close();
    long t2 = System.nanoTime();
    if (rows != 1) {
      throw new AssertionError("read " + rows + " rows");
    }
    return new long[] {t1 - t0, t2 - t1};
  }

  static String measure(int warmup, int runs) {
    long[] cold = once();
    for (int i = 0; i < warmup; i++) {
      once();
    }
    long[] open = new long[runs];
    long[] close = new long[runs];
    for (int i = 0; i < runs; i++) {
      long[] r = once();
      open[i] = r[0];
      close[i] = r[1];
    }
    Arrays.sort(open);
    Arrays.sort(close);
    return String.format(
        "open + create table + first write + read: cold (first) %.1f ms; after %d warm-up opens,"
            + " over %d opens: p50 %.2f ms, p90 %.2f ms, max %.2f ms%n"
            + "close + delete directory: cold %.1f ms; p50 %.2f ms, p90 %.2f ms%n"
            + "java %s on %d cpus%n",
        cold[0] / 1e6,
        warmup,
        runs,
        open[runs / 2] / 1e6,
        open[runs * 9 / 10] / 1e6,
        open[runs - 1] / 1e6,
        cold[1] / 1e6,
        close[runs / 2] / 1e6,
        close[runs * 9 / 10] / 1e6,
        System.getProperty("java.version"),
        Runtime.getRuntime().availableProcessors());
  }

  @Test
  void measureOpenTimes() {
    String report = measure(50, 100);
    System.out.print(report);
    assertThat(report).contains("p50");
  }

  public static void main(String[] args) {
    System.out.print(measure(50, 100));
  }
}
