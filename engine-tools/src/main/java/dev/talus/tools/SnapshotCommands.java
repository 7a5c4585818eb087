package dev.talus.tools;

import dev.talus.SnapshotDetails;
import dev.talus.Table;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The snapshot commands, after nodetool's: {@code snapshot}, {@code listsnapshots}, {@code
 * clearsnapshot} and {@code import}; and {@code copy}, built on the same SSTable copy. Each opens
 * the data directory (taking its lock), does its one thing through the public API and closes it.
 */
final class SnapshotCommands {
  private SnapshotCommands() {}

  /** The snapshot name given as NAME or as nodetool's {@code -t}; null if neither. */
  private static String name(String positional, String tag) {
    if (positional != null && tag != null && !positional.equals(tag)) {
      throw new CliException(
          ExitCodes.USAGE, "give the snapshot name once: NAME or -t NAME, not both");
    }
    return positional != null ? positional : tag;
  }

  /** {@code talus snapshot DIR [NAME] [--table T]}: like {@code nodetool snapshot}. */
  @Command(
      name = "snapshot",
      mixinStandardHelpOptions = true,
      version = TalusCli.VERSION,
      description = {
        "Take a snapshot, like nodetool snapshot: flush each table, then hard-link its live"
            + " SSTables and its schema into <table directory>/snapshots/NAME/.",
        "The links cost no space until a compaction, truncate or drop deletes the live files."
            + " Restore one with 'talus import'."
      })
  static final class Take implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "The data directory.")
    Path dir;

    @Parameters(
        index = "1",
        arity = "0..1",
        paramLabel = "NAME",
        description =
            "The snapshot name: letters, digits, '_', '-', '.' (default: the time in epoch"
                + " milliseconds, as nodetool).")
    String name;

    @Option(
        names = {"-t", "--tag"},
        paramLabel = "NAME",
        description = "The snapshot name, as nodetool spells it (instead of NAME).")
    String tag;

    @Option(
        names = {"--table", "-cf", "--column-family"},
        paramLabel = "TABLE",
        description = "Only this table (keyspace.table, or a table of the default keyspace).")
    String table;

    @Mixin OpenOptions open;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      String n = name(name, tag);
      return DataDirs.withDb(
          dir,
          open,
          spec,
          (db, out) -> {
            String snapshot = n != null ? n : Long.toString(db.clock().millis());
            List<SnapshotDetails> taken =
                table == null
                    ? db.snapshot(snapshot)
                    : List.of(DataDirs.table(db, table).snapshot(snapshot));
            out.println(
                "Snapshot "
                    + snapshot
                    + " taken of "
                    + taken.size()
                    + (taken.size() == 1 ? " table" : " tables"));
            for (SnapshotDetails d : taken) {
              out.println("  " + d.keyspace() + "." + d.table() + ": " + d.directory());
            }
          });
    }
  }

  /** {@code talus listsnapshots DIR}: like {@code nodetool listsnapshots}. */
  @Command(
      name = "listsnapshots",
      mixinStandardHelpOptions = true,
      version = TalusCli.VERSION,
      description = {
        "List every snapshot, like nodetool listsnapshots, those of dropped and truncated tables"
            + " included.",
        "True size: the bytes not shared with live SSTables (what clearing the snapshot frees)."
      })
  static final class ListAll implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "The data directory.")
    Path dir;

    @Mixin OpenOptions open;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      return DataDirs.withDb(
          dir,
          open,
          spec,
          (db, out) -> {
            List<SnapshotDetails> all = db.snapshots();
            if (all.isEmpty()) {
              out.println("There are no snapshots");
              return;
            }
            List<String[]> rows = new ArrayList<>();
            rows.add(
                new String[] {
                  "Snapshot name",
                  "Keyspace name",
                  "Table name",
                  "True size",
                  "Size on disk",
                  "Creation time"
                });
            long trueTotal = 0;
            for (SnapshotDetails d : all) {
              rows.add(
                  new String[] {
                    d.name(),
                    d.keyspace(),
                    d.table(),
                    Fmt.bytes(d.trueSizeBytes()),
                    Fmt.bytes(d.sizeOnDiskBytes()),
                    d.createdAt() == null ? "unknown" : d.createdAt().toString()
                  });
              trueTotal += d.trueSizeBytes();
            }
            out.println("Snapshot Details: ");
            printColumns(out, rows);
            out.println();
            out.println("Total TrueDiskSpaceUsed: " + Fmt.bytes(trueTotal));
          });
    }

    private static void printColumns(PrintWriter out, List<String[]> rows) {
      int[] width = new int[rows.get(0).length];
      for (String[] r : rows) {
        for (int i = 0; i < r.length; i++) {
          width[i] = Math.max(width[i], r[i].length());
        }
      }
      for (String[] r : rows) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < r.length; i++) {
          b.append(i == r.length - 1 ? r[i] : String.format("%-" + (width[i] + 1) + "s", r[i]));
        }
        out.println(b);
      }
    }
  }

  /** {@code talus clearsnapshot DIR (NAME | --all)}: like {@code nodetool clearsnapshot}. */
  @Command(
      name = "clearsnapshot",
      mixinStandardHelpOptions = true,
      version = TalusCli.VERSION,
      description = {
        "Delete a snapshot of every table, or every snapshot with --all, like nodetool"
            + " clearsnapshot. A dropped or truncated table's directory goes with its last"
            + " snapshot."
      })
  static final class Clear implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "The data directory.")
    Path dir;

    @Parameters(
        index = "1",
        arity = "0..1",
        paramLabel = "NAME",
        description = "The snapshot to delete.")
    String name;

    @Option(
        names = {"-t", "--tag"},
        paramLabel = "NAME",
        description = "The snapshot to delete, as nodetool spells it (instead of NAME).")
    String tag;

    @Option(names = "--all", description = "Delete every snapshot.")
    boolean all;

    @Mixin OpenOptions open;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      String n = name(name, tag);
      if ((n == null) == !all) {
        throw new CliException(
            ExitCodes.USAGE,
            n == null
                ? "specify a snapshot name or --all (to delete every snapshot)"
                : "give a snapshot name or --all, not both");
      }
      return DataDirs.withDb(
          dir,
          open,
          spec,
          (db, out) -> {
            int cleared = all ? db.clearSnapshots() : db.clearSnapshot(n);
            out.println(
                cleared == 0
                    ? (all ? "There are no snapshots" : "No snapshot named " + n)
                    : "Deleted " + cleared + " table snapshot" + (cleared == 1 ? "" : "s"));
          });
    }
  }

  /** {@code talus import DIR TABLE SNAPSHOT_DIR}: like {@code nodetool import}. */
  @Command(
      name = "import",
      mixinStandardHelpOptions = true,
      version = TalusCli.VERSION,
      description = {
        "Restore a snapshot into a table, like nodetool import: check the snapshot's schema"
            + " against the table's, checksum its SSTables and copy them in, all live at once.",
        "After a drop, create the table again with the same schema first. The snapshot is left"
            + " as it was."
      })
  static final class Import implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "The data directory.")
    Path dir;

    @Parameters(
        index = "1",
        paramLabel = "TABLE",
        description = "The table (keyspace.table, or a table of the default keyspace).")
    String table;

    @Parameters(
        index = "2",
        paramLabel = "SNAPSHOT_DIR",
        description = "A snapshot directory (see 'talus listsnapshots').")
    Path source;

    @Mixin OpenOptions open;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      return DataDirs.withDb(
          dir,
          open,
          spec,
          (db, out) -> {
            Table t = DataDirs.table(db, table);
            int n = t.importSSTables(source);
            out.println("Imported " + n + " SSTable" + (n == 1 ? "" : "s") + " into " + t.name());
          });
    }
  }

  /**
   * {@code talus copy DIR --from T1 --to T2}: copies a table's data into a table of its columns.
   */
  @Command(
      name = "copy",
      mixinStandardHelpOptions = true,
      version = TalusCli.VERSION,
      description = {
        "Copy all the data of one table into another that stores the same columns (the same"
            + " schema under another name or keyspace): every cell with its write time and TTL,"
            + " tombstones included, SSTable by SSTable, all live at once.",
        "The target keeps its own data (merged by write time). A table with another primary key"
            + " cannot be filled this way."
      })
  static final class Copy implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "The data directory.")
    Path dir;

    @Option(
        names = "--from",
        required = true,
        paramLabel = "TABLE",
        description = "The source table (keyspace.table, or a table of the default keyspace).")
    String from;

    @Option(
        names = "--to",
        required = true,
        paramLabel = "TABLE",
        description = "The target table, created beforehand with the same columns.")
    String to;

    @Mixin OpenOptions open;

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      return DataDirs.withDb(
          dir,
          open,
          spec,
          (db, out) -> {
            Table source = DataDirs.table(db, from);
            Table target = DataDirs.table(db, to);
            int n =
                db.copyTable(
                    source.keyspace() + "." + source.name(),
                    target.keyspace() + "." + target.name());
            out.println(
                "Copied "
                    + n
                    + " SSTable"
                    + (n == 1 ? "" : "s")
                    + " of "
                    + source.name()
                    + " into "
                    + target.name());
          });
    }
  }
}
