package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ALTER TYPE (add a field, rename fields) and DROP TYPE through the public API: values stored
 * before (in memtables and SSTables, frozen and not, nested in other types and collections) read
 * back with the new field null or under the new names, every change survives a reopen, and the
 * refusals carry Cassandra's messages.
 */
class AlterDropTypeTest {
  @TempDir Path dir;

  private TalusDb open() {
    return TalusDb.open(
        TalusOptions.builder(dir)
            .clock(ManualClock.startingAtDefault())
            .backgroundCompaction(false)
            .build());
  }

  private static final UserType ADDRESS =
      UserType.builder("address")
          .field("street", DataType.TEXT)
          .field("city", DataType.TEXT)
          .build();

  /** Creates address, person (nesting address) and table people using both three ways. */
  private static Table create(TalusDb db) {
    db.createType(ADDRESS);
    UserType person =
        db.createType(
            UserType.builder("person")
                .field("name", DataType.TEXT)
                .field("home", DataType.frozen(DataType.udt(ADDRESS)))
                .build());
    return db.createTable(
        TableSchema.builder("people")
            .partitionKey("id", DataType.INT)
            .column("addr", DataType.udt(ADDRESS))
            .column("faddr", DataType.frozen(DataType.udt(ADDRESS)))
            .column("olds", DataType.list(DataType.frozen(DataType.udt(ADDRESS))))
            .column("who", DataType.frozen(DataType.udt(person)))
            .build());
  }

  private static void write(Table t, int id, String street) {
    Map<String, Object> a = Map.of("street", street, "city", "Lyon");
    t.insert()
        .value("id", id)
        .value("addr", a)
        .value("faddr", a)
        .value("olds", List.of(a))
        .value("who", Map.of("name", "n" + id, "home", a))
        .execute();
  }

  private static ResultRow row(Table t, int id) {
    return t.select().eq("id", id).execute().iterator().next();
  }

  @Test
  void anAddedFieldReadsNullInOldValuesAndTakesNewOnesAcrossReopen() {
    try (TalusDb db = open()) {
      Table t = create(db);
      write(t, 1, "flushed");
      t.flush();
      write(t, 2, "in memory");
      UserType next = db.addTypeField("address", "zip", DataType.INT);
      assertThat(next.fieldNames()).containsExactly("street", "city", "zip");
      assertThat(db.type("address")).contains(next);
      assertThat(db.type("person").orElseThrow().fieldType("home").userType()).isEqualTo(next);
      assertThat(t.schema().column("addr").orElseThrow().type().userType()).isEqualTo(next);
      for (int id : new int[] {1, 2}) {
        ResultRow r = row(t, id);
        UdtValue addr = (UdtValue) r.get("addr");
        UdtValue faddr = (UdtValue) r.get("faddr");
        assertThat(addr.type()).isEqualTo(next);
        assertThat(addr.get("zip")).isNull();
        assertThat(faddr.get("zip")).isNull();
        assertThat(faddr.get("street")).isEqualTo(id == 1 ? "flushed" : "in memory");
        assertThat(((UdtValue) ((List<?>) r.get("olds")).get(0)).get("zip")).isNull();
        UdtValue home = (UdtValue) ((UdtValue) r.get("who")).get("home");
        assertThat(home.get("city")).isEqualTo("Lyon");
        assertThat(home.get("zip")).isNull();
      }
      t.update().where("id", 1).put("addr", "zip", 69001).execute();
      t.insert()
          .value("id", 3)
          .value("faddr", Map.of("street", "new", "city", "Paris", "zip", 75001))
          .execute();
      t.compact();
    }
    try (TalusDb db = open()) {
      Table t = db.table("people");
      assertThat(db.type("address").orElseThrow().fieldNames())
          .containsExactly("street", "city", "zip");
      assertThat(((UdtValue) row(t, 1).get("addr")).get("zip")).isEqualTo(69001);
      assertThat(((UdtValue) row(t, 1).get("addr")).get("street")).isEqualTo("flushed");
      assertThat(((UdtValue) row(t, 3).get("faddr")).get("zip")).isEqualTo(75001);
      assertThat(((UdtValue) row(t, 2).get("faddr")).get("zip")).isNull();
    }
  }

