package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first mistakes a new user (often a Cassandra user) makes get messages that say how to fix
 * them, and the values they print show what they hold.
 */
class FirstHourMessagesTest {
  @TempDir Path dir;

  private TalusDb open() {
    return TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build());
  }

  private static TableSchema events() {
    return TableSchema.builder("events")
        .partitionKey("source", DataType.TEXT)
        .clusteringColumn("ts", DataType.TIMESTAMP)
        .clusteringColumn("id", DataType.TIMEUUID)
        .column("body", DataType.TEXT)
        .build();
  }

  @Test
  void aSubMillisecondInstantSaysToTruncateIt() {
    try (TalusDb db = open()) {
      Table t = db.createTable(events());
      Instant precise = Instant.parse("2026-09-01T09:00:00.123456789Z");
      assertThatThrownBy(
              () ->
                  t.insert()
                      .value("source", "s")
                      .value("ts", precise)
                      .value("id", db.timeUuids().next())
                      .execute())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("sub-millisecond")
          .hasMessageContaining("truncatedTo(ChronoUnit.MILLIS)")
          .hasMessageNotContaining("(java.time.Instant, expected java.time.Instant)");
    }
  }

  @Test
  void aRandomUuidForATimeuuidPointsAtTimeUuids() {
    try (TalusDb db = open()) {
      Table t = db.createTable(events());
      assertThatThrownBy(
              () ->
                  t.insert()
                      .value("source", "s")
                      .value("ts", Instant.parse("2026-09-01T09:00:00Z"))
                      .value("id", UUID.randomUUID())
                      .execute())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("version 4 (random)")
          .hasMessageContaining("db.timeUuids().next()")
          .hasMessageNotContaining("(java.util.UUID, expected java.util.UUID)");
    }
  }

  @Test
  void aWrongClassStillNamesBothClasses() {
    try (TalusDb db = open()) {
      Table t = db.createTable(events());
      assertThatThrownBy(() -> t.insert().value("source", "s").value("ts", 12L).execute())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("java.lang.Long")
          .hasMessageContaining("java.time.Instant");
    }
  }

  @Test
  void createTableIfNotExistsNamesTheFieldsThatDifferAndTheChoices() {
    try (TalusDb db = open()) {
      db.createTable(events());
      TableSchema changed =
          events().toBuilder().gcGrace(Duration.ofHours(1)).column("extra", DataType.INT).build();
      assertThatThrownBy(() -> db.createTableIfNotExists(changed))
          .isInstanceOf(InvalidSchemaException.class)
          .hasMessageContaining("differs in 2 field(s)")
          .hasMessageContaining("gcGrace: existing PT240H, requested PT1H")
          .hasMessageContaining("regular columns: existing")
          .hasMessageContaining("extra")
          .hasMessageContaining("db.table(\"events\")")
          .hasMessageContaining("another table name")
          .hasMessageNotContaining("TableSchema{");
      assertThat(db.createTableIfNotExists(events()).name()).isEqualTo("events");
    }
  }

  @Test
  void batchedWritesCountInTheWriteLatency() {
    try (TalusDb db = open()) {
      Table t = db.createTable(events());
      Batch b = db.batch();
      for (int i = 0; i < 3; i++) {
        b.add(
            t.insert()
                .value("source", "s")
                .value("ts", Instant.parse("2026-09-01T09:00:00Z").plusSeconds(i))
                .value("id", db.timeUuids().next()));
      }
      b.execute();
      assertThat(t.stats().writes()).isEqualTo(3);
      assertThat(t.stats().writeLatencyMicros().count()).isEqualTo(1);
    }
  }

  @Test
  void aResultSetShowsItsRows() {
    try (TalusDb db = open()) {
      Table t =
          db.createTable(
              TableSchema.builder("kv")
                  .partitionKey("k", DataType.TEXT)
                  .clusteringColumn("c", DataType.INT)
                  .column("v", DataType.BLOB)
                  .build());
      for (int i = 0; i < 12; i++) {
        t.insert().value("k", "a").value("c", i).value("v", new byte[] {1, (byte) i}).execute();
      }
      String shown = t.select().eq("k", "a").execute().toString();
      assertThat(shown)
          .startsWith("ResultSet{12 rows: [k=a, c=0, v=0x0100], [k=a, c=1, v=0x0101]")
          .contains("[k=a, c=9, v=0x0109]")
          .doesNotContain("c=10")
          .endsWith(", … 2 more}");
      assertThat(t.select().eq("k", "none").execute()).hasToString("ResultSet{0 rows}");
    }
  }
}
