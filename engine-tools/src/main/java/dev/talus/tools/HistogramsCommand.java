package dev.talus.tools;

import dev.talus.Percentiles;
import dev.talus.Table;
import dev.talus.TableHistograms;
import dev.talus.TableStats;
import dev.talus.TalusDb;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.ToLongFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code talus histograms DIR TABLE}: percentiles like nodetool tablehistograms. */
@Command(
    name = "histograms",
    mixinStandardHelpOptions = true,
    version = TalusCli.VERSION,
    description = {
      "Print partition size and cell count percentiles, like nodetool tablehistograms.",
      "Watch the max: one huge partition hurts even when the median is small.",
      "Latency and SSTables-per-read columns count since this open."
    })
public final class HistogramsCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "The data directory.")
  Path dir;

  @Parameters(index = "1", paramLabel = "TABLE", description = "The table.")
  String table;

  @Mixin OpenOptions open;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    try (TalusDb db = DataDirs.openExisting(dir, open, spec.commandLine().getErr())) {
      Table t = DataDirs.table(db, table);
      print(out, t.name(), t.histograms(), t.stats());
    }
    out.flush();
    return ExitCodes.OK;
  }

  static void print(PrintWriter out, String name, TableHistograms h, TableStats s) {
    out.println(name + " histograms");
    List<Percentiles> cols =
        List.of(
            s.readLatencyMicros(),
            s.writeLatencyMicros(),
            s.sstablesPerRead(),
            h.partitionSizeBytes(),
            h.cellCount());
    String fmt = "%-12s%16s%16s%16s%18s%16s%n";
    out.printf(
        fmt,
        "Percentile",
        "Read Latency",
        "Write Latency",
        "SSTables",
        "Partition Size",
        "Cell Count");
    out.printf(fmt, "", "(micros)", "(micros)", "", "(bytes)", "");
    row(out, fmt, "50%", cols, Percentiles::p50);
    row(out, fmt, "75%", cols, Percentiles::p75);
    row(out, fmt, "95%", cols, Percentiles::p95);
    row(out, fmt, "98%", cols, Percentiles::p98);
    row(out, fmt, "99%", cols, Percentiles::p99);
    row(out, fmt, "Max", cols, Percentiles::max);
    out.println();
    out.println(
        "Partitions (SSTable fragments) measured: "
            + h.partitionSizeBytes().count()
            + "; reads: "
            + s.reads()
            + "; writes: "
            + s.writes());
  }

  private static void row(
      PrintWriter out,
      String fmt,
      String label,
      List<Percentiles> cols,
      ToLongFunction<Percentiles> f) {
    Object[] v = new Object[cols.size() + 1];
    v[0] = label;
    for (int i = 0; i < cols.size(); i++) {
      v[i + 1] = cols.get(i).count() == 0 ? "-" : Long.toString(f.applyAsLong(cols.get(i)));
    }
    out.printf(fmt, v);
  }
}
