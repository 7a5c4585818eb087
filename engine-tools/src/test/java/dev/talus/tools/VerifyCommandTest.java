package dev.talus.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.IndexDef;
import dev.talus.ManualClock;
import dev.talus.TalusDb;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VerifyCommandTest {
  @TempDir Path dir;

  @BeforeEach
  void write() {
    Fixtures.write(dir);
  }

  @Test
  void aCleanDirectoryExitsWith0AndShowsEachFileAsItIsChecked() {
    Cli.Result r = Cli.run("verify", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains("verifying " + dir + " (nothing in it is changed)")
        .contains("  schema (")
        .containsPattern("  readings: SSTable 1 \\(.*\\) OK")
        .contains("readings: 2 SSTable(s) OK")
        .contains("queue: 0 SSTable(s) OK")
        .containsPattern("verified 2 table\\(s\\), 2 SSTable\\(s\\), \\d+ commit-log segment")
        .contains("every checksum matched");
  }

  @Test
  void everyDamagedFileIsReportedWithFileAndOffsetAndExit2() throws IOException {
    Path first = find("readings", "nb-1-Data.db");
    Path second = find("readings", "nb-2-Stats.db");
    Path manifest = find("queue", "MANIFEST.db");
    for (Path p : List.of(first, second, manifest)) {
      flip(p);
    }
    byte[] before = Files.readAllBytes(first);
    Cli.Result r = Cli.run("verify", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
    assertThat(r.out())
        .contains("readings: SSTable 1 CORRUPT")
        .contains("readings: SSTable 2 CORRUPT")
        .contains("queue: manifest CORRUPT")
        .contains("3 damaged file(s) found")
        .contains("--disk-failure-policy quarantine");
    for (Path p : List.of(first, second, manifest)) {
      assertThat(r.err()).contains("file:   " + p);
    }
    assertThat(r.err()).contains("offset: ");
    assertThat(Files.readAllBytes(first)).isEqualTo(before); // nothing quarantined or repaired
  }

  @Test
  void aDamagedIndexComponentIsARebuildableWarningAndExits0()
      throws IOException, InterruptedException {
    index();
    Path terms = find("readings", "nb-1-SaiTerms_readings_value.db");
    flip(terms);
    Cli.Result r = Cli.run("verify", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains("readings: SSTable 1 index readings_value WARNING (rebuildable)")
        .containsPattern("readings: SSTable 2 index row-key map \\(.*\\) OK")
        .contains("readings: 2 SSTable(s) OK, 1 index component(s) to rebuild: WARNING")
        .contains("every data checksum matched; 1 index component(s) damaged or missing");
    assertThat(r.err())
        .contains("warning: readings: SSTable 1 index readings_value: ")
        .contains("rebuilt from its SSTable by the next read that needs it")
        .contains("file:   " + terms);
  }

  @Test
  void dataDamageBesideIndexDamageStillExits2AndCountsOnlyTheDataFile()
      throws IOException, InterruptedException {
    index();
    flip(find("readings", "nb-1-SaiKeys.db"));
    flip(find("readings", "nb-2-Data.db"));
    Cli.Result r = Cli.run("verify", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
    assertThat(r.out())
        .contains("readings: SSTable 2 CORRUPT")
        .contains("readings: SSTable 1 index row-key map WARNING (rebuildable)")
        .contains("1 damaged file(s): CORRUPT, 1 index component(s) to rebuild: WARNING")
        .contains("1 damaged file(s) found");
  }

  /** Adds an index on readings.value, built for both SSTables. */
  private void index() throws InterruptedException {
    try (TalusDb db = Fixtures.open(dir, new ManualClock(Fixtures.T0))) {
      db.table("readings").createIndex(IndexDef.sai("readings_value", "value"));
      assertThat(db.table("readings").awaitIndexBuilt("readings_value", Duration.ofMinutes(2)))
          .isTrue();
    }
  }

  private static void flip(Path p) throws IOException {
    long offset = Files.size(p) / 2;
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, offset);
      b.put(0, (byte) (b.get(0) ^ 0xFF)).rewind();
      ch.write(b, offset);
    }
  }

  private Path find(String table, String name) throws IOException {
    try (var s = Files.walk(dir.resolve("tables"))) {
      return s.filter(p -> p.getParent().getFileName().toString().startsWith(table + "-"))
          .filter(p -> p.getFileName().toString().equals(name))
          .findFirst()
          .orElseThrow();
    }
  }
}
