package dev.talus.testkit;

import static dev.talus.testkit.TalusAssertions.assertThat;
import static dev.talus.testkit.TalusAssertions.assertThatPartition;
import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.CompactionOptions;
import dev.talus.DataType;
import dev.talus.SSTableSummary;
import dev.talus.Table;
import dev.talus.TableHistograms;
import dev.talus.TableSchema;
import java.time.Duration;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The tutorial of docs/testing-data-models.md: each warning of the data-modeling guide as a test.
 * The doc quotes these methods between the {@code // tag::} and {@code // end::} markers; keep both
 * in step.
 */
class DataModelTutorialTest {
  // tag::extension[]
  @RegisterExtension static final TalusExtension talus = TalusExtension.create();

  // end::extension[]

  // tag::queue[]
  @Test
  void queueAntiPattern_tombstonesAreScannedThenPurgedAfterGcGrace() {
    TalusTestDb db = talus.db();
    Table jobs =
        db.createTable(
            TableSchema.builder("jobs")
                .partitionKey("queue", DataType.TEXT)
                .clusteringColumn("seq", DataType.INT)
                .column("payload", DataType.TEXT)
                .gcGrace(Duration.ofDays(10))
                .build());
    for (int i = 0; i < 500; i++) { // enqueue
      jobs.insert().value("queue", "emails").value("seq", i).value("payload", "job " + i).execute();
    }
    db.flush(jobs);
    for (int i = 0; i < 490; i++) { // consume: read the oldest, delete it
      jobs.delete().eq("queue", "emails").eq("seq", i).execute();
    }
    db.flush(jobs);

    // every "read the oldest job" now walks through 490 tombstones to find 10 live rows
    assertThatPartition(jobs, "emails").hasRows(10).hasTombstones(490);
    assertThat(jobs).lastReadScannedAtMostTombstones(490);

    // compaction merges the jobs with their deletions, but gc_grace protects the tombstones
    db.compactAll(jobs);
    assertThatPartition(jobs, "emails").hasTombstones(490);
    assertThat(db.explain(jobs, "emails").has(Explanation.Kind.GC_GRACE_NOT_PASSED)).isTrue();

    db.advancePastGcGrace(jobs); // 10 days + 1 s later
    db.compactAll(jobs);
    assertThatPartition(jobs, "emails").hasNoTombstones().readScansAtMostTombstones(0);
    assertThat(jobs).sstableCount(1).hasNoTombstones();
  }

  // end::queue[]

  // tag::zombie[]
  @Test
  void zombie_tombstoneIsKeptWhileAnOlderSSTableStillHoldsTheRow() {
    TalusTestDb db = talus.db();
    Table users =
        db.createTable(
            TableSchema.builder("users")
                .partitionKey("id", DataType.TEXT)
                .column("email", DataType.TEXT)
                .gcGrace(Duration.ofDays(10))
                .build());
    users.insert().value("id", "u1").value("email", "old@example.com").execute();
    SSTableSummary older = db.flush(users); // holds the row
    db.advance(Duration.ofDays(1));
    users.delete().eq("id", "u1").execute();
    SSTableSummary newer = db.flush(users); // holds the partition deletion

    db.advancePastGcGrace(users); // the tombstone is past gc_grace...
    db.compact(users, newer); // ...but only the newer SSTable is compacted

    // the tombstone survives: dropping it would bring the row in the older SSTable back
    assertThatPartition(users, "u1").hasRows(0).hasTombstones(1);
    Explanation why = db.explain(users, "u1");
    assertThat(why.has(Explanation.Kind.OLDER_DATA_IN_OTHER_SSTABLE)).isTrue();
    assertThat(why.toString())
        .contains("sstable " + older.generation() + " overlaps and holds older data");

    db.compactAll(users); // both SSTables: the row and its tombstone vanish together
    assertThatPartition(users, "u1").hasRows(0).isNotStored();
  }

  // end::zombie[]

  // tag::buckets[]
  @Test
  void unboundedPartition_fixedByDayBuckets() {
    TalusTestDb db = talus.db();
    Table unbounded =
        db.createTable(
            TableSchema.builder("readings_by_sensor")
                .partitionKey("sensor", DataType.TEXT)
                .clusteringColumn("ts", DataType.TIMESTAMP)
                .column("value", DataType.DOUBLE)
                .build());
    Table bucketed =
        db.createTable(
            TableSchema.builder("readings_by_sensor_day")
                .partitionKey("sensor", DataType.TEXT)
                .partitionKey("day", DataType.DATE)
                .clusteringColumn("ts", DataType.TIMESTAMP)
                .column("value", DataType.DOUBLE)
                .build());
    for (int day = 0; day < 30; day++) { // one reading every 5 minutes for 30 days
      for (int minute = 0; minute < 24 * 60; minute += 5) {
        var ts = db.now();
        LocalDate date = LocalDate.ofInstant(ts, java.time.ZoneOffset.UTC);
        unbounded.insert().value("sensor", "s1").value("ts", ts).value("value", 1.0).execute();
        bucketed
            .insert()
            .value("sensor", "s1")
            .value("day", date)
            .value("ts", ts)
            .value("value", 1.0)
            .execute();
        db.advance(Duration.ofMinutes(5));
      }
    }
    db.flush(unbounded); // histograms describe SSTables
    db.flush(bucketed);

    TableHistograms before = unbounded.histograms();
    TableHistograms after = bucketed.histograms();
    // one partition holding every reading vs. thirty bounded ones of one day each
    assertThat(before.cellCount().count()).isEqualTo(1);
    assertThat(after.cellCount().count()).isEqualTo(30);
    assertThat(after.cellCount().max()).isLessThan(before.cellCount().max() / 10);
    assertThat(after.partitionSizeBytes().max()).isLessThan(before.partitionSizeBytes().max() / 10);
    System.out.printf(
        "partition size before: %s%npartition size after:  %s%n",
        before.partitionSizeBytes(), after.partitionSizeBytes());
  }

  // end::buckets[]

  // tag::twcs[]
  @Test
  void ttlWithTimeWindowCompaction_dropsWholeFiles() {
    TalusTestDb db = talus.db();
    Table metrics =
        db.createTable(
            TableSchema.builder("metrics")
                .partitionKey("host", DataType.TEXT)
                .partitionKey("day", DataType.DATE)
                .clusteringColumn("ts", DataType.TIMESTAMP)
                .column("cpu", DataType.DOUBLE)
                .defaultTimeToLive(Duration.ofDays(3))
                .gcGrace(Duration.ofHours(1))
                .compaction(
                    CompactionOptions.timeWindow()
                        .windowUnit(ChronoUnit.DAYS)
                        .windowSize(1)
                        .build())
                .build());
    for (int day = 0; day < 5; day++) { // five daily windows, one SSTable each
      for (int hour = 0; hour < 24; hour++) {
        metrics
            .insert()
            .value("host", "web1")
            .value("day", LocalDate.ofInstant(db.now(), java.time.ZoneOffset.UTC))
            .value("ts", db.now())
            .value("cpu", 0.5)
            .execute();
        db.advance(Duration.ofHours(1));
      }
      db.flush(metrics);
    }
    List<SSTableSummary> days = metrics.sstables();
    assertThat(days).hasSize(5);

    // now = day 5 00:00. Day 0's last write (23:00) expired on day 3 23:00; its SSTable is fully
    // expired once that is before gcBefore = now - gc_grace (1 h) = day 4 23:00: it is.
    CompactionReport step = db.settle(metrics);
    assertThat(step).droppedWhole(days.get(0).generation());
    assertThat(metrics).sstableWasDroppedWhole(days.get(0).generation()).droppedWholeSSTables(1);

    // day 1's newest expiry (day 4 23:00) equals gcBefore: the rule is strict, it stays...
    long day1 = days.get(1).generation();
    assertThat(metrics).hasSSTable(day1);
    assertThat(db.explainSSTable(metrics, day1).toString()).contains("is not before gcBefore");
    db.advance(Duration.ofSeconds(1)); // ...for one more second
    assertThat(db.settle(metrics)).droppedWhole(day1);

    db.advance(Duration.ofDays(1)); // day 6: day 2's file goes
    assertThat(db.settle(metrics)).droppedWhole(days.get(2).generation());
    assertThat(metrics).sstableCount(2).droppedWholeSSTables(3);
    assertThat(metrics.stats().bytesCompactedRead()).isZero(); // dropped unread, never rewritten
  }
  // end::twcs[]
}
