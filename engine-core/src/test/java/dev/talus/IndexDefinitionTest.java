package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Secondary index definitions through the public API: created and dropped durably, kept across
 * reopen and truncate, gone with their table, unique by name within a keyspace, and refused on what
 * Talus cannot index yet.
 */
class IndexDefinitionTest {
  @TempDir Path dir;

  private TalusDb open() {
    return TalusDb.open(
        TalusOptions.builder(dir)
            .clock(ManualClock.startingAtDefault())
            .backgroundCompaction(false)
            .build());
  }

  private static TableSchema schema(String name) {
    return TableSchema.builder(name)
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT)
        .column("a", DataType.TEXT)
        .column("b", DataType.BIGINT)
        .column("ts", DataType.TIMESTAMP)
        .column("l", DataType.list(DataType.INT))
        .column("d", DataType.DURATION)
        .staticColumn("s", DataType.TEXT)
        .build();
  }

  @Test
  void anIndexIsKeptAcrossReopenAndDropsDurably() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema("t"));
      t.createIndex(IndexDef.sai("t_a", "a"));
      t.createIndex(IndexDef.sai("t_b", "b"));
      assertThat(t.indexes()).containsExactly(IndexDef.sai("t_a", "a"), IndexDef.sai("t_b", "b"));
    }
    try (TalusDb db = open()) {
      Table t = db.table("t");
      assertThat(t.indexes()).containsExactly(IndexDef.sai("t_a", "a"), IndexDef.sai("t_b", "b"));
      t.dropIndex("t_a");
      assertThat(t.indexes()).containsExactly(IndexDef.sai("t_b", "b"));
    }
    try (TalusDb db = open()) {
      assertThat(db.table("t").indexes()).containsExactly(IndexDef.sai("t_b", "b"));
    }
  }

  @Test
  void ifNotExistsAndIfExistsLeaveTheSchemaAlone() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema("t"));
      assertThat(t.createIndex(IndexDef.sai("i", "a"), true)).isTrue();
      assertThat(t.createIndex(IndexDef.sai("i", "b"), true)).isFalse();
      assertThat(t.createIndex(IndexDef.sai("other", "a"), true)).isFalse();
      assertThat(t.indexes()).containsExactly(IndexDef.sai("i", "a"));
      assertThat(t.dropIndex("nope", true)).isFalse();
      assertThat(t.dropIndex("i", true)).isTrue();
      assertThat(t.indexes()).isEmpty();
    }
  }

  @Test
  void namesAreUniqueWithinAKeyspaceAndAColumnHasOneIndex() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema("t"));
      Table u = db.createTable(schema("u"));
      t.createIndex(IndexDef.sai("i", "a"));
      assertThatThrownBy(() -> u.createIndex(IndexDef.sai("i", "a")))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessage("Index 'i' already exists");
      assertThatThrownBy(() -> t.createIndex(IndexDef.sai("j", "a")))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessage("Index j is a duplicate of existing index i");
      assertThatThrownBy(() -> u.dropIndex("i"))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessage("Index 'i' doesn't exist on table u");
      db.createKeyspace(KeyspaceSchema.builder("other").build());
      Table v = db.createTable(schema("v").toBuilder().keyspace("other").build());
      v.createIndex(IndexDef.sai("i", "a"));
      assertThat(v.indexes()).containsExactly(IndexDef.sai("i", "a"));
    }
  }

  @Test
  void whatTalusCannotIndexYetIsRefused() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema("t"));
      assertRefused(t, "p", "Cannot create secondary index on the only partition key column p");
      assertRefused(t, "d", "Secondary indexes are not supported on duration columns");
      assertRefused(t, "zz", "Column 'zz' doesn't exist in table t");
      assertThatThrownBy(() -> IndexDef.sai("bad-name", "a"))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("Index name 'bad-name' is invalid");
      assertThatThrownBy(
              () -> t.createIndex(IndexDef.sai("i_k", "a").withTarget(IndexDef.Target.KEYS)))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageStartingWith(
              "Cannot create keys() index on a. Non-collection columns only support simple indexes");
      assertThatThrownBy(() -> t.createIndex(IndexDef.sai("i_o", "a").withOption("zz", "1")))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageStartingWith(
              "Properties specified [zz] are not understood by StorageAttachedIndex");
      assertThat(t.indexes()).isEmpty();
    }
  }

  @Test
  void targetAndOptionsArePartOfTheDefinition() {
    IndexDef plain = IndexDef.sai("i", "a");
    assertThat(plain.target()).isEqualTo(IndexDef.Target.SIMPLE);
    assertThat(plain.options()).isEmpty();
    IndexDef keyed = plain.withTarget(IndexDef.Target.ENTRIES).withOption("x", "1");
    assertThat(keyed).isNotEqualTo(plain);
    assertThat(keyed.withOptions(java.util.Map.of()).withTarget(IndexDef.Target.SIMPLE))
        .isEqualTo(plain);
    assertThat(IndexDef.Target.ENTRIES.cql("m")).isEqualTo("entries(m)");
    assertThat(IndexDef.Target.SIMPLE.cql("m")).isEqualTo("m");
    assertThatThrownBy(() -> keyed.options().put("y", "2"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  private static void assertRefused(Table t, String column, String message) {
    assertThatThrownBy(() -> t.createIndex(IndexDef.sai("i_" + column, column)))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageStartingWith(message);
  }

  @Test
  void truncateKeepsTheIndexesAndDropTableRemovesThem() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema("t"));
      t.createIndex(IndexDef.sai("i", "a"));
      t.truncate();
      assertThat(t.indexes()).containsExactly(IndexDef.sai("i", "a"));
    }
    try (TalusDb db = open()) {
      assertThat(db.table("t").indexes()).containsExactly(IndexDef.sai("i", "a"));
      db.dropTable("t");
      Table t = db.createTable(schema("t"));
      assertThat(t.indexes()).isEmpty();
      t.createIndex(IndexDef.sai("i", "a")); // the name is free again
    }
  }

  @Test
  void anIndexedColumnCannotBeDroppedUntilItsIndexIs() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema("t"));
      t.createIndex(IndexDef.sai("i", "a"));
      assertThatThrownBy(() -> t.alter().dropColumn("a").apply())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageStartingWith(
              "Cannot drop column a because it has dependent secondary indexes (i)");
      t.dropIndex("i");
      t.alter().dropColumn("a").apply();
      assertThat(t.schema().column("a")).isEmpty();
      assertThat(t.indexes()).isEqualTo(List.of());
    }
  }
}
