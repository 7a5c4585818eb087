package dev.talus.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.ManualClock;
import dev.talus.Table;
import dev.talus.TalusDb;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code talus snapshot}, {@code listsnapshots}, {@code clearsnapshot} and {@code import}. */
class SnapshotCommandsTest {
  @TempDir Path dir;

  @BeforeEach
  void write() {
    Fixtures.write(dir);
  }

  private int readingsRows() {
    try (TalusDb db = Fixtures.open(dir, new ManualClock(Fixtures.T0))) {
      int n = 0;
      for (var ignored : db.table("readings").select().execute()) {
        n++;
      }
      return n;
    }
  }

  @Test
  void snapshotListTruncateImportAndClear() {
    int before = readingsRows();
    assertThat(before).isPositive();
    Cli.Result r = Cli.run("snapshot", dir.toString(), "nightly");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out()).contains("Snapshot nightly taken of 2 tables", "talus.readings: ");

    r = Cli.run("snapshot", dir.toString(), "--table", "readings", "-t", "one");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out()).contains("Snapshot one taken of 1 table");

    r = Cli.run("listsnapshots", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains("Snapshot Details:", "Snapshot name", "True size", "Size on disk")
        .contains("Total TrueDiskSpaceUsed: ");
    assertThat(r.out().lines().filter(l -> l.startsWith("nightly ")).count()).isEqualTo(2);
    assertThat(r.out().lines().filter(l -> l.startsWith("one ")).count()).isEqualTo(1);

    String snapshotDir;
    try (TalusDb db = Fixtures.open(dir, new ManualClock(Fixtures.T0))) {
      Table t = db.table("readings");
      snapshotDir =
          db.snapshots().stream()
              .filter(s -> s.name().equals("nightly") && s.table().equals("readings"))
              .findFirst()
              .orElseThrow()
              .directory()
              .toString();
      t.truncate();
    }
    assertThat(readingsRows()).isZero();
    r = Cli.run("import", dir.toString(), "readings", snapshotDir);
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out()).contains("Imported 2 SSTables into readings");
    assertThat(readingsRows()).isEqualTo(before);

    r = Cli.run("clearsnapshot", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
    assertThat(r.err()).contains("specify a snapshot name or --all");
    r = Cli.run("clearsnapshot", dir.toString(), "one");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out()).contains("Deleted 1 table snapshot");
    r = Cli.run("clearsnapshot", dir.toString(), "--all");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out()).contains("Deleted 2 table snapshots");
    r = Cli.run("listsnapshots", dir.toString());
    assertThat(r.out()).contains("There are no snapshots");
  }

  @Test
  void errorsHaveTheirExitStatuses(@TempDir Path empty) {
    Cli.Result r = Cli.run("snapshot", dir.toString(), "bad/name");
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.err()).contains("is not valid");
    assertThat(Cli.run("snapshot", dir.toString(), "a").exitCode()).isZero();
    r = Cli.run("snapshot", dir.toString(), "a");
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.err()).contains("already exists");
    r = Cli.run("snapshot", dir.toString(), "--table", "nope", "b");
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    r = Cli.run("snapshot", dir.toString(), "x", "-t", "y");
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
    r = Cli.run("import", dir.toString(), "readings", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.err()).contains("holds 2 table schemas (a data directory?)");
    r = Cli.run("import", dir.toString(), "readings", empty.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.err()).contains("no schema.db");
    r = Cli.run("clearsnapshot", dir.toString(), "zzz");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out()).contains("No snapshot named zzz");
  }

  @Test
  void copyFillsATableOfTheSameColumns() {
    int before = readingsRows();
    try (TalusDb db = Fixtures.open(dir, new ManualClock(Fixtures.T0))) {
      db.createKeyspace(dev.talus.KeyspaceSchema.builder("backup").build());
      db.createTable(db.table("readings").schema().withKeyspace("backup"));
    }
    Cli.Result r = Cli.run("copy", dir.toString(), "--from", "readings", "--to", "backup.readings");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out()).contains("Copied 2 SSTables of readings into readings");
    try (TalusDb db = Fixtures.open(dir, new ManualClock(Fixtures.T0))) {
      int n = 0;
      for (var ignored : db.table("backup.readings").select().execute()) {
        n++;
      }
      assertThat(n).isEqualTo(before);
    }
    r = Cli.run("copy", dir.toString(), "--from", "readings", "--to", "queue");
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.err()).contains("cannot be imported");
    r = Cli.run("copy", dir.toString(), "--from", "readings");
    assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
  }
}
