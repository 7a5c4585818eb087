package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Limits and validation as Cassandra 5.0 has them: the maximum TTL, the write timestamps accepted,
 * {@code writetime()}/{@code ttl()} of key columns, and the partition key rules on reads. Each test
 * names the Cassandra test it mirrors.
 */
class ValidationConformanceTest {
  /** Cassandra's Attributes.MAX_TTL: 20 × 365 days. */
  private static final long MAX_TTL = 630_720_000L;

  @TempDir Path dir;
  private final ManualClock clock = ManualClock.startingAtDefault();
  private TalusDb db;
  private Table t;

  @BeforeEach
  void open() {
    db = TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
    t =
        db.createTable(
            TableSchema.builder("t")
                .partitionKey("k", DataType.TEXT)
                .clusteringColumn("c", DataType.INT)
                .column("v", DataType.INT)
                .gcGrace(Duration.ZERO)
                .build());
  }

  @AfterEach
  void close() {
    db.close();
  }

  private static TableSchema.Builder table(String name) {
    return TableSchema.builder(name).partitionKey("k", DataType.INT).column("i", DataType.INT);
  }

  /** TTLTest.testTTLPerRequestLimit: MAX_TTL is accepted, one second more is refused. */
  @Test
  void ttlPerWriteIsAtMostCassandrasMaximum() {
    assertThat(TableSchema.MAX_TTL.getSeconds()).isEqualTo(MAX_TTL);
    t.insert()
        .value("k", "a")
        .value("c", 1)
        .value("v", 1)
        .ttl(Duration.ofSeconds(MAX_TTL))
        .execute();
    assertThat(t.select().eq("k", "a").one().orElseThrow().ttl("v")).isEqualTo((int) MAX_TTL);
    t.update().where("k", "a").where("c", 2).set("v", 1).ttl(Duration.ofSeconds(5)).execute();
    for (Runnable write :
        new Runnable[] {
          () ->
              t.insert()
                  .value("k", "b")
                  .value("c", 1)
                  .value("v", 1)
                  .ttl(Duration.ofSeconds(MAX_TTL + 1))
                  .execute(),
          () ->
              t.update()
                  .where("k", "b")
                  .where("c", 1)
                  .set("v", 1)
                  .ttl(Duration.ofSeconds(MAX_TTL + 1))
                  .execute()
        }) {
      assertThatThrownBy(write::run)
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("at most 630720000 seconds")
          .hasMessageContaining("got 630720001 seconds");
    }
    assertThat(t.select().eq("k", "b").execute().isEmpty()).isTrue();
    assertThatThrownBy(
            () ->
                t.insert()
                    .value("k", "b")
                    .value("c", 1)
                    .value("v", 1)
                    .ttl(Duration.ofSeconds(-1))
                    .execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("must not be negative");
  }

  /** TTLTest.testTTLDefaultLimit: the table default follows the same maximum. */
  @Test
  void defaultTtlIsAtMostCassandrasMaximum() {
    Table max = db.createTable(table("max").defaultTimeToLive(Duration.ofSeconds(MAX_TTL)).build());
    max.insert().value("k", 1).value("i", 1).execute();
    assertThat(max.select().eq("k", 1).one().orElseThrow().ttl("i")).isEqualTo((int) MAX_TTL);
    assertThatThrownBy(
            () -> table("over").defaultTimeToLive(Duration.ofSeconds(MAX_TTL + 1)).build())
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("defaultTimeToLive must be between 0 and 630720000 seconds");
    assertThatThrownBy(() -> table("neg").defaultTimeToLive(Duration.ofSeconds(-1)).build())
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("defaultTimeToLive");
  }

  private void tenRows() {
    for (int i = 0; i < 10; i++) {
      t.insert().value("k", "key1").value("c", i).value("v", i).timestamp(0).execute();
    }
    t.flush();
  }

  /** One row written back at timestamp 2 after the purge: it must be the only one visible. */
  private void purgeAndResurrectOne() {
    clock.advance(Duration.ofSeconds(1)); // gc_grace 0: purgeable once a second has passed
    t.compact();
    t.insert().value("k", "key1").value("c", 5).value("v", 55).timestamp(2).execute();
    t.flush();
    assertThat(t.select().eq("k", "key1").execute().rows())
        .singleElement()
        .satisfies(r -> assertThat(r.getInt("v")).isEqualTo(55));
    // the tombstones are gone from storage: only the row written afterwards is stored
    assertThat(t.dump("key1"))
        .allSatisfy(
            p -> {
              assertThat(p.partitionDeletion()).isNull();
              assertThat(p.rangeTombstones()).isEmpty();
            })
        .flatExtracting(StoredPartition::rows)
        .hasSize(1);
  }

  /**
   * Row deletions at Long.MAX_VALUE are accepted, shadow every write (ties go to the deletion), and
   * are purged by a major compaction once gc_grace has passed
   * (CompactionsPurgeTest.testMajorCompactionPurgeTombstonesWithMaxTimestamp).
   */
  @Test
  void rowDeletionsAtLongMaxValueArePurgedByAMajorCompaction() {
    tenRows();
    for (int i = 0; i < 10; i++) {
      t.delete().eq("k", "key1").eq("c", i).timestamp(Long.MAX_VALUE).execute();
    }
    t.insert().value("k", "key1").value("c", 3).value("v", 1).execute(); // shadowed
    t.flush();
    assertThat(t.select().eq("k", "key1").execute().isEmpty()).isTrue();
    purgeAndResurrectOne();
  }

  /** CompactionsPurgeTest.testMajorCompactionPurgeTopLevelTombstoneWithMaxTimestamp. */
  @Test
  void partitionDeletionAtLongMaxValueIsPurgedByAMajorCompaction() {
    tenRows();
    t.delete().eq("k", "key1").timestamp(Long.MAX_VALUE).execute();
    t.flush();
    assertThat(t.select().eq("k", "key1").execute().isEmpty()).isTrue();
    purgeAndResurrectOne();
  }

  /** CompactionsPurgeTest.testMajorCompactionPurgeRangeTombstoneWithMaxTimestamp. */
  @Test
  void rangeDeletionAtLongMaxValueIsPurgedByAMajorCompaction() {
    tenRows();
    t.delete().eq("k", "key1").ge("c", 0).le("c", 9).timestamp(Long.MAX_VALUE).execute();
    t.flush();
    assertThat(t.select().eq("k", "key1").execute().isEmpty()).isTrue();
    purgeAndResurrectOne();
  }

  /**
   * Talus reserves Long.MIN_VALUE, which storage uses for "no timestamp"; Cassandra accepts it. The
   * refusal says so (a documented difference).
   */
  @Test
  void longMinValueIsTheOneReservedTimestamp() {
    assertThatThrownBy(
            () -> t.insert().value("k", "a").value("c", 1).timestamp(Long.MIN_VALUE).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("reserved")
        .hasMessageContaining("differs from Cassandra");
    t.insert().value("k", "a").value("c", 1).value("v", 1).timestamp(Long.MIN_VALUE + 1).execute();
    assertThat(t.select().eq("k", "a").one().orElseThrow().writeTime("v"))
        .isEqualTo(Long.MIN_VALUE + 1);
  }

  /**
   * writetime() and ttl() of a primary key column are refused, not null
   * (WritetimeOrTTLTest.testSimple: "Cannot use selection function writetime on PRIMARY KEY part").
   */
  @Test
  void writeTimeAndTtlOfAKeyColumnAreRefused() {
    t.insert().value("k", "a").value("c", 1).value("v", 1).ttl(Duration.ofSeconds(60)).execute();
    ResultRow r = t.select().eq("k", "a").one().orElseThrow();
    for (String key : new String[] {"k", "c"}) {
      assertThatThrownBy(() -> r.writeTime(key))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("writetime() of " + key)
          .hasMessageContaining("PRIMARY KEY part " + key);
      assertThatThrownBy(() -> r.ttl(key))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("ttl() of " + key);
    }
    assertThat(r.writeTime("v")).isNotNull();
    assertThat(r.ttl("v")).isEqualTo(60);
  }

  /**
   * A read whose partition key is empty, or longer than 65,535 bytes, is refused as the write is
   * (SelectTest.testEmptyRestrictionValue: "Key may not be empty", for = and IN).
   */
  @Test
  void readsRefuseKeysThatCannotBeWritten() {
    assertThatThrownBy(() -> t.select().eq("k", "").execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("Key may not be empty");
    assertThatThrownBy(() -> t.select().in("k", "", "1").execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("Key may not be empty");
    String huge = "x".repeat(70_000);
    assertThatThrownBy(() -> t.select().eq("k", huge).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("the limit is 65535");
    assertThatThrownBy(() -> t.insert().value("k", huge).value("c", 1).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("the limit is 65535");
    Table blob =
        db.createTable(
            TableSchema.builder("b")
                .partitionKey("pk", DataType.BLOB)
                .clusteringColumn("c", DataType.BLOB)
                .column("v", DataType.BLOB)
                .build());
    assertThatThrownBy(() -> blob.select().eq("pk", new byte[0]).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("Key may not be empty");
    // an empty clustering value is a value like any other
    assertThat(blob.select().eq("pk", new byte[] {1}).eq("c", new byte[0]).execute().isEmpty())
        .isTrue();
    // a composite key may have empty components
    Table comp =
        db.createTable(
            TableSchema.builder("comp")
                .partitionKey("a", DataType.TEXT)
                .partitionKey("b", DataType.TEXT)
                .column("v", DataType.INT)
                .build());
    comp.insert().value("a", "").value("b", "").value("v", 1).execute();
    assertThat(comp.select().eq("a", "").eq("b", "").execute().size()).isEqualTo(1);
  }
}
