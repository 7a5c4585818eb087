package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The KillrVideo-style example of docs/data-modeling.md (section 7), run as written: a static
 * column, a set of tags written element by element, a counter table, and the tombstone a
 * whole-collection write leaves. If this test changes, change the guide.
 */
class KillrVideoExampleTest {
  @TempDir Path dir;

  @Test
  void theGuidesSchemaWorksAsDescribed() {
    ManualClock clock = new ManualClock(Instant.parse("2026-09-01T09:00:00Z"));
    UUID user = UUID.fromString("00000000-0000-0000-0000-00000000000a");
    UUID video = UUID.fromString("00000000-0000-0000-0000-0000000000b1");
    Instant at = Instant.parse("2026-09-01T08:00:00Z");
    LocalDate today = LocalDate.parse("2026-09-01");
    try (TalusDb db =
        TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build())) {
      Table videos =
          db.createTable(
              TableSchema.builder("videos_by_user")
                  .partitionKey("user_id", DataType.UUID)
                  .clusteringColumn("added_at", DataType.TIMESTAMP, ClusteringOrder.DESC)
                  .clusteringColumn("video_id", DataType.UUID, ClusteringOrder.ASC)
                  .staticColumn("user_name", DataType.TEXT)
                  .column("title", DataType.TEXT)
                  .column("tags", DataType.set(DataType.TEXT))
                  .build());
      Table views =
          db.createTable(
              TableSchema.builder("video_views")
                  .partitionKey("video_id", DataType.UUID)
                  .clusteringColumn("day", DataType.DATE, ClusteringOrder.DESC)
                  .column("views", DataType.COUNTER)
                  .build());

      videos.update().where("user_id", user).set("user_name", "ada").execute();
      ResultRow only = videos.select().eq("user_id", user).one().orElseThrow();
      assertThat(only.get("user_name")).isEqualTo("ada");
      assertThat(only.get("video_id")).as("static data only: null clustering").isNull();

      videos
          .insert()
          .value("user_id", user)
          .value("added_at", at)
          .value("video_id", video)
          .value("title", "Intro to Talus")
          .value("tags", Set.of("java", "storage"))
          .execute();
      videos.select().eq("user_id", user).execute();
      assertThat(videos.lastReadTombstoneCount())
          .as("the whole-collection write left a collection tombstone")
          .isEqualTo(1);
      videos
          .update()
          .where("user_id", user)
          .where("added_at", at)
          .where("video_id", video)
          .add("tags", Set.of("cassandra"))
          .remove("tags", Set.of("storage"))
          .execute();
      for (int i = 0; i < 3; i++) {
        views.update().where("video_id", video).where("day", today).increment("views", 1).execute();
      }

      List<ResultRow> rows = videos.select().eq("user_id", user).execute().rows();
      assertThat(rows).hasSize(1);
      ResultRow r = rows.get(0);
      assertThat(r.get("user_name")).isEqualTo("ada");
      assertThat(List.<Object>copyOf((Set<?>) r.get("tags"))).containsExactly("cassandra", "java");
      assertThat(views.select().eq("video_id", video).one().orElseThrow().getLong("views"))
          .isEqualTo(3L);

      videos.delete().eq("user_id", user).eq("added_at", at).eq("video_id", video).execute();
      assertThat(videos.select().eq("user_id", user).one().orElseThrow().get("user_name"))
          .as("a row deletion leaves the static column")
          .isEqualTo("ada");
      videos.delete().eq("user_id", user).execute();
      assertThat(videos.select().eq("user_id", user).one())
          .as("a partition deletion takes it")
          .isEmpty();
    }
  }
}
