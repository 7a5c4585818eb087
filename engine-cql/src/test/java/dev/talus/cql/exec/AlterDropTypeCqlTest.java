package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.UdtValue;
import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.SchemaChange;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ALTER TYPE ... ADD}, {@code ALTER TYPE ... RENAME} and {@code DROP TYPE} in CQL, with
 * Cassandra's messages, across a reopen.
 */
class AlterDropTypeCqlTest {
  @TempDir Path dir;

  private static UdtValue home(CqlDb a, int id) {
    return (UdtValue)
        a.cql
            .execute("SELECT home FROM talus.people WHERE id = " + id)
            .one()
            .orElseThrow()
            .get("home");
  }

  @Test
  void addRenameAndDropThroughCql() {
    try (CqlDb a = new CqlDb(dir)) {
      a.cql.executeScript(
          """
          CREATE TYPE address (street text, city text);
          CREATE TABLE people (id int PRIMARY KEY, home frozen<address>, cur address);
          INSERT INTO people (id, home, cur) VALUES (1, {street: 'Rue A', city: 'Lyon'}, {city: 'Lyon'});
          """);
      a.db.table("people").flush();
      SchemaChange c =
          a.cql.execute("ALTER TYPE talus.address ADD zip int").schemaChange().orElseThrow();
      assertThat(c.change()).isEqualTo(SchemaChange.Change.UPDATED);
      assertThat(c.target()).isEqualTo(SchemaChange.Target.TYPE);
      assertThat(home(a, 1).get("zip")).isNull();
      assertThat(a.cql.execute("ALTER TYPE address ADD IF NOT EXISTS zip int").schemaChange())
          .isEmpty();
      a.cql.execute(
          "INSERT INTO people (id, home) VALUES (2, {street: 'Rue B', city: 'Nice', zip: 6000})");
      a.cql.execute("ALTER TYPE address RENAME street TO road AND city TO town");
      assertThat(home(a, 1).get("road")).isEqualTo("Rue A");
      a.cql.execute("UPDATE people SET cur.town = 'Paris' WHERE id = 1");
      assertThat(a.cql.execute("ALTER TYPE address RENAME IF EXISTS nope TO x").schemaChange())
          .isEmpty();
      assertThat(a.cql.execute("ALTER TYPE IF EXISTS nope ADD x int").schemaChange()).isEmpty();
      assertThatThrownBy(() -> a.cql.execute("ALTER TYPE address ADD zip text"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("a field with name zip already exists");
      assertThatThrownBy(() -> a.cql.execute("ALTER TYPE address ALTER zip TYPE bigint"))
          .hasMessageContaining("Altering field types is no longer supported");
      assertThatThrownBy(() -> a.cql.execute("ALTER TYPE nope ADD x int"))
          .hasMessageContaining("Type 'talus.nope' doesn't exist");
      assertThatThrownBy(() -> a.cql.execute("DROP TYPE address"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining(
              "Cannot drop user type 'address' as it is still used by tables people");
    }
    try (CqlDb a = new CqlDb(dir)) {
      assertThat(home(a, 1).toMap()).containsEntry("road", "Rue A").containsEntry("zip", null);
      assertThat(home(a, 2).get("zip")).isEqualTo(6000);
      UdtValue cur =
          (UdtValue)
              a.cql.execute("SELECT cur FROM people WHERE id = 1").one().orElseThrow().get("cur");
      assertThat(cur.get("town")).isEqualTo("Paris");
      assertThat(a.cql.execute("DESCRIBE TYPE talus.address").one().orElseThrow().getString(3))
          .isEqualTo(
              "CREATE TYPE IF NOT EXISTS talus.address (\n    road text,\n    town text,\n    zip int\n);");
      a.cql.execute("DROP TABLE people");
      SchemaChange d = a.cql.execute("DROP TYPE address").schemaChange().orElseThrow();
      assertThat(d.change()).isEqualTo(SchemaChange.Change.DROPPED);
      assertThat(a.cql.execute("DROP TYPE IF EXISTS address").schemaChange()).isEmpty();
    }
    try (CqlDb a = new CqlDb(dir)) {
      assertThat(a.db.types()).isEmpty();
    }
  }
}
