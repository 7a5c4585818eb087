package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.cql.CqlResult;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SmokeTest {
  @TempDir Path dir;

  @Test
  void basics() {
    try (CqlDb t = new CqlDb(dir)) {
      var cql = t.cql;
      cql.execute(
          "CREATE KEYSPACE chat WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
      cql.execute("USE chat");
      cql.execute(
          "CREATE TABLE m (room text, at timestamp, body text, PRIMARY KEY (room, at)) WITH CLUSTERING ORDER BY (at DESC)");
      cql.execute("INSERT INTO m (room, at, body) VALUES ('a', '2026-09-01 10:00:00', 'hi')");
      cql.execute(
          "INSERT INTO m (room, at, body) VALUES (?, ?, ?) USING TTL 100",
          "a",
          java.time.Instant.parse("2026-09-01T11:00:00Z"),
          "yo");
      CqlResult r =
          cql.execute(
              "SELECT room, at, body, writetime(body), ttl(body), token(room) FROM m WHERE room = 'a'");
      System.out.println(r.columns());
      r.forEach(System.out::println);
      System.out.println(cql.execute("SELECT JSON * FROM m WHERE room = 'a'").rows());
      System.out.println(cql.describe());
      System.out.println(
          cql.execute("SELECT * FROM system_schema.columns WHERE keyspace_name = 'chat'").rows());
      System.out.println(cql.execute("SELECT * FROM system.local").rows());
      assertThat(r.size()).isEqualTo(2);
    }
  }
}
