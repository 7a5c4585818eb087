package dev.talus.tools;

import dev.talus.SSTableSummary;
import dev.talus.Table;
import dev.talus.TalusDb;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code talus metadata DIR TABLE}: each live SSTable's statistics, like sstablemetadata. */
@Command(
    name = "metadata",
    mixinStandardHelpOptions = true,
    version = TalusCli.VERSION,
    description = {
      "Print each live SSTable's statistics (oldest first), like sstablemetadata.",
      "Unlike sstablemetadata this takes a table, not one SSTable file; the files of each"
          + " SSTable are listed."
    })
public final class MetadataCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "The data directory.")
  Path dir;

  @Parameters(index = "1", paramLabel = "TABLE", description = "The table.")
  String table;

  @Mixin OpenOptions open;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    try (TalusDb db = DataDirs.openExisting(dir, open, spec.commandLine().getErr())) {
      Table t = DataDirs.table(db, table);
      List<SSTableSummary> sstables = t.sstables();
      out.println("Table: " + t.name() + " — " + sstables.size() + " live SSTable(s)");
      out.println("Now (judges droppable tombstones): " + open.describeNow(db.clock().instant()));
      for (SSTableSummary s : sstables) {
        out.println();
        print(out, s, files(dir, t.name(), s.generation()));
      }
    }
    out.flush();
    return ExitCodes.OK;
  }

  static void print(PrintWriter out, SSTableSummary s, List<String> files) {
    out.println("SSTable generation " + s.generation());
    line(out, "Files", files.isEmpty() ? "(not found)" : String.join(", ", files));
    line(out, "Level", s.level());
    line(out, "Size on disk", Fmt.bytes(s.sizeBytes()) + " (" + s.sizeBytes() + " bytes)");
    line(out, "Created", s.createdAt());
    line(
        out,
        "Minimum timestamp",
        s.minTimestampMicros() + " (" + Fmt.micros(s.minTimestampMicros()) + ")");
    line(
        out,
        "Maximum timestamp",
        s.maxTimestampMicros() + " (" + Fmt.micros(s.maxTimestampMicros()) + ")");
    line(out, "Minimum local deletion time", Fmt.seconds(s.minDeletionTimeSeconds()));
    line(
        out,
        "Maximum local deletion time",
        Fmt.seconds(s.maxDeletionTimeSeconds())
            + (s.maxDeletionTimeSeconds() == Long.MAX_VALUE
                ? " (holds live data that never expires: cannot be dropped whole)"
                : ""));
    line(out, "Partitions", s.partitions());
    line(out, "Rows", s.rows());
    line(out, "Cells", s.cells());
    line(out, "Tombstones (incl. expiring cells)", s.tombstones());
    line(out, "Estimated droppable tombstones", s.droppableTombstones());
    line(out, "First partition key", s.firstPartitionKey());
    line(out, "Last partition key", s.lastPartitionKey());
  }

  private static void line(PrintWriter out, String label, Object value) {
    out.println("\t" + label + ": " + value);
  }

  /** The component files of one SSTable: {@code tables/<table>-<id>/nb-<generation>-*.db}. */
  static List<String> files(Path dir, String table, long generation) throws IOException {
    List<String> out = new ArrayList<>();
    Path tables = dir.resolve("tables");
    if (!Files.isDirectory(tables)) {
      return out;
    }
    // table names cannot contain '-', so "<table>-<id>" names exactly one table's directory
    try (DirectoryStream<Path> tdirs = Files.newDirectoryStream(tables, table + "-*")) {
      for (Path tdir : tdirs) {
        try (DirectoryStream<Path> fs = Files.newDirectoryStream(tdir, "nb-" + generation + "-*")) {
          for (Path f : fs) {
            out.add(dir.relativize(f).toString());
          }
        }
      }
    }
    out.sort(null);
    return out;
  }
}
