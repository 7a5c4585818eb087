package dev.talus.tools;

import dev.talus.CorruptCommitLogException;
import dev.talus.CorruptDataException;
import dev.talus.DirectoryLockedException;
import dev.talus.QuarantinedTable;
import dev.talus.Table;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Opening data directories for the inspection commands. */
final class DataDirs {
  private DataDirs() {}

  /** What a command does with the open database, printing to the command's output. */
  interface DbWork {
    void run(TalusDb db, PrintWriter out);
  }

  /**
   * Opens {@code dir} as {@link #openExisting} does, runs {@code work} with the command's output,
   * closes the database and flushes the output; the exit status is {@link ExitCodes#OK}.
   */
  static int withDb(
      Path dir, OpenOptions how, picocli.CommandLine.Model.CommandSpec spec, DbWork work) {
    PrintWriter out = spec.commandLine().getOut();
    try (TalusDb db = openExisting(dir, how, spec.commandLine().getErr())) {
      work.run(db, out);
    }
    out.flush();
    return ExitCodes.OK;
  }

  /**
   * Opens an existing data directory without creating anything if it is missing. Opening replays
   * the commit log (and flushes what it replayed), so the database must not be open elsewhere.
   * Background compaction stays off: inspecting a table should not change its SSTables.
   */
  static TalusDb openExisting(Path dir, OpenOptions how, PrintWriter err) {
    TalusDb db = open(dir, how);
    for (QuarantinedTable q : db.quarantinedTables()) {
      err.println(
          "warning: table "
              + q.name()
              + " set aside (damaged manifest, left untouched): "
              + q.reason());
    }
    for (Table t : db.tables()) {
      if (t.quarantinedSSTables() > 0) {
        err.println(
            "warning: table "
                + t.name()
                + ": "
                + t.quarantinedSSTables()
                + " damaged SSTable(s) moved to its quarantine/ directory");
      }
    }
    err.flush();
    return db;
  }

  private static TalusDb open(Path dir, OpenOptions how) {
    requireExisting(dir);
    TalusOptions.Builder b =
        TalusOptions.builder(dir).backgroundCompaction(false).clock(how.clock());
    b.diskFailurePolicy(how.diskFailurePolicy)
        .skipCorruptCommitLogRecords(how.skipCorruptCommitLog);
    try {
      return TalusDb.open(b.build());
    } catch (DirectoryLockedException e) {
      throw new CliException(ExitCodes.LOCKED, e.getMessage() + lockedHint(dir));
    } catch (CorruptCommitLogException e) {
      throw new CorruptAtOpen(
          e, "to open it anyway: --skip-corrupt-commit-log (the damaged records' writes are lost)");
    } catch (CorruptDataException e) {
      throw new CorruptAtOpen(
          e,
          "to open it anyway: --disk-failure-policy quarantine; 'talus verify "
              + dir
              + "' lists every damaged file without changing anything");
    }
  }

  /** How to inspect a directory an application holds open. */
  static String lockedHint(Path dir) {
    return ".\n  The inspection commands open the database, which takes its lock. To inspect it while"
        + " your application runs, inspect a copy:\n    cp -a "
        + dir
        + " /tmp/talus-copy && talus stats /tmp/talus-copy\n  (a copy taken during a flush or"
        + " compaction may catch it half-way and report damage; copy again if it does)";
  }

  /** Fails with a clear message unless {@code dir} is an existing Talus data directory. */
  static void requireExisting(Path dir) {
    if (!Files.exists(dir)) {
      throw new CliException(
          ExitCodes.ERROR,
          "no such directory: " + dir + " (give the data directory of a database)");
    }
    if (!Files.isDirectory(dir)) {
      throw new CliException(ExitCodes.ERROR, dir + " is not a directory");
    }
    if (!Files.exists(dir.resolve("schema.db")) && !Files.exists(dir.resolve("LOCK"))) {
      throw new CliException(
          ExitCodes.ERROR, dir + " is not a Talus data directory (it has no schema.db or LOCK)");
    }
  }

  /** The table named {@code name}, or an error listing the tables there are. */
  static Table table(TalusDb db, String name) {
    for (QuarantinedTable q : db.quarantinedTables()) {
      if (q.name().equals(name)) {
        throw new CliException(
            ExitCodes.CORRUPT,
            "table "
                + name
                + " was set aside at open (--disk-failure-policy quarantine): "
                + q.reason());
      }
    }
    return db.findTable(name)
        .orElseThrow(
            () ->
                new CliException(
                    ExitCodes.ERROR,
                    "no table named '"
                        + name
                        + "' in "
                        + db.options().dataDirectory()
                        + "; tables: "
                        + tableNames(db)));
  }

  static String tableNames(TalusDb db) {
    List<String> names = db.tables().stream().map(Table::name).sorted().toList();
    return names.isEmpty() ? "(none)" : String.join(", ", names);
  }

  /** Damage that stopped an inspection command's open, with the command-line way out. */
  static final class CorruptAtOpen extends RuntimeException {
    private static final long serialVersionUID = 1L;

    final transient CorruptDataException damage;
    final String hint;

    CorruptAtOpen(CorruptDataException damage, String hint) {
      super(damage.getMessage(), damage);
      this.damage = damage;
      this.hint = hint;
    }
  }
}
