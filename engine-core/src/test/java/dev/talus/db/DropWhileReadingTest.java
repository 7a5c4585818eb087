package dev.talus.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.DataType;
import dev.talus.ManualClock;
import dev.talus.TableSchema;
import dev.talus.TalusOptions;
import dev.talus.request.WriteRequest;
import dev.talus.sstable.SSTableReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A drop while a read holds an SSTable (as a scan's page does): the table is gone from the schema
 * at once, but that SSTable's files stay until the read lets go; the next open removes the
 * directory left behind.
 */
class DropWhileReadingTest {
  @TempDir Path dir;

  private static long dataFiles(Path d) throws IOException {
    if (!Files.exists(d)) {
      return 0;
    }
    try (Stream<Path> s = Files.walk(d)) {
      return s.filter(p -> p.getFileName().toString().endsWith("-Data.db")).count();
    }
  }

  @Test
  void theFilesOfAReferencedSSTableStayUntilItIsReleased() throws IOException {
    TalusOptions options =
        TalusOptions.builder(dir)
            .clock(ManualClock.startingAtDefault())
            .backgroundCompaction(false)
            .build();
    Path tableDir = dir.resolve("tables").resolve("t-1");
    try (Database db = Database.open(options)) {
      TableHandle t =
          db.createTable(
              TableSchema.builder("t")
                  .partitionKey("p", DataType.INT)
                  .column("v", DataType.INT)
                  .build(),
              false);
      for (int i = 0; i < 10; i++) {
        t.write(
            new WriteRequest(
                WriteRequest.Kind.INSERT,
                List.of(),
                Map.of("p", i, "v", i),
                List.of(),
                Duration.ZERO,
                null));
      }
      t.flush();
      SSTableReader held = t.store().tracker().current().sstables().get(0);
      assertThat(held.tryRef()).isTrue(); // what a scan's page does for its duration
      db.dropTable("t", false);
      assertThat(db.findTable("t")).isNull();
      assertThat(dataFiles(tableDir)).isEqualTo(1);
      assertThat(Files.exists(tableDir.resolve("MANIFEST.db"))).isFalse();
      held.release();
      assertThat(dataFiles(tableDir)).isZero();
    }
    assertThat(Files.exists(tableDir)).isTrue(); // emptied, left for the next open
    try (Database db = Database.open(options)) {
      assertThat(Files.exists(tableDir)).isFalse();
      assertThat(db.tables()).isEmpty();
    }
  }
}
