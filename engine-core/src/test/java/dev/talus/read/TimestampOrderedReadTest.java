package dev.talus.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.DataType;
import dev.talus.ManualClock;
import dev.talus.ResultRow;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusMetricsListener;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads of named rows gather their sources newest first and stop once the older SSTables cannot
 * change the rows: each case below checks the result and how many sources the read merged.
 */
class TimestampOrderedReadTest {
  @TempDir Path dir;

  private final ManualClock clock = ManualClock.startingAtDefault();
  private final AtomicInteger lastSources = new AtomicInteger(-1);
  private TalusDb db;
  private Table t;

  @BeforeEach
  void open() {
    TalusMetricsListener listener =
        new TalusMetricsListener() {
          @Override
          public void onRead(String table, long micros, int sstablesTouched, int tombstones) {
            lastSources.set(sstablesTouched);
          }
        };
    db =
        TalusDb.open(
            TalusOptions.builder(dir)
                .clock(clock)
                .backgroundCompaction(false)
                .metricsListener(listener)
                .build());
    t = db.createTable(schema("t").build());
  }

  @AfterEach
  void close() {
    db.close();
  }

  static TableSchema.Builder schema(String name) {
    return TableSchema.builder(name)
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT)
        .column("v1", DataType.INT)
        .column("v2", DataType.TEXT);
  }

  private void insert(int c, int v1, String v2, long ts) {
    t.insert().value("p", 1).value("c", c).value("v1", v1).value("v2", v2).timestamp(ts).execute();
  }

  /** The named row (p = 1, c) as "v1/v2", or "none"; records the sources it merged. */
  private String read(int c) {
    return t.select()
        .eq("p", 1)
        .eq("c", c)
        .one()
        .map(r -> r.get("v1") + "/" + r.get("v2"))
        .orElse("none");
  }

  private int sources() {
    return lastSources.get();
  }

  @Test
  void stopsAtTheNewestSSTableWhenItHoldsTheWholeRow() {
    insert(1, 1, "old", 10);
    t.flush();
    insert(1, 2, "new", 20);
    t.flush();
    assertThat(read(1)).isEqualTo("2/new");
    assertThat(sources()).isEqualTo(1);
    // a slice of the same row merges both
    assertThat(t.select().eq("p", 1).ge("c", 1).le("c", 1).execute().size()).isEqualTo(1);
    assertThat(sources()).isEqualTo(2);
  }

  @Test
  void aMemtableHoldingTheWholeRowIsEnough() {
    insert(1, 1, "old", 10);
    t.flush();
    insert(1, 2, "new", 20);
    assertThat(read(1)).isEqualTo("2/new");
    assertThat(sources()).isEqualTo(1);
  }

  @Test
  void aColumnMissingFromTheNewestSSTableIsReadFromTheOlder() {
    insert(1, 1, "old", 10);
    t.flush();
    t.insert().value("p", 1).value("c", 1).value("v1", 2).timestamp(20).execute();
    t.flush();
    assertThat(read(1)).isEqualTo("2/old");
    assertThat(sources()).isEqualTo(2);
  }

  @Test
  void anUpdateWithoutRowMarkerDoesNotStopTheRead() {
    insert(1, 1, "old", 10);
    t.flush();
    t.update().where("p", 1).where("c", 1).set("v1", 2).set("v2", "new").timestamp(20).execute();
    t.flush();
    assertThat(read(1)).isEqualTo("2/new");
    assertThat(sources()).isEqualTo(2);
  }

  @Test
  void sstablesAreOrderedByTheirNewestTimestampNotByFlushOrder() {
    insert(1, 1, "newer", 20);
    t.flush();
    insert(1, 2, "older", 10); // flushed later, with an older timestamp
    t.flush();
    assertThat(read(1)).isEqualTo("1/newer");
    assertThat(sources()).isEqualTo(1);
  }

  @Test
  void equalTimestampsAreReadToo() {
    insert(1, 1, "a", 10);
    t.flush();
    insert(1, 1, "b", 10); // same timestamp: the greater value wins, from whichever SSTable
    t.flush();
    assertThat(read(1)).isEqualTo("1/b");
    assertThat(sources()).isEqualTo(2);
  }

  @Test
  void aNewerRowDeletionStopsTheRead() {
    insert(1, 1, "old", 10);
    t.flush();
    t.delete().eq("p", 1).eq("c", 1).timestamp(20).execute();
    t.flush();
    assertThat(read(1)).isEqualTo("none");
    assertThat(sources()).isEqualTo(1);
  }

  @Test
  void aNewerPartitionDeletionOrRangeDeletionStopsTheRead() {
    insert(1, 1, "old", 10);
    insert(2, 1, "old", 10);
    t.flush();
    t.delete().eq("p", 1).lt("c", 2).timestamp(20).execute();
    t.flush();
    assertThat(read(1)).isEqualTo("none");
    assertThat(sources()).isEqualTo(1);
    assertThat(read(2)).isEqualTo("1/old");
    t.delete().eq("p", 1).timestamp(30).execute();
    t.flush();
    assertThat(read(2)).isEqualTo("none");
    assertThat(sources()).isEqualTo(1);
  }

  @Test
  void anOlderSortedSSTableHoldingANewerDeletionIsRead() {
    // the first SSTable's newest timestamp (40, another partition) sorts it first; its row at 10
    // is older than the deletion at 25 in the second, which must be read
    insert(1, 1, "old", 10);
    t.insert().value("p", 2).value("c", 1).value("v1", 1).value("v2", "x").timestamp(40).execute();
    t.flush();
    t.delete().eq("p", 1).eq("c", 1).timestamp(25).execute();
    t.flush();
    assertThat(read(1)).isEqualTo("none");
    assertThat(sources()).isEqualTo(2);
    t.delete().eq("p", 1).timestamp(30).execute(); // a partition deletion, the same
    insert(2, 1, "old", 10);
    t.flush();
    assertThat(read(2)).isEqualTo("none");
  }

  @Test
  void aRowExpiredInTheNewestSSTableStaysExpired() {
    insert(1, 1, "old", 10);
    t.flush();
    t.insert()
        .value("p", 1)
        .value("c", 1)
        .value("v1", 2)
        .value("v2", "new")
        .ttl(Duration.ofSeconds(10))
        .timestamp(20)
        .execute();
    t.flush();
    assertThat(read(1)).isEqualTo("2/new");
    assertThat(sources()).isEqualTo(1);
    clock.advance(Duration.ofSeconds(11));
    assertThat(read(1)).isEqualTo("none");
    assertThat(sources()).isEqualTo(1);
  }

  @Test
  void aRowWhoseMarkerExpiredLivesOnThroughAColumnOnlyAnOlderSSTableHolds() {
    t.update().where("p", 1).where("c", 1).set("v2", "kept").timestamp(10).execute();
    t.flush();
    t.insert()
        .value("p", 1)
        .value("c", 1)
        .value("v1", 2)
        .ttl(Duration.ofSeconds(10))
        .timestamp(20)
        .execute();
    t.flush();
    clock.advance(Duration.ofSeconds(11));
    List<ResultRow> rows = t.select().columns("v1").eq("p", 1).eq("c", 1).execute().rows();
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).get("v1")).isNull();
    assertThat(sources()).isEqualTo(2);
  }

  @Test
  void inOnTheClusteringStopsOnlyWhenEveryNamedRowIsComplete() {
    insert(1, 1, "old", 10);
    insert(2, 1, "old", 10);
    t.flush();
    insert(1, 2, "new", 20);
    t.flush();
    assertThat(t.select().eq("p", 1).in("c", 1, 2).execute().size()).isEqualTo(2);
    assertThat(sources()).isEqualTo(2);
    insert(2, 2, "new", 20);
    t.flush();
    // each row is complete in one of the two newer SSTables; the oldest is not read
    assertThat(t.select().eq("p", 1).in("c", 1, 2).execute().size()).isEqualTo(2);
    assertThat(sources()).isEqualTo(2);
    assertThat(t.select().eq("p", 1).ge("c", 1).le("c", 2).execute().size()).isEqualTo(2);
    assertThat(sources()).isEqualTo(3);
  }

  @Test
  void aMissingRowIsRuledOutByTheRowFiltersOfSSTablesHoldingItsPartition() {
    // both SSTables' clustering ranges hold c = 3, so neither is skipped by range; their row
    // filters (on partition and clustering) rule the row out without an index lookup
    insert(1, 1, "old", 10);
    insert(5, 1, "old", 10);
    t.flush();
    insert(2, 2, "new", 20);
    insert(4, 2, "new", 20);
    t.flush();
    long lookupsBefore = t.stats().bloomFilterLookups();
    assertThat(read(3)).isEqualTo("none");
    assertThat(sources()).isEqualTo(0);
    assertThat(t.stats().bloomFilterLookups() - lookupsBefore).isEqualTo(2);
    assertThat(read(4)).isEqualTo("2/new");
    assertThat(sources()).isEqualTo(1);
  }

  @Test
  void anInListPassesOverAnSSTableHoldingNoneOfItsRows() {
    insert(1, 1, "old", 10);
    insert(2, 1, "old", 10);
    t.flush();
    insert(7, 2, "mid", 20);
    t.flush();
    insert(1, 3, "new", 30);
    t.flush();
    // the newest holds row 1 whole; the middle one holds neither row; the oldest must give row 2
    assertThat(t.select().eq("p", 1).in("c", 1, 2).execute().size()).isEqualTo(2);
    assertThat(sources()).isEqualTo(2);
  }

  @Test
  void aRangeDeletionKeepsItsSSTableInTheReadOfARowItDoesNotHold() {
    insert(3, 1, "old", 10);
    insert(5, 1, "old", 10);
    t.flush();
    t.delete().eq("p", 1).gt("c", 2).lt("c", 4).execute(); // the newer SSTable holds no row 3
    insert(5, 2, "new", 20);
    t.flush();
    // were the deleting SSTable passed over, the old row would come back; it is read, and its
    // deletion, newer than anything older, ends the read there
    assertThat(read(3)).isEqualTo("none");
    assertThat(sources()).isEqualTo(1);
    assertThat(read(5)).isEqualTo("2/new");
  }

  @Test
  void aPrefixOfTheClusteringIsASliceAndMergesEverySource() {
    Table w =
        db.createTable(
            TableSchema.builder("w")
                .partitionKey("p", DataType.INT)
                .clusteringColumn("c1", DataType.INT)
                .clusteringColumn("c2", DataType.INT)
                .column("v", DataType.INT)
                .build());
    for (int c2 = 1; c2 <= 2; c2++) {
      w.insert()
          .value("p", 1)
          .value("c1", 1)
          .value("c2", c2)
          .value("v", c2)
          .timestamp(10)
          .execute();
    }
    w.flush();
    // newer, and covering the start of the prefix c1 = 1, but not all of it
    w.delete().eq("p", 1).eq("c1", 1).lt("c2", 2).timestamp(20).execute();
    w.flush();
    List<ResultRow> rows = w.select().eq("p", 1).eq("c1", 1).execute().rows();
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).get("c2")).isEqualTo(2);
    assertThat(sources()).isEqualTo(2);
    assertThat(w.select().eq("p", 1).eq("c1", 1).eq("c2", 1).execute().rows()).isEmpty();
    assertThat(sources()).isEqualTo(1);
  }

  @Test
  void aTableWithoutClusteringColumnsStopsToo() {
    Table k =
        db.createTable(
            TableSchema.builder("k")
                .partitionKey("p", DataType.INT)
                .column("v", DataType.INT)
                .build());
    k.insert().value("p", 1).value("v", 1).timestamp(10).execute();
    k.flush();
    k.insert().value("p", 1).value("v", 2).timestamp(20).execute();
    k.flush();
    assertThat(k.select().eq("p", 1).one().orElseThrow().get("v")).isEqualTo(2);
    assertThat(sources()).isEqualTo(1);
  }

  @Test
  void tablesWithStaticCollectionOrCounterColumnsMergeEverySource() {
    Table s = db.createTable(schema("s").staticColumn("st", DataType.INT).build());
    Table l = db.createTable(schema("l").column("tags", DataType.set(DataType.TEXT)).build());
    for (Table x : List.of(s, l)) {
      for (long ts : new long[] {10, 20}) {
        x.insert()
            .value("p", 1)
            .value("c", 1)
            .value("v1", 1)
            .value("v2", "a")
            .timestamp(ts)
            .execute();
        x.flush();
      }
      assertThat(x.select().eq("p", 1).eq("c", 1).execute().size()).isEqualTo(1);
      assertThat(sources()).isEqualTo(2);
    }
    Table n =
        db.createTable(
            TableSchema.builder("n")
                .partitionKey("p", DataType.INT)
                .clusteringColumn("c", DataType.INT)
                .column("hits", DataType.COUNTER)
                .build());
    for (int i = 0; i < 2; i++) {
      n.update().where("p", 1).where("c", 1).increment("hits", 1).execute();
      n.flush();
    }
    assertThat(n.select().eq("p", 1).eq("c", 1).one().orElseThrow().get("hits")).isEqualTo(2L);
    assertThat(sources()).isEqualTo(2);
  }
}
