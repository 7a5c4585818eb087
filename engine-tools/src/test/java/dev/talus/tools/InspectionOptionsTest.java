package dev.talus.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.DataType;
import dev.talus.ManualClock;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The options the inspection commands share: the disk failure policy and damaged commit-log records
 * at open, and which "now" judges TTL and gc_grace; and what they say when the directory is held.
 */
class InspectionOptionsTest {
  @TempDir Path dir;

  private Path component(String table, String suffix) throws IOException {
    try (Stream<Path> s = Files.walk(dir.resolve("tables"))) {
      return s.filter(p -> p.getParent().getFileName().toString().startsWith(table + "-"))
          .filter(p -> p.getFileName().toString().endsWith(suffix))
          .sorted()
          .findFirst()
          .orElseThrow();
    }
  }

  /**
   * Flips a bit in each of 16 bytes from the middle of {@code f}: more than the up to 7 bytes of
   * zero padding between two commit-log frames, so some byte of a frame is always damaged.
   */
  private static void flip(Path f) throws IOException {
    try (RandomAccessFile r = new RandomAccessFile(f.toFile(), "rw")) {
      long from = r.length() / 2;
      for (long at = from; at < from + 16 && at < r.length(); at++) {
        r.seek(at);
        int b = r.read();
        r.seek(at);
        r.write(b ^ 0x01);
      }
    }
  }

  private static String line(Cli.Result r, String label) {
    return r.out().lines().filter(l -> l.contains(label)).findFirst().orElseThrow();
  }

  @Test
  void aDamagedSSTableRefusesTheOpenWithTheFlagThatOpensItAnyway() throws IOException {
    Fixtures.write(dir);
    Path stats = component("readings", "-Stats.db");
    flip(stats);
    Cli.Result refused = Cli.run("stats", dir.toString());
    assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(2);
    assertThat(refused.err())
        .contains("cannot open table readings")
        .contains("file:   " + stats)
        .contains("--disk-failure-policy quarantine")
        .contains("talus verify " + dir);

    Cli.Result opened = Cli.run("stats", dir.toString(), "--disk-failure-policy", "quarantine");
    assertThat(opened.exitCode()).as(opened.toString()).isZero();
    assertThat(opened.err()).contains("warning: table readings: 1 damaged SSTable(s) moved");
    assertThat(opened.out()).contains("Table: queue").contains("\tQuarantined SSTables: 1");
  }

  @Test
  void aDamagedManifestSetsTheTableAsideAndTheOthersAreInspected() throws IOException {
    Fixtures.write(dir);
    flip(component("readings", "MANIFEST.db"));
    Cli.Result r = Cli.run("stats", dir.toString(), "--disk-failure-policy", "QUARANTINE");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out()).contains("Tables set aside (damaged manifest): [readings]");
    assertThat(r.out()).contains("Table: queue").doesNotContain("Table: readings");
    Cli.Result one =
        Cli.run("metadata", dir.toString(), "readings", "--disk-failure-policy", "quarantine");
    assertThat(one.exitCode()).isEqualTo(2);
    assertThat(one.err()).contains("table readings was set aside");
  }

  @Test
  void aDamagedCommitLogRefusesTheOpenUntilTheSkipFlag() throws IOException {
    Path d = dir.resolve("log");
    TalusDb db =
        TalusDb.open(
            dev.talus.TalusOptions.builder(d).commitLogSync(dev.talus.CommitLogSync.BATCH).build());
    Table t =
        db.createTable(
            TableSchema.builder("t")
                .partitionKey("k", DataType.INT)
                .column("v", DataType.TEXT)
                .build());
    for (int i = 0; i < 200; i++) {
      t.insert().value("k", i).value("v", "logged " + i).execute();
    }
    dev.talus.db.StorageHook.crash(TalusDb.class, db); // the rows are in the commit log only
    Path segment;
    try (Stream<Path> s = Files.list(d.resolve("commitlog"))) {
      segment = s.max((x, y) -> Long.compare(x.toFile().length(), y.toFile().length())).get();
    }
    flip(segment);
    Cli.Result refused = Cli.run("stats", d.toString());
    assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(2);
    assertThat(refused.err()).contains("--skip-corrupt-commit-log");
    assertThat(refused.err().split("skipCorruptCommitLogRecords", -1)).hasSize(2); // said once
    Cli.Result skipped = Cli.run("stats", d.toString(), "--skip-corrupt-commit-log");
    assertThat(skipped.exitCode()).as(skipped.toString()).isZero();
    assertThat(skipped.out()).contains("Table: t");
  }

  @Test
  void nowJudgesGcGraceAndStatsSaysWhichNowWasUsed() {
    Fixtures.write(dir); // tombstones written at 2026-09-01T00:01Z, gc_grace 10 days
    Cli.Result early =
        Cli.run("stats", dir.toString(), "readings", "--now", "2026-09-02T00:00:00Z");
    assertThat(early.exitCode()).as(early.toString()).isZero();
    assertThat(early.out()).contains("Now (judges TTL and gc_grace): 2026-09-02T00:00:00Z (--now)");
    assertThat(line(early, "Estimated droppable tombstones")).endsWith(": 0");

    Cli.Result late = Cli.run("stats", dir.toString(), "readings", "--now", "2026-09-12");
    assertThat(line(late, "Estimated droppable tombstones")).doesNotEndWith(": 0");

    Cli.Result wall = Cli.run("stats", dir.toString(), "readings");
    assertThat(wall.out()).contains("(wall clock; --now INSTANT judges");

    assertThat(Cli.run("stats", dir.toString(), "--now", "tomorrow").exitCode()).isEqualTo(64);
  }

  @Test
  void dataWrittenAfterNowIsPointedOut() {
    ManualClock future = new ManualClock(Instant.parse("2099-01-01T00:00:00Z"));
    try (TalusDb db = Fixtures.open(dir, future)) {
      Table t =
          db.createTable(
              TableSchema.builder("t")
                  .partitionKey("k", DataType.INT)
                  .column("v", DataType.INT)
                  .build());
      t.insert().value("k", 1).value("v", 1).execute();
      t.flush();
    }
    Cli.Result r = Cli.run("stats", dir.toString());
    assertThat(r.exitCode()).isZero();
    assertThat(r.err())
        .contains("warning: table t holds writes up to 2099-01-01T00:00:00")
        .contains("written under another clock")
        .contains("--now 2099-01-01T00:00:01Z");
    assertThat(Cli.run("stats", dir.toString(), "--now", "2099-01-02").err()).isEmpty();
  }

  @Test
  @SuppressWarnings("try") // the database is held open, not used
  void aLockedDirectorySaysACopyCanBeInspected() {
    Fixtures.write(dir);
    try (TalusDb db = Fixtures.open(dir, ManualClock.startingAtDefault())) {
      for (String cmd : new String[] {"stats", "verify"}) {
        Cli.Result r = Cli.run(cmd, dir.toString());
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.err()).contains("is already open").contains("cp -a " + dir);
      }
    }
  }

  @Test
  void controlCharactersInMessagesAreEscaped() {
    assertThat(Fmt.printable("bad \u001b[31mred\u0007 \uFFFD ok\nnext"))
        .isEqualTo("bad \\u001b[31mred\\u0007 \\ufffd ok\nnext");
  }
}
