package dev.talus.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.DataType;
import dev.talus.ManualClock;
import dev.talus.TableSchema;
import dev.talus.TalusOptions;
import dev.talus.request.AlterRequest;
import dev.talus.request.WriteRequest;
import dev.talus.sstable.SSTableReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table's chunk length decides the chunk size of the SSTables its flushes and compactions write;
 * an altered length applies to SSTables written from then on, and the rows read the same.
 */
class ChunkLengthTest {
  @TempDir Path dir;

  private static TableSchema.Builder schema(String name) {
    return TableSchema.builder(name)
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT)
        .column("v", DataType.TEXT);
  }

  private static void write(TableHandle t, int from, int to) {
    for (int i = from; i < to; i++) {
      t.write(
          new WriteRequest(
              WriteRequest.Kind.INSERT,
              List.of(),
              Map.of("p", i % 7, "c", i, "v", "value " + i + " ".repeat(i % 50)),
              List.of(),
              Duration.ZERO,
              null));
    }
  }

  private static List<Integer> chunkSizes(TableHandle t) {
    return t.store().tracker().current().sstables().stream()
        .map(SSTableReader::stats)
        .map(s -> s.chunkSize())
        .sorted()
        .toList();
  }

  private static long rows(TableHandle t) {
    return t.store().tracker().current().sstables().stream()
        .mapToLong(r -> r.stats().rowCount())
        .sum();
  }

  @Test
  void flushesAndCompactionsWriteTheTablesChunkLength() {
    TalusOptions options =
        TalusOptions.builder(dir)
            .clock(ManualClock.startingAtDefault())
            .backgroundCompaction(false)
            .build();
    try (Database db = Database.open(options)) {
      TableHandle byDefault = db.createTable(schema("d").build(), false);
      TableHandle wide = db.createTable(schema("w").chunkLengthKb(64).build(), false);
      write(byDefault, 0, 2_000);
      byDefault.flush();
      write(wide, 0, 2_000);
      wide.flush();
      assertThat(chunkSizes(byDefault)).containsExactly(TableSchema.DEFAULT_CHUNK_LENGTH_KB * 1024);
      assertThat(chunkSizes(wide)).containsExactly(64 * 1024);

      wide.alter(new AlterRequest(List.of(new AlterRequest.Options(b -> b.chunkLengthKb(1)))));
      write(wide, 2_000, 4_000);
      wide.flush();
      assertThat(chunkSizes(wide)).containsExactly(1024, 64 * 1024);
      wide.compact();
      assertThat(chunkSizes(wide)).containsOnly(1024);
      assertThat(rows(wide)).isEqualTo(4_000);
    }
  }
}
