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
      if (r.workload() == 'e' && r.engine() == RunYcsb.Engine.TALUS) {
        assertThat(r.skipped()).contains("NOT_IMPLEMENTED");
        continue;
      }
      assertThat(r.skipped()).as("%s %s", r.workload(), r.engine()).isNull();
      assertThat(r.load().failures()).as("load %s %s", r.workload(), r.engine()).isZero();
      assertThat(r.run().failures()).as("run %s %s", r.workload(), r.engine()).isZero();
      assertThat(r.run().opsPerSecond()).isPositive();
    }
    assertThat(table)
        .contains("| A | talus |", "| A | rocksdb |", "| C | talus |", "| C | rocksdb |")
        .contains("| E | rocksdb |", "| E | talus | not run")
        .contains("Workload E runs on RocksDB only")
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
    assertThat(second.scan("usertable", "user1", 10, null, new Vector<>()))
        .isEqualTo(Status.NOT_IMPLEMENTED);
    second.cleanup();

    assertThat(TalusYcsbClient.DATABASES.users(dir)).isZero();
    // the last cleanup closed the database: its directory lock is free again
    TalusDb.open(TalusYcsbClient.options(dir, dev.talus.CommitLogSync.PERIODIC)).close();
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
