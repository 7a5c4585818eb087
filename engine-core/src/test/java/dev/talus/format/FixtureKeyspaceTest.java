package dev.talus.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.KeyspaceSchema;
import dev.talus.ManualClock;
import dev.talus.Table;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data directory from before keyspaces (schema file version 2) opens with its tables in the
 * default keyspace, keeps them there once the schema file is rewritten in the current version, and
 * reads back the same.
 */
class FixtureKeyspaceTest {
  @TempDir Path dir;

  @BeforeEach
  void copyFixture() throws IOException, URISyntaxException {
    Path source = Path.of(FixtureKeyspaceTest.class.getResource(FormatFixture.RESOURCE).toURI());
    FormatFixtureWriter.copyWithoutLock(source, dir);
  }

  private TalusDb open(String defaultKeyspace) {
    return TalusDb.open(
        TalusOptions.builder(dir)
            .clock(new ManualClock(FormatFixture.READ_AT))
            .backgroundCompaction(false)
            .defaultKeyspace(defaultKeyspace)
            .build());
  }

  @Test
  void oldTablesLandInTheDefaultKeyspaceAndStayThere() {
    String before;
    try (TalusDb db = open("legacy")) {
      assertThat(db.keyspaces()).extracting(KeyspaceSchema::name).containsExactly("legacy");
      assertThat(db.tables()).extracting(Table::keyspace).containsOnly("legacy");
      before = FormatFixture.canonical(db);
      // a schema change rewrites schema.db in the current version
      db.createKeyspace(KeyspaceSchema.builder("other").build());
    }
    // opened with another default, the old tables keep the keyspace they were given
    try (TalusDb db = open("talus")) {
      assertThat(db.keyspaces())
          .extracting(KeyspaceSchema::name)
          .containsExactly("legacy", "other");
      assertThat(db.table("legacy.events").keyspace()).isEqualTo("legacy");
      assertThat(db.findTable("events")).isEmpty();
    }
    try (TalusDb db = open("legacy")) {
      assertThat(FormatFixture.canonical(db)).isEqualTo(before);
    }
  }
}
