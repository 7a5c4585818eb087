package dev.talus.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An ANN query with a page size below its LIMIT through the Java driver: as Cassandra 5.0 answers
 * it, every row comes in the first page, with no paging state, and the driver gets Cassandra's
 * warning that top-k queries are not paged.
 */
class AnnPagingDriverTest {
  @TempDir Path dir;

  @Test
  void aPageSizeBelowTheLimitGivesEveryRowInOnePageWithTheWarning() {
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build());
        TalusServer server = TalusServer.start(db);
        CqlSession session = DriverSessions.connect(server)) {
      session.execute(
          "CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy',"
              + " 'replication_factor': 1}");
      session.execute("CREATE TABLE app.items (id int PRIMARY KEY, v vector<float, 2>)");
      session.execute(
          "CREATE INDEX ON app.items (v) USING 'sai'"
              + " WITH OPTIONS = {'similarity_function': 'euclidean'}");
      for (int i = 0; i < 12; i++) {
        session.execute("INSERT INTO app.items (id, v) VALUES (" + i + ", [" + i + ", 0])");
      }
      ResultSet rs =
          session.execute(
              SimpleStatement.newInstance(
                      "SELECT id FROM app.items ORDER BY v ANN OF [0, 0] LIMIT 8")
                  .setPageSize(3));
      assertThat(rs.getAvailableWithoutFetching()).isEqualTo(8);
      assertThat(rs.getExecutionInfo().getPagingState()).isNull();
      assertThat(rs.getExecutionInfo().getWarnings())
          .containsExactly(
              "Top-K queries do not support paging and the page size is set to 3, which is less"
                  + " than LIMIT 8. The page size has been set to 8 to match the LIMIT.");
      assertThat(rs.all()).extracting(r -> r.getInt("id")).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    }
  }
}
