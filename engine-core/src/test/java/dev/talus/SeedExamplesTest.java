package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The data-model examples of the seed documents, written and queried through Talus. */
class SeedExamplesTest {
  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(Instant.parse("2026-08-01T09:00:00Z"));
  private TalusDb db;

  @BeforeEach
  void open() {
    db = TalusDb.open(TalusOptions.builder(dir).clock(clock).build());
  }

  @AfterEach
  void close() {
    db.close();
  }

  // ---------------- the chat example: one table per query ----------------

  private record Message(
      UUID roomId, String bucket, Instant sentAt, UUID messageId, String sender, String body) {}

  private Table messagesByRoom;
  private Table messagesBySender;
  private Table messagesById;
  private Table roomsByUser;

  private void createChatTables() {
    // PRIMARY KEY ((room_id, bucket), sent_at, message_id)
    //   WITH CLUSTERING ORDER BY (sent_at DESC, message_id DESC)
    messagesByRoom =
        db.createTable(
            TableSchema.builder("messages_by_room")
                .partitionKey("room_id", DataType.UUID)
                .partitionKey("bucket", DataType.TEXT)
                .clusteringColumn("sent_at", DataType.TIMESTAMP, ClusteringOrder.DESC)
                .clusteringColumn("message_id", DataType.TIMEUUID, ClusteringOrder.DESC)
                .column("sender", DataType.TEXT)
                .column("body", DataType.TEXT)
                .build());
    messagesBySender =
        db.createTable(
            TableSchema.builder("messages_by_sender")
                .partitionKey("sender", DataType.TEXT)
                .partitionKey("bucket", DataType.TEXT)
                .clusteringColumn("sent_at", DataType.TIMESTAMP, ClusteringOrder.DESC)
                .clusteringColumn("message_id", DataType.TIMEUUID, ClusteringOrder.DESC)
                .column("room_id", DataType.UUID)
                .column("body", DataType.TEXT)
                .build());
    messagesById =
        db.createTable(
            TableSchema.builder("messages_by_id")
                .partitionKey("message_id", DataType.TIMEUUID)
                .column("room_id", DataType.UUID)
                .column("sender", DataType.TEXT)
                .column("sent_at", DataType.TIMESTAMP)
                .column("body", DataType.TEXT)
                .build());
    roomsByUser =
        db.createTable(
            TableSchema.builder("rooms_by_user")
                .partitionKey("user_id", DataType.UUID)
                .clusteringColumn("room_id", DataType.UUID)
                .column("joined_at", DataType.TIMESTAMP)
                .column("room_name", DataType.TEXT)
                .build());
  }

  /** Sending a message writes it to every table that answers a query about messages. */
  private Message send(UUID room, String sender, Instant sentAt, String body) {
    String bucket = sentAt.atZone(ZoneOffset.UTC).toLocalDate().toString().substring(0, 7);
    UUID id = db.timeUuids().next();
    messagesByRoom
        .insert()
        .value("room_id", room)
        .value("bucket", bucket)
        .value("sent_at", sentAt)
        .value("message_id", id)
        .value("sender", sender)
        .value("body", body)
        .execute();
    messagesBySender
        .insert()
        .value("sender", sender)
        .value("bucket", bucket)
        .value("sent_at", sentAt)
        .value("message_id", id)
        .value("room_id", room)
        .value("body", body)
        .execute();
    messagesById
        .insert()
        .value("message_id", id)
        .value("room_id", room)
        .value("sender", sender)
        .value("sent_at", sentAt)
        .value("body", body)
        .execute();
    return new Message(room, bucket, sentAt, id, sender, body);
  }

