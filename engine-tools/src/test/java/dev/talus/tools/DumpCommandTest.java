package dev.talus.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DumpCommandTest {
  @TempDir Path dir;

  @BeforeEach
  void write() {
    Fixtures.write(dir);
  }

  @Test
  void dumpShowsEverySourceWithTombstonesTimestampsAndTtls() {
    Cli.Result r = Cli.run("dump", dir.toString(), "readings", "--key", "s-1,2026-09-01");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    String json = r.out();
    assertThat(json)
        .startsWith("{")
        .contains("\"table\": \"readings\"")
        .contains("\"sensor_id\": \"s-1\"")
        .contains("\"day\": \"2026-09-01\"")
        .contains("\"source\": \"sstable 2\"")
        .contains("\"source\": \"sstable 1\"")
        .contains("\"range_tombstones\": [")
        .contains("\"row_deletion\": {")
        .contains("\"marked_deleted\": \"2026-09-01T00:01:00.0000")
        .contains("\"local_delete_time\": \"2026-09-01T00:01:00Z\"")
        .contains("\"kind\": \"tombstone\"")
        .contains("\"kind\": \"live\"")
        .contains("\"value\": 20.0")
        .contains("\"liveness_info\": {")
        .contains("\"ts\": \"2026-09-01T00:00:00Z\"");
    // newest source first
    assertThat(json.indexOf("sstable 2")).isLessThan(json.indexOf("sstable 1"));
  }

  @Test
  void dumpShowsTtlAndExpiry() {
    Cli.Result r = Cli.run("dump", dir.toString(), "readings", "-k", "s-2", "-k", "2026-09-01");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains("\"kind\": \"expiring\"")
        .contains("\"ttl\": 3600")
        .contains("\"expires_at\": \"2026-09-01T01:00:00Z\"");
  }

  @Test
  void dumpShowsAPartitionDeletion() {
    Cli.Result r = Cli.run("dump", dir.toString(), "readings", "--key", "s-3,2026-09-01");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out()).contains("\"partition_deletion\": {").contains("\"rows\": []");
  }

  @Test
  void dumpAllStreamsEveryPartitionWithALiveRowOncePagingAcrossThem() {
    for (String pageSize : new String[] {"7", "1000"}) {
      Cli.Result r =
          Cli.run(
              "dump",
              dir.toString(),
              "readings",
              "--all",
              "--page-size",
              pageSize,
              "--now",
              "2026-09-01T00:30:00Z");
      assertThat(r.exitCode()).as(r.toString()).isZero();
      String json = r.out().strip();
      assertThat(json).startsWith("[").endsWith("]");
      // s-1 (50 rows, several pages of 7) and s-2 (its TTL not yet past) once each; s-3 holds
      // only a partition deletion, so the scan does not find it
      assertThat(json.split("\"partition_key\"", -1)).hasSize(3);
      assertThat(json).contains("\"sensor_id\": \"s-1\"", "\"sensor_id\": \"s-2\"");
      assertThat(json).doesNotContain("\"sensor_id\": \"s-3\"");
    }
  }

  @Test
  void dumpAllOfAnEmptyTableIsAnEmptyArrayAndKeyOrAllIsRequired() {
    try (dev.talus.TalusDb db = Fixtures.open(dir, new dev.talus.ManualClock(Fixtures.T0))) {
      db.createTable(
          dev.talus.TableSchema.builder("empty")
              .partitionKey("k", dev.talus.DataType.INT)
              .column("v", dev.talus.DataType.INT)
              .build());
    }
    Cli.Result empty = Cli.run("dump", dir.toString(), "empty", "--all");
    assertThat(empty.exitCode()).as(empty.toString()).isZero();
    assertThat(empty.out().strip()).isEqualTo("[]");
    Cli.Result r = Cli.run("dump", dir.toString(), "readings", "--all");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    // at the wall clock s-2's TTL is past: only s-1 is left
    assertThat(r.out().split("\"partition_key\"", -1)).hasSize(2);
    r = Cli.run("dump", dir.toString(), "readings");
    assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(r.err()).contains("give the partition with --key, or --all");
    r = Cli.run("dump", dir.toString(), "readings", "--all", "--key", "s-1,2026-09-01");
    assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
  }

  @Test
  void dumpOfAnAbsentPartitionHasNoSources() {
    Cli.Result r = Cli.run("dump", dir.toString(), "readings", "--key", "nobody,2026-09-01");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out()).contains("\"sources\": []");
  }

  @Test
  void aBadKeyValueNamesTheColumnAndTheExpectedForm() {
    Cli.Result r = Cli.run("dump", dir.toString(), "readings", "--key", "s-1,yesterday");
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err())
        .contains("bad value 'yesterday' for column day (date): expected a date yyyy-mm-dd");
  }

  @Test
  void theWrongNumberOfKeyValuesIsRefused() {
    Cli.Result r = Cli.run("dump", dir.toString(), "readings", "--key", "s-1");
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err())
        .contains("table readings has partition key [sensor_id text, day date]")
        .contains("give 2 value(s) with --key, got 1");
  }

  @Test
  void metadataListsEachSSTableWithItsFiles() {
    Cli.Result r = Cli.run("metadata", dir.toString(), "readings");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains("Table: readings — 2 live SSTable(s)")
        .contains("SSTable generation 1")
        .contains("SSTable generation 2")
        .containsPattern("Files: tables/readings-\\d+/nb-1-\\w+\\.db")
        .contains("\tPartitions: 2")
        .contains("\tRows: 51")
        .contains("\tMinimum timestamp: ")
        .contains("(2026-09-01T00:00:00.000")
        .contains("\tMaximum local deletion time: never (holds live data that never expires")
        .contains("\tTombstones (incl. expiring cells): ")
        .contains("\tFirst partition key: [")
        .contains("\tLevel: 0");
  }
}
