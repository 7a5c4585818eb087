package dev.talus.guardrails;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.ClusteringOrder;
import dev.talus.CompactionOptions;
import dev.talus.DataType;
import dev.talus.SchemaLint;
import dev.talus.TableSchema;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

/** Each lint rule fires on a bad design, and the seeds' good tables get no warning. */
class SchemaLintTest {
  @Test
  void unboundedTimeSeriesPartition() {
    // the seeds' "before bucketing" chat table: PRIMARY KEY ((room_id), sent_at, message_id)
    TableSchema s =
        TableSchema.builder("messages")
            .partitionKey("room_id", DataType.UUID)
            .clusteringColumn("sent_at", DataType.TIMESTAMP)
            .clusteringColumn("message_id", DataType.TIMEUUID)
            .column("body", DataType.TEXT)
            .build();
    assertThat(s.lint())
        .singleElement()
        .asString()
        .contains("unbounded partition")
        .contains("sent_at")
        .contains("Add a time bucket");
    for (DataType t : new DataType[] {DataType.TIMEUUID, DataType.DATE}) {
      assertThat(
              TableSchema.builder("t")
                  .partitionKey("sensor", DataType.UUID)
                  .clusteringColumn("at", t)
                  .build()
                  .lint())
          .hasSize(1);
    }
  }

  @Test
  void lowCardinalityPartitionKey() {
    assertThat(lint("flag", DataType.BOOLEAN)).singleElement().asString().contains("2 partitions");
    assertThat(lint("shard", DataType.TINYINT)).singleElement().asString().contains("256");
    assertThat(lint("country", DataType.TEXT)).singleElement().asString().contains("country");
    assertThat(lint("Status_code", DataType.TEXT)).hasSize(1);
    // honest heuristics: other names and types are not guessed at
    assertThat(lint("country_name_en", DataType.TEXT)).isEmpty();
    assertThat(lint("status", DataType.INT)).isEmpty();
    // a composite key is not flagged
    assertThat(
            TableSchema.builder("t")
                .partitionKey("flag", DataType.BOOLEAN)
                .partitionKey("user_id", DataType.UUID)
                .build()
                .lint())
        .isEmpty();
  }

  private static java.util.List<String> lint(String column, DataType type) {
    return SchemaLint.check(
        TableSchema.builder("t")
            .partitionKey(column, type)
            .clusteringColumn("id", DataType.UUID)
            .build());
  }

  @Test
  void timeWindowCompactionWithoutTtl() {
    // seed 002's chat.messages_by_conversation: bucketed by month, TWCS, but no TTL
    TableSchema.Builder b =
        TableSchema.builder("messages_by_conversation")
            .partitionKey("conversation_id", DataType.UUID)
            .partitionKey("month", DataType.TEXT)
            .clusteringColumn("message_id", DataType.TIMEUUID, ClusteringOrder.DESC)
            .column("sender_id", DataType.UUID)
            .column("body", DataType.TEXT)
            .compaction(
                CompactionOptions.timeWindow().windowUnit(ChronoUnit.DAYS).windowSize(1).build());
    assertThat(b.build().lint()).singleElement().asString().contains("without a default TTL");
    assertThat(b.defaultTimeToLive(Duration.ofDays(90)).build().lint()).isEmpty();
  }

