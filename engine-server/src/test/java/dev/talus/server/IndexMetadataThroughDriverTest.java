package dev.talus.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.schema.IndexKind;
import com.datastax.oss.driver.api.core.metadata.schema.IndexMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java driver's schema metadata shows Talus's storage-attached indexes, read from {@code
 * system_schema.indexes}: name, kind, target, class and options, and a query on a collection index
 * runs through the driver without ALLOW FILTERING.
 */
class IndexMetadataThroughDriverTest {
  @TempDir Path dir;

  @Test
  void theDriversMetadataShowsTheIndexesWithTargetAndOptions() {
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build());
        TalusServer server = TalusServer.start(db);
        CqlSession session = DriverSessions.connect(server)) {
      session.execute(
          "CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy',"
              + " 'replication_factor': 1}");
      session.execute(
          "CREATE TABLE app.users (id int PRIMARY KEY, name text, tags set<text>,"
              + " attrs map<text, int>)");
      session.execute(
          "CREATE INDEX users_by_name ON app.users (name) USING 'sai'"
              + " WITH OPTIONS = {'case_sensitive': 'false'}");
      session.execute("CREATE INDEX ON app.users (tags) USING 'sai'");
      session.execute("CREATE INDEX users_by_attr ON app.users (keys(attrs)) USING 'sai'");
      assertThat(session.checkSchemaAgreement()).isTrue();
      session.refreshSchema();
      TableMetadata t =
          session.getMetadata().getKeyspace("app").orElseThrow().getTable("users").orElseThrow();
      assertThat(t.getIndexes().keySet())
          .extracting(CqlIdentifier::asInternal)
          .containsExactlyInAnyOrder("users_by_name", "users_tags_idx", "users_by_attr");
      IndexMetadata byName = t.getIndexes().get(CqlIdentifier.fromInternal("users_by_name"));
      assertThat(byName.getKind()).isEqualTo(IndexKind.CUSTOM);
      assertThat(byName.getTarget()).isEqualTo("name");
      assertThat(byName.getClassName())
          .contains("org.apache.cassandra.index.sai.StorageAttachedIndex");
      assertThat(byName.getOptions()).containsEntry("case_sensitive", "false");
      assertThat(t.getIndexes().get(CqlIdentifier.fromInternal("users_tags_idx")).getTarget())
          .isEqualTo("values(tags)");
      assertThat(t.getIndexes().get(CqlIdentifier.fromInternal("users_by_attr")).getTarget())
          .isEqualTo("keys(attrs)");
      session.execute(
          "INSERT INTO app.users (id, name, tags, attrs) VALUES (1, 'Ada', {'x'}, {'k': 1})");
      session.execute(
          "INSERT INTO app.users (id, name, tags, attrs) VALUES (2, 'Bob', {'y'}, {'j': 2})");
      assertThat(
              session.execute("SELECT id FROM app.users WHERE tags CONTAINS 'x'").one().getInt(0))
          .isEqualTo(1);
      assertThat(
              session
                  .execute("SELECT id FROM app.users WHERE attrs CONTAINS KEY 'j'")
                  .one()
                  .getInt(0))
          .isEqualTo(2);
      assertThat(session.execute("SELECT id FROM app.users WHERE name = 'ADA'").one().getInt(0))
          .isEqualTo(1);
    }
  }
}