  @Test
  void chatTablesAnswerEachQueryInTheRightOrder() {
    createChatTables();
    UUID room42 = new UUID(0x42, 0x42);
    UUID room99 = new UUID(0x99, 0x99);
    UUID alice = new UUID(1, 1);
    Instant t0 = Instant.parse("2026-08-01T09:00:00Z");
    Instant t1 = Instant.parse("2026-08-01T09:04:12Z");
    Instant t2 = Instant.parse("2026-08-01T11:30:00Z");
    List<Message> sent = new ArrayList<>();
    sent.add(send(room42, "alice", t0, "morning"));
    clock.advance(Duration.ofSeconds(252));
    // Two messages in the same millisecond: message_id keeps them apart.
    sent.add(send(room42, "bob", t1, "hi"));
    sent.add(send(room42, "carol", t1, "hello"));
    sent.add(send(room99, "alice", t1, "elsewhere"));
    clock.advance(Duration.ofHours(2));
    sent.add(send(room42, "alice", t2, "lunch?"));
    sent.add(send(room42, "dave", Instant.parse("2026-09-01T00:00:01Z"), "next month"));
    roomsByUser
        .insert()
        .value("user_id", alice)
        .value("room_id", room99)
        .value("joined_at", t0)
        .value("room_name", "ninety-nine")
        .execute();
    roomsByUser
        .insert()
        .value("user_id", alice)
        .value("room_id", room42)
        .value("joined_at", t1)
        .value("room_name", "forty-two")
        .execute();

    // Q1: the most recent messages in a room (one bucket), newest first, ties by message_id DESC.
    List<String> q1 =
        messagesByRoom
            .select()
            .eq("room_id", room42)
            .eq("bucket", "2026-08")
            .limit(3)
            .execute()
            .rows()
            .stream()
            .map(r -> r.getString("body"))
            .toList();
    assertThat(q1).containsExactly("lunch?", "hello", "hi");
    List<ResultRow> all =
        messagesByRoom.select().eq("room_id", room42).eq("bucket", "2026-08").execute().rows();
    assertThat(all).hasSize(4);
    Comparator<ResultRow> newestFirst =
        Comparator.comparing((ResultRow r) -> r.getInstant("sent_at"))
            .thenComparing(r -> TimeUuidGenerator.timestampOf(r.getUuid("message_id")))
            .reversed();
    assertThat(all).isSortedAccordingTo(newestFirst);
    // "Messages after 09:01" is a slice on the first clustering column.
    assertThat(
            messagesByRoom
                .select()
                .eq("room_id", room42)
                .eq("bucket", "2026-08")
                .gt("sent_at", t0)
                .execute()
                .rows())
        .extracting(r -> r.getString("body"))
        .containsExactly("lunch?", "hello", "hi");
    // The next month is another partition.
    assertThat(
            messagesByRoom.select().eq("room_id", room42).eq("bucket", "2026-09").execute().rows())
        .extracting(r -> r.getString("body"))
        .containsExactly("next month");

    // Q2: everything alice sent, newest first, across rooms.
    assertThat(
            messagesBySender
                .select()
                .eq("sender", "alice")
                .eq("bucket", "2026-08")
                .execute()
                .rows())
        .extracting(r -> r.getString("body") + "@" + r.getUuid("room_id").equals(room42))
        .containsExactly("lunch?@true", "elsewhere@false", "morning@true");

    // Q3: direct lookup by id.
    for (Message m : sent) {
      ResultRow r = messagesById.select().eq("message_id", m.messageId()).one().orElseThrow();
      assertThat(r.getString("body")).isEqualTo(m.body());
      assertThat(r.getString("sender")).isEqualTo(m.sender());
      assertThat(r.getUuid("room_id")).isEqualTo(m.roomId());
      assertThat(r.getInstant("sent_at")).isEqualTo(m.sentAt());
    }

    // Q4: which rooms a user belongs to, in room_id order.
    assertThat(roomsByUser.select().eq("user_id", alice).execute().rows())
        .extracting(r -> r.getString("room_name"))
        .containsExactly("forty-two", "ninety-nine");
  }

  // ---------------- readings_by_sensor_day: time bucketing ----------------

