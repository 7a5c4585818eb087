package dev.talus.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.DataType;
import dev.talus.ManualClock;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.UserType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dump} of collections, user types, statics, vectors and counters: element paths, collection
 * deletions, static rows and counter totals, as sstabledump shows them.
 */
class DumpValueKindsTest {
  @TempDir Path dir;

  @BeforeEach
  void write() {
    ManualClock clock = new ManualClock(Fixtures.T0);
    try (TalusDb db = Fixtures.open(dir, clock)) {
      UserType address =
          UserType.builder("address")
              .field("street", DataType.TEXT)
              .field("zip", DataType.INT)
              .build();
      db.createTypeIfNotExists(address);
      Table videos =
          db.createTable(
              TableSchema.builder("videos")
                  .partitionKey("video_id", DataType.INT)
                  .clusteringColumn("version", DataType.INT)
                  .column("tags", DataType.set(DataType.TEXT))
                  .column("attrs", DataType.map(DataType.TEXT, DataType.INT))
                  .column("history", DataType.list(DataType.TEXT))
                  .column("address", DataType.udt(address))
                  .column("frozen_tags", DataType.frozen(DataType.set(DataType.TEXT)))
                  .column("embedding", DataType.vector(DataType.FLOAT, 3))
                  .staticColumn("owner", DataType.TEXT)
                  .build());
      videos
          .insert()
          .value("video_id", 1)
          .value("version", 1)
          .value("tags", Set.of("cats", "funny"))
          .value("attrs", Map.of("views", 10))
          .value("history", List.of("uploaded"))
          .value("address", address.value(Map.of("street", "Main", "zip", 12345)))
          .value("frozen_tags", Set.of("a", "b"))
          .value("embedding", new float[] {0.5f, 0.25f, 1f})
          .value("owner", "ann")
          .execute();
      videos.flush();
      clock.advance(Duration.ofMinutes(1));
      videos
          .update()
          .where("video_id", 1)
          .where("version", 1)
          .remove("tags", Set.of("funny"))
          .execute();
      videos
          .update()
          .where("video_id", 1)
          .where("version", 1)
          .set("attrs", Map.of("likes", 3))
          .timestamp(clock.instant().getEpochSecond() * 1_000_000L) // 2026-09-01T00:01:00Z
          .execute();
      videos.flush();
      Table views =
          db.createTable(
              TableSchema.builder("video_views")
                  .partitionKey("video_id", DataType.INT)
                  .column("views", DataType.COUNTER)
                  .build());
      views.update().where("video_id", 1).increment("views", 41).execute();
      views.update().where("video_id", 1).increment("views", 1).execute();
      views.flush();
    }
  }

  @Test
  void elementsShowTheirPathAndEveryWholeValueWriteItsCollectionDeletion() {
    Cli.Result r = Cli.run("dump", dir.toString(), "videos", "--key", "1");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    String json = r.out();
    assertThat(json)
        .contains("\"type\": \"static_block\"")
        .contains("\"type\": \"row\"")
        .contains("\"name\": \"owner\"")
        .contains("\"value\": \"ann\"")
        // set elements: the path is the element, no value
        .contains("\"name\": \"tags\",\n")
        .containsPattern(
            "\"name\": \"tags\",\\s*\"path\": \\[\\s*\"cats\"\\s*\\],\\s*\"kind\": \"live\"")
        // the removed element, in the newer SSTable
        .containsPattern(
            "\"name\": \"tags\",\\s*\"path\": \\[\\s*\"funny\"\\s*\\],\\s*\"kind\": \"tombstone\"")
        // map entries: key as path, value as value
        .containsPattern(
            "\"name\": \"attrs\",\\s*\"path\": \\[\\s*\"likes\"\\s*\\],\\s*\"kind\": \"live\","
                + "\\s*\"value\": 3")
        // user type fields by name
        .containsPattern(
            "\"name\": \"address\",\\s*\"path\": \\[\\s*\"zip\"\\s*\\],[^}]*\"value\": 12345")
        // a list element's path is its timeuuid
        .containsPattern(
            "\"name\": \"history\",\\s*\"path\": \\[\\s*\"[0-9a-f]{8}-[0-9a-f]{4}-1[0-9a-f]{3}-")
        // the replaced map's deletion, at the overwrite's timestamp - 1
        .containsPattern(
            "\"name\": \"attrs\",\\s*\"deletion_info\": \\{\\s*\"marked_deleted\":"
                + " \"2026-09-01T00:00:59.999999Z\"")
        .containsPattern(
            "\"path\": \\[\\s*\"likes\"\\s*\\],[^}]*\"tstamp\": \"2026-09-01T00:01:00.000000Z\"")
        .containsPattern(
            "\"name\": \"frozen_tags\",\\s*\"kind\": \"live\",\\s*\"value\": \"\\[a, b\\]\"")
        // a vector<float, n> is a float[] in Java: printed as its floats
        .contains("\"value\": \"[0.5, 0.25, 1.0]\"");
    // the INSERT's own collection deletion sits right before the collection's elements
    assertThat(json)
        .containsPattern(
            "\"name\": \"tags\",\\s*\"deletion_info\": \\{[^}]*\"marked_deleted\":"
                + " \"2026-08-31T23:59:59.999999Z\"[^}]*\\}\\s*\\},\\s*\\{\\s*\"name\": \"tags\","
                + "\\s*\"path\": \\[\\s*\"cats\"");
  }

  @Test
  void aCounterShowsItsTotal() {
    Cli.Result r = Cli.run("dump", dir.toString(), "video_views", "--key", "1");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out())
        .containsPattern("\"name\": \"views\",\\s*\"kind\": \"live\",\\s*\"value\": 42");
  }
}
