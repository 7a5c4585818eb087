package dev.talus.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