  @Test
  void theSeedsGoodTablesHaveNoWarnings() {
    java.util.List<TableSchema> good =
        java.util.List.of(
            TableSchema.builder("readings_by_sensor_day")
                .partitionKey("sensor_id", DataType.UUID)
                .partitionKey("day", DataType.DATE)
                .clusteringColumn("ts", DataType.TIMESTAMP, ClusteringOrder.DESC)
                .column("value", DataType.DOUBLE)
                .build(),
            TableSchema.builder("messages_by_room")
                .partitionKey("room_id", DataType.UUID)
                .partitionKey("bucket", DataType.TEXT)
                .clusteringColumn("sent_at", DataType.TIMESTAMP, ClusteringOrder.DESC)
                .clusteringColumn("message_id", DataType.TIMEUUID, ClusteringOrder.DESC)
                .column("sender", DataType.TEXT)
                .column("body", DataType.TEXT)
                .build(),
            TableSchema.builder("messages_by_sender")
                .partitionKey("sender", DataType.TEXT)
                .partitionKey("bucket", DataType.TEXT)
                .clusteringColumn("sent_at", DataType.TIMESTAMP, ClusteringOrder.DESC)
                .clusteringColumn("message_id", DataType.TIMEUUID, ClusteringOrder.DESC)
                .column("room_id", DataType.UUID)
                .column("body", DataType.TEXT)
                .build(),
            TableSchema.builder("messages_by_id")
                .partitionKey("message_id", DataType.TIMEUUID)
                .column("room_id", DataType.UUID)
                .column("sender", DataType.TEXT)
                .column("sent_at", DataType.TIMESTAMP)
                .column("body", DataType.TEXT)
                .build(),
            TableSchema.builder("rooms_by_user")
                .partitionKey("user_id", DataType.UUID)
                .clusteringColumn("room_id", DataType.UUID)
                .column("joined_at", DataType.TIMESTAMP)
                .column("room_name", DataType.TEXT)
                .build(),
            TableSchema.builder("messages_by_sender_month")
                .partitionKey("sender_id", DataType.UUID)
                .partitionKey("month", DataType.TEXT)
                .clusteringColumn("message_id", DataType.TIMEUUID, ClusteringOrder.DESC)
                .column("conversation_id", DataType.UUID)
                .column("body", DataType.TEXT)
                .build());
    for (TableSchema s : good) {
      assertThat(s.lint()).as(s.name()).isEmpty();
    }
  }

  @Test
  void aNonFrozenListGetsTheSetHintAndOtherCollectionsDoNot() {
    TableSchema s =
        TableSchema.builder("videos")
            .partitionKey("video_id", DataType.UUID)
            .clusteringColumn("version", DataType.INT)
            .column("history", DataType.list(DataType.TEXT))
            .staticColumn("owners", DataType.list(DataType.TEXT))
            .column("tags", DataType.set(DataType.TEXT))
            .column("attrs", DataType.map(DataType.TEXT, DataType.TEXT))
            .column("frozen_history", DataType.frozen(DataType.list(DataType.TEXT)))
            .column("embedding", DataType.vector(DataType.FLOAT, 3))
            .build();
    assertThat(s.lint())
        .singleElement()
        .asString()
        .startsWith("table videos: hint: list columns history, owners:")
        .contains("reads the list before writing")
        .contains("use a set")
        .contains("clustering columns");
    TableSchema good =
        TableSchema.builder("videos")
            .partitionKey("video_id", DataType.UUID)
            .column("tags", DataType.set(DataType.TEXT))
            .column("frozen_history", DataType.frozen(DataType.list(DataType.TEXT)))
            .build();
    assertThat(good.lint()).isEmpty();
  }

  @Test
  void countersClusteredByTimeAreAnEventTable() {
    for (DataType time : new DataType[] {DataType.TIMESTAMP, DataType.TIMEUUID, DataType.DATE}) {
      TableSchema events =
          TableSchema.builder("page_views")
              .partitionKey("page", DataType.TEXT)
              .partitionKey("day", DataType.DATE)
              .clusteringColumn("at", time)
              .column("views", DataType.COUNTER)
              .build();
      assertThat(events.lint())
          .as(time.cqlName())
          .singleElement()
          .asString()
          .contains("counters in an event table")
          .contains("column at")
          .contains("not idempotent");
    }
    // the seeds' counter table: one counter per entity, no time clustering
    TableSchema perVideo =
        TableSchema.builder("video_views")
            .partitionKey("video_id", DataType.UUID)
            .column("views", DataType.COUNTER)
            .build();
    assertThat(perVideo.lint()).isEmpty();
    // a time clustering without counters is not this rule's business
    TableSchema rows =
        TableSchema.builder("page_views")
            .partitionKey("page", DataType.TEXT)
            .partitionKey("day", DataType.DATE)
            .clusteringColumn("at", DataType.TIMESTAMP)
            .column("visitor", DataType.TEXT)
            .build();
    assertThat(rows.lint()).isEmpty();
  }
}
