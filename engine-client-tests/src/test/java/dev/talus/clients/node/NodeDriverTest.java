package dev.talus.clients.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import dev.talus.testkit.server.TalusServerExtension;
import dev.talus.testkit.server.TalusTestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Node.js {@code cassandra-driver} (from npm) against Talus: {@code
 * src/test/node/driver-check.js} connects, writes through prepared statements and pages through a
 * partition by hand and with the driver's auto-paging. Runs under {@code mvn -Pnode}, which
 * installs the driver into {@code target/node} and sets {@code talus.node.modules}; skipped
 * otherwise.
 */
@EnabledIfSystemProperty(named = "talus.node.modules", matches = ".+")
class NodeDriverTest {
  @RegisterExtension
  static final TalusServerExtension talus = TalusServerExtension.create().keyspace("shop");

  @TempDir Path tmp;

  @Test
  void nodeDriverConnectsPreparesAndPages(TalusTestServer server, CqlSession session)
      throws Exception {
    session.execute("CREATE TABLE events (room text, at int, body text, PRIMARY KEY (room, at))");
    Path out = tmp.resolve("node.out");
    ProcessBuilder pb =
        new ProcessBuilder(
            "node",
            Path.of("src/test/node/driver-check.js").toAbsolutePath().toString(),
            Integer.toString(server.address().getPort()));
    pb.environment().put("NODE_PATH", System.getProperty("talus.node.modules"));
    pb.redirectErrorStream(true);
    pb.redirectOutput(out.toFile());
    Process node = pb.start();
    boolean exited = node.waitFor(300, TimeUnit.SECONDS);
    if (!exited) {
      node.destroyForcibly();
    }
    String printed = Files.readString(out, StandardCharsets.UTF_8);
    System.out.println("[node] " + printed);
    assertThat(exited).as("node finished: %s", printed).isTrue();
    assertThat(node.exitValue()).as("node's exit code: %s", printed).isZero();
    String result = printed.lines().filter(l -> l.startsWith("{")).findFirst().orElse("");
    assertThat(result)
        .contains("\"dataCenter\":\"datacenter1\"")
        .contains("\"body42\":\"message 42\"")
        .contains("\"pages\":7") // 250 rows, 40 a page
        .contains("\"rows\":250")
        .contains("\"inOrder\":true")
        .contains("\"streamed\":250");
    // what node wrote is in the database the test holds
    assertThat(session.execute("SELECT body FROM events WHERE room = 'lobby' AND at = 249").one())
        .isNotNull()
        .satisfies(r -> assertThat(r.getString("body")).isEqualTo("message 249"));
  }
}