  @Test
  void renamedFieldsKeepTheirDataAcrossReopen() {
    try (TalusDb db = open()) {
      Table t = create(db);
      write(t, 1, "Rue A");
      t.flush();
      Map<String, String> renames = new LinkedHashMap<>();
      renames.put("street", "road");
      renames.put("city", "town");
      UserType next = db.renameTypeFields("address", renames);
      assertThat(next.fieldNames()).containsExactly("road", "town");
      assertThat(((UdtValue) row(t, 1).get("addr")).get("road")).isEqualTo("Rue A");
      assertThat(((UdtValue) row(t, 1).get("faddr")).get("town")).isEqualTo("Lyon");
      t.update().where("id", 1).put("addr", "town", "Nice").execute();
    }
    try (TalusDb db = open()) {
      UdtValue addr = (UdtValue) row(db.table("people"), 1).get("addr");
      assertThat(addr.toMap()).containsEntry("road", "Rue A").containsEntry("town", "Nice");
    }
  }

  @Test
  void alterRefusesWithCassandrasMessages() {
    try (TalusDb db = open()) {
      create(db);
      assertThatThrownBy(() -> db.addTypeField("address", "city", DataType.TEXT))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("Cannot add field city to type address: a field with name city");
      assertThatThrownBy(
              () ->
                  db.addTypeField(
                      "address", "owner", DataType.frozen(DataType.udt(db.type("person").get()))))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("as it would create a circular reference");
      assertThatThrownBy(() -> db.addTypeField("nope", "x", DataType.INT))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("Type 'nope' doesn't exist");
      assertThatThrownBy(() -> db.renameTypeFields("address", Map.of("zzz", "y")))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("Unknown field zzz in user type address");
      assertThatThrownBy(() -> db.renameTypeFields("address", Map.of("street", "city")))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("Duplicate field name city in type address");
      db.createTable(
          TableSchema.builder("by_address")
              .partitionKey("a", DataType.frozen(DataType.udt(ADDRESS)))
              .column("v", DataType.INT)
              .build());
      assertThatThrownBy(() -> db.addTypeField("address", "zip", DataType.INT))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("used in a primary key or as a set element or map key")
          .hasMessageContaining("by_address.a");
      db.dropTable("by_address");
      db.createTable(
          TableSchema.builder("tags")
              .partitionKey("id", DataType.INT)
              .column("s", DataType.set(DataType.frozen(DataType.udt(ADDRESS))))
              .build());
      assertThatThrownBy(() -> db.addTypeField("address", "zip", DataType.INT))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("tags.s");
      assertThat(db.type("address").orElseThrow()).isEqualTo(ADDRESS); // nothing changed
    }
  }

  @Test
  void dropIsRefusedWhileATypeOrATableUsesIt() {
    try (TalusDb db = open()) {
      Table t = create(db);
      assertThatThrownBy(() -> db.dropType("address"))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessage("Cannot drop user type 'address' as it is still used by user types person");
      assertThatThrownBy(() -> db.dropType("person"))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining(
              "Cannot drop user type 'person' as it is still used by tables people");
      t.alter().dropColumn("who").apply();
      assertThatThrownBy(() -> db.dropType("person"))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("still used by tables people")
          .hasMessageContaining("a column dropped from a table still counts");
      db.dropTable("people");
      db.dropType("person");
      assertThat(db.dropTypeIfExists("person")).isFalse();
      assertThatThrownBy(() -> db.dropType("person"))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("Type 'person' doesn't exist");
      assertThat(db.dropTypeIfExists("address")).isTrue();
      assertThat(db.types()).isEmpty();
    }
    try (TalusDb db = open()) {
      assertThat(db.types()).isEmpty();
      db.createType(ADDRESS); // the name is free again
    }
  }
}
