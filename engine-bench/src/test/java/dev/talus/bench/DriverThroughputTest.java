package dev.talus.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DriverThroughput's target list, its embedded paths on one table, and an end-to-end run of the
 * three Talus paths on the smallest counts (each phase reported; the figures themselves are not
 * asserted).
 */
class DriverThroughputTest {
  @Test
  void targetListsExpandInTheOrderGivenWithoutRepeats() {
    assertThat(DriverThroughput.targets("all"))
        .containsExactly("builder", "cql", "talus", "cassandra");
    assertThat(DriverThroughput.targets("talus,embedded"))
        .containsExactly("talus", "builder", "cql");
    assertThat(DriverThroughput.targets("cql,all"))
        .containsExactly("cql", "builder", "talus", "cassandra");
    assertThat(DriverThroughput.targets("both")).containsExactly("talus", "cassandra");
    assertThat(DriverThroughput.targets("cql")).containsExactly("cql");
    assertThatThrownBy(() -> DriverThroughput.targets("talus,rocks"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown target 'rocks'");
  }

  @Test
  void builderAndCqlPathsReadAndWriteTheSameTable(@TempDir Path dir) {
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).build());
        KvTarget builder = KvTarget.builder(db);
        KvTarget cql = KvTarget.cql(db)) {
      builder.load(10, "x");
      assertThat(cql.read(9)).isTrue();
      assertThat(cql.read(10)).isFalse();
      cql.insert(10, "y");
      assertThat(builder.read(10)).isTrue();
      assertThat(db.table("bench", "kv").select().eq("k", 10L).one().orElseThrow().getString("v"))
          .isEqualTo("y");
    }
  }

  @Test
  void reportsBothPhasesOfEachTalusPathAndDeletesItsDatabases() throws Exception {
    Set<Path> before = workDirs();
    PrintStream saved = System.out;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
    try {
      DriverThroughput.main(new String[] {"embedded,talus", "1", "1", "100"});
    } finally {
      System.setOut(saved);
    }
    String out = buf.toString(StandardCharsets.UTF_8);
    saved.println(out);
    for (String path : new String[] {"builder API", "embedded CQL", "Talus server"}) {
      for (String phase : new String[] {"insert", "read"}) {
        assertThat(out).containsPattern(path + " +" + phase + " +\\d+ +[\\d.]+ +[\\d.]+");
      }
    }
    assertThat(out).doesNotContain("Cassandra");
    assertThat(workDirs()).isEqualTo(before);
  }

  /** DriverThroughput's work directories under target/ (where it runs). */
  private static Set<Path> workDirs() throws IOException {
    try (Stream<Path> s = Files.list(Path.of("target"))) {
      return s.filter(p -> p.getFileName().toString().startsWith("driver-bench"))
          .collect(Collectors.toSet());
    }
  }
}
