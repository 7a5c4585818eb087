package dev.talus.tools;

import dev.talus.DirectoryLockedException;
import dev.talus.TalusDb;
import dev.talus.VerifyReport;
import dev.talus.VerifyReport.Checked;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code talus verify DIR}: checks every file of a closed data directory and reports every damage,
 * changing nothing ({@link TalusDb#verify(Path, java.util.function.Consumer)}).
 */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    version = TalusCli.VERSION,
    description = {
      "Check every checksum of a data directory — the schema, each table's manifest, every"
          + " component and chunk of every live SSTable, every commit-log record — and report"
          + " every damage found, table by table, without stopping at the first.",
      "Changes nothing: no commit-log replay, no quarantine, no cleanup. Prints each file as it"
          + " is checked.",
      "A damaged or missing storage-attached index component is a warning, not corruption: it"
          + " is derived from its SSTable and rebuilt by the next read that needs it.",
      "Exit status 0 if every stored data checksum matched (index warnings, if any, printed),"
          + " 2 if any data is damaged (each file and offset printed), 1 for other errors, 3 if"
          + " the directory is open."
    })
public final class VerifyCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "The data directory.")
  Path dir;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    DataDirs.requireExisting(dir);
    out.println("verifying " + dir + " (nothing in it is changed)");
    out.flush();
    long start = System.nanoTime();
    VerifyReport report;
    try {
      report = TalusDb.verify(dir, c -> progress(c, out, err));
    } catch (DirectoryLockedException e) {
      throw new CliException(ExitCodes.LOCKED, e.getMessage() + DataDirs.lockedHint(dir));
    }
    double secs = (System.nanoTime() - start) / 1e9;
    summary(report, out, secs);
    out.flush();
    err.flush();
    return report.dataIntact() ? ExitCodes.OK : ExitCodes.CORRUPT;
  }

  private static void progress(Checked c, PrintWriter out, PrintWriter err) {
    String where = c.table() == null ? "" : c.table() + ": ";
    if (c.intact()) {
      out.println("  " + where + c.what() + " (" + Fmt.bytes(c.bytes()) + ") OK");
    } else if (c.rebuildable()) {
      out.println("  " + where + c.what() + " WARNING (rebuildable)");
      err.println(
          "warning: "
              + where
              + c.what()
              + ": "
              + Fmt.printable(c.damage())
              + "; rebuilt from its SSTable by the next read that needs it");
      err.println("  file:   " + c.file());
      err.flush();
    } else {
      out.println("  " + where + c.what() + " CORRUPT");
      err.println("corrupt: " + where + c.what() + ": " + Fmt.printable(c.damage()));
      err.println("  file:   " + c.file());
      err.println("  offset: " + c.offset());
      err.flush();
    }
    out.flush();
  }

  private static void summary(VerifyReport report, PrintWriter out, double secs) {
    Map<String, int[]> tables = new LinkedHashMap<>(); // table -> {intact SSTables, damaged}
    long bytes = 0;
    for (Checked c : report.checked()) {
      bytes += c.bytes();
      if (c.table() != null) {
        int[] n = tables.computeIfAbsent(c.table(), t -> new int[3]);
        if (!c.intact() && c.rebuildable()) {
          n[2]++;
        } else if (!c.intact()) {
          n[1]++;
        } else if (!c.rebuildable() && c.what().startsWith("SSTable ")) {
          n[0]++;
        }
      }
    }
    out.println();
    for (Map.Entry<String, int[]> e : tables.entrySet()) {
      int[] n = e.getValue();
      out.println(
          e.getKey()
              + ": "
              + n[0]
              + " SSTable(s) OK"
              + (n[1] == 0 ? "" : ", " + n[1] + " damaged file(s): CORRUPT")
              + (n[2] == 0 ? "" : ", " + n[2] + " index component(s) to rebuild: WARNING"));
    }
    long segments =
        report.checked().stream().filter(c -> c.what().startsWith("commit-log")).count();
    String checked =
        String.format(
            java.util.Locale.ROOT,
            "%d table(s), %d SSTable(s), %d commit-log segment(s), %s in %.1f s",
            tables.size(),
            report.checked().stream()
                .filter(c -> !c.rebuildable() && c.what().startsWith("SSTable "))
                .count(),
            segments,
            Fmt.bytes(bytes),
            secs);
    if (report.clean()) {
      out.println("verified " + checked + ": every checksum matched");
      return;
    }
    if (report.dataIntact()) {
      out.println(
          "verified "
              + checked
              + ": every data checksum matched; "
              + report.warnings().size()
              + " index component(s) damaged or missing, rebuilt from their SSTables by the next"
              + " read that needs them");
      return;
    }
    out.println(
        (report.damaged().size() - report.warnings().size())
            + " damaged file(s) found; checked "
            + checked);
    out.println(
        "What to do: restore the damaged tables from a backup; or open with"
            + " --disk-failure-policy quarantine (an inspection command here, or"
            + " diskFailurePolicy(DiskFailurePolicy.QUARANTINE) in the application) to set the"
            + " damaged SSTables and tables aside and serve the rest; for commit-log damage,"
            + " --skip-corrupt-commit-log (skipCorruptCommitLogRecords(true)) opens without the"
            + " damaged records.");
  }
}
