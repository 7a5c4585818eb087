package dev.talus.bench.ycsb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.TalusDb;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * Runs the YCSB runner at a tiny scale so the bindings cannot rot: workloads A, C and E on both
 * engines, a warm-up pass and two repetitions, no failed operation, E skipped on Talus only, the
 * data cleaned up. No timing is checked.
 */
class RunYcsbTest {
  @Test
  void tinyRunPrintsBothEnginesWithoutFailures(@TempDir Path data) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    List<RunYcsb.Result> results;
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      results =
          RunYcsb.run(
              RunYcsb.Config.parse(
                  "--records",
                  "500",
                  "--ops",
                  "500",
                  "--threads",
                  "2",
                  "--workloads",
                  "a,c,e",
                  "--reps",
                  "2",
                  "--dir",
                  data.toString()),
              out);
    }
    String table = bytes.toString(StandardCharsets.UTF_8);

    assertThat(results).as("3 workloads x 2 engines x 2 repetitions").hasSize(12);
    for (RunYcsb.Result r : results) {
      assertThat(r.skipped()).as("%s %s", r.workload(), r.engine()).isNull();
      assertThat(r.load().failures()).as("load %s %s", r.workload(), r.engine()).isZero();
      assertThat(r.run().failures()).as("run %s %s", r.workload(), r.engine()).isZero();
      assertThat(r.run().opsPerSecond()).isPositive();
    }
    assertThat(table)
        .contains("| A | talus |", "| A | rocksdb |", "| C | talus |", "| C | rocksdb |")
        .contains("| E | rocksdb |", "| E | talus |")
        .doesNotContain("not run")
        .contains("Workload E scans in key order on RocksDB and in token order on Talus")
        .contains("warm-up pass (discarded)", "repetition 2/2");
    try (Stream<Path> left = Files.list(data)) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void talusInstancesShareOneDatabasePerDirectory(@TempDir Path dir) throws Exception {
    Properties p = new Properties();
    p.setProperty(TalusYcsbClient.DIR, dir.toString());
    DB first = new TalusYcsbClient();
    DB second = new TalusYcsbClient();
    first.setProperties(p);
    second.setProperties(p);
    first.init();
    second.init();
    assertThat(TalusYcsbClient.DATABASES.users(dir)).isEqualTo(2);

    Map<String, ByteIterator> values = new HashMap<>();
    values.put("field0", new StringByteIterator("a"));
    values.put("field3", new StringByteIterator("b"));
    assertThat(first.insert("usertable", "user1", values)).isEqualTo(Status.OK);
    first.cleanup();

    Map<String, ByteIterator> read = new HashMap<>();
    assertThat(second.read("usertable", "user1", null, read)).isEqualTo(Status.OK);
    assertThat(read.keySet()).containsExactlyInAnyOrder("field0", "field3");
    assertThat(read.get("field3").toString()).isEqualTo("b");
    Map<String, ByteIterator> one = new HashMap<>();
    assertThat(second.read("usertable", "user1", Set.of("field0"), one)).isEqualTo(Status.OK);
    assertThat(one.keySet()).containsExactly("field0");
    assertThat(second.read("usertable", "absent", null, new HashMap<>()))
        .isEqualTo(Status.NOT_FOUND);
    second.cleanup();

    assertThat(TalusYcsbClient.DATABASES.users(dir)).isZero();
    // the last cleanup closed the database: its directory lock is free again
    TalusDb.open(TalusYcsbClient.options(dir, dev.talus.CommitLogSync.PERIODIC)).close();
  }

  /** As YCSB's Cassandra binding: the records whose tokens are at or after the start key's. */
  @Test
  void talusScansReadRecordsInTokenOrderFromTheStartKey(@TempDir Path dir) throws Exception {
    Properties p = new Properties();
    p.setProperty(TalusYcsbClient.DIR, dir.toString());
    DB client = new TalusYcsbClient();
    client.setProperties(p);
    client.init();
    try {
      List<String> keys = new java.util.ArrayList<>();
      for (int i = 0; i < 40; i++) {
        String key = "user" + i;
        keys.add(key);
        assertThat(client.insert("usertable", key, Map.of("field0", new StringByteIterator(key))))
            .isEqualTo(Status.OK);
      }
      TalusDb db = TalusYcsbClient.DATABASES.acquire(dir, d -> null);
      dev.talus.Table t = db.table("usertable");
      keys.sort(java.util.Comparator.comparingLong(k -> t.token(k)));
      TalusYcsbClient.DATABASES.release(dir);
      for (int start = 0; start < keys.size(); start += 7) {
        Vector<HashMap<String, ByteIterator>> got = new Vector<>();
        assertThat(client.scan("usertable", keys.get(start), 5, Set.of("field0"), got))
            .isEqualTo(Status.OK);
        List<String> expected = keys.subList(start, Math.min(keys.size(), start + 5));
        assertThat(got.stream().map(m -> m.get("field0").toString()).toList())
            .as("scan from %s", keys.get(start))
            .isEqualTo(expected);
      }
    } finally {
      client.cleanup();
    }
  }

  @Test
  void rocksRecordsRoundTripAndUpdateMerges(@TempDir Path dir) throws Exception {
    Properties p = new Properties();
    p.setProperty(RocksYcsbClient.DIR, dir.toString());
    DB db = new RocksYcsbClient();
    db.setProperties(p);
    db.init();
    try {
      Map<String, ByteIterator> values = new HashMap<>();
      values.put("field0", new StringByteIterator("a"));
      values.put("field1", new StringByteIterator("b"));
      assertThat(db.insert("usertable", "user1", values)).isEqualTo(Status.OK);
      assertThat(
              db.insert(
                  "usertable",
                  "user2",
                  new HashMap<>(Map.of("field0", new StringByteIterator("c")))))
          .isEqualTo(Status.OK);
      assertThat(
              db.update(
                  "usertable",
                  "user1",
                  new HashMap<>(Map.of("field1", new StringByteIterator("z")))))
          .isEqualTo(Status.OK);

      Map<String, ByteIterator> read = new HashMap<>();
      assertThat(db.read("usertable", "user1", null, read)).isEqualTo(Status.OK);
      assertThat(read.get("field0").toString()).isEqualTo("a");
      assertThat(read.get("field1").toString()).isEqualTo("z");

      Vector<HashMap<String, ByteIterator>> scanned = new Vector<>();
      assertThat(db.scan("usertable", "user1", 5, Set.of("field0"), scanned)).isEqualTo(Status.OK);
      assertThat(scanned).hasSize(2);
      assertThat(scanned.get(1).get("field0").toString()).isEqualTo("c");
    } finally {
      db.cleanup();
    }
  }
}