  @Test
  void aWeekOfReadingsIsSevenPartitionsReadTogetherNewestFirstPerDay() {
    Table readings =
        db.createTable(
            TableSchema.builder("readings_by_sensor_day")
                .partitionKey("sensor_id", DataType.UUID)
                .partitionKey("day", DataType.DATE)
                .clusteringColumn("ts", DataType.TIMESTAMP, ClusteringOrder.DESC)
                .column("value", DataType.DOUBLE)
                .build());
    UUID sensor = new UUID(7, 7);
    UUID other = new UUID(8, 8);
    LocalDate monday = LocalDate.of(2026, 9, 7);
    List<LocalDate> week = new ArrayList<>();
    for (int d = 0; d < 7; d++) {
      LocalDate day = monday.plusDays(d);
      week.add(day);
      for (int h = 0; h < 24; h++) {
        Instant ts = day.atStartOfDay().toInstant(ZoneOffset.UTC).plus(Duration.ofHours(h));
        readings
            .insert()
            .value("sensor_id", sensor)
            .value("day", day)
            .value("ts", ts)
            .value("value", d * 100.0 + h)
            .execute();
        readings
            .insert()
            .value("sensor_id", other)
            .value("day", day)
            .value("ts", ts)
            .value("value", -1.0)
            .execute();
      }
    }
    List<ResultRow> rows =
        readings.select().eq("sensor_id", sensor).in("day", week).execute().rows();
    assertThat(rows).hasSize(7 * 24);
    for (int d = 0; d < 7; d++) {
      List<ResultRow> dayRows = rows.subList(d * 24, (d + 1) * 24);
      LocalDate day = week.get(d);
      assertThat(dayRows).allSatisfy(r -> assertThat(r.getDate("day")).isEqualTo(day));
      assertThat(dayRows).allSatisfy(r -> assertThat(r.getUuid("sensor_id")).isEqualTo(sensor));
      assertThat(dayRows)
          .isSortedAccordingTo(
              Comparator.comparing((ResultRow r) -> r.getInstant("ts")).reversed());
      assertThat(dayRows.get(0).getDouble("value")).isEqualTo(d * 100.0 + 23);
    }
    // "The latest reading of each day" is the first row of each partition.
    List<Double> latest = new ArrayList<>();
    for (LocalDate day : week) {
      latest.add(
          readings
              .select()
              .eq("sensor_id", sensor)
              .eq("day", day)
              .limit(1)
              .one()
              .orElseThrow()
              .getDouble("value"));
    }
    assertThat(latest).containsExactly(23.0, 123.0, 223.0, 323.0, 423.0, 523.0, 623.0);
    // A day outside the week is not read.
    assertThat(
            readings
                .select()
                .eq("sensor_id", sensor)
                .eq("day", monday.minusDays(1))
                .execute()
                .rows())
        .isEmpty();
  }

  @Test
  void timeUuidsFromTheDatabaseAreOrderedAndSortAsTimeuuidClustering() {
    Table events =
        db.createTable(
            TableSchema.builder("events")
                .partitionKey("k", DataType.TEXT)
                .clusteringColumn("id", DataType.TIMEUUID)
                .column("seq", DataType.INT)
                .build());
    List<UUID> ids = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      if (i % 50 == 0) {
        clock.advance(Duration.ofMillis(1));
      }
      UUID id = db.timeUuids().next();
      assertThat(id.version()).isEqualTo(1);
      ids.add(id);
    }
    assertThat(ids).doesNotHaveDuplicates();
    for (int i = 1; i < ids.size(); i++) {
      assertThat(TimeUuidGenerator.timestampOf(ids.get(i)))
          .isAfterOrEqualTo(TimeUuidGenerator.timestampOf(ids.get(i - 1)));
    }
    // Insert in reverse; the table returns them in generation order.
    for (int i = ids.size() - 1; i >= 0; i--) {
      events.insert().value("k", "e").value("id", ids.get(i)).value("seq", i).execute();
    }
    List<Integer> seqs =
        events.select().eq("k", "e").execute().rows().stream().map(r -> r.getInt("seq")).toList();
    List<Integer> expected = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      expected.add(i);
    }
    assertThat(seqs).isEqualTo(expected);
  }
}
