package dev.talus.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** ServerStartup runs end to end on the smallest counts and reports each figure (not its size). */
class ServerStartupTest {
  @Test
  void reportsStartupAndResetFigures() throws Exception {
    PrintStream saved = System.out;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
    try {
      ServerStartup.main(new String[] {"1", "1"});
    } finally {
      System.setOut(saved);
    }
    String out = buf.toString(StandardCharsets.UTF_8);
    saved.println(out);
    assertThat(out)
        .containsPattern(
            "start 0: \\d+ ms to the first answer \\(child JVM uptime \\d+ ms, of which \\d+ ms until the database was open; child CPU time \\d+ ms\\)")
        .containsPattern("JVM start to first answered driver query: median \\d+ ms of 1")
        .containsPattern("fresh database \\+ server \\+ session: median [\\d.]+ ms of 1")
        .containsPattern("truncate the tables of one server: median [\\d.]+ ms of 1");
  }
}
