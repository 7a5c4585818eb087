package dev.talus.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
  void aCleanDirectoryExitsWith0() {
    Cli.Result r = Cli.run("verify", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains("commit log replayed: OK")
        .contains("readings: 2 SSTable(s) OK")
        .contains("queue: 0 SSTable(s) OK")
        .contains("verified 2 SSTable(s): every checksum matched");
  }

  @Test
  void aFlippedByteExitsWith2NamingFileAndOffset() throws IOException {
    Path data = findData();
    long offset = Files.size(data) / 2;
    try (FileChannel ch =
        FileChannel.open(data, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, offset);
      b.put(0, (byte) (b.get(0) ^ 0xFF)).rewind();
      ch.write(b, offset);
    }
    Cli.Result r = Cli.run("verify", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
    assertThat(r.out()).contains("readings: CORRUPT").contains("1 table(s) with corrupt SSTables");
    assertThat(r.err()).contains("corrupt: ").contains("file:   " + data).contains("offset: ");
  }

  private Path findData() throws IOException {
    try (var s = Files.walk(dir.resolve("tables"))) {
      return s.filter(p -> p.getFileName().toString().matches("nb-1-Data\\.db"))
          .findFirst()
          .orElseThrow();
    }
  }
}
