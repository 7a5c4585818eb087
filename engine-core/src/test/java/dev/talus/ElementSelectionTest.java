package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading parts of collections and user types (Cassandra's {@code m['k']}, {@code s['a'..'c']},
 * {@code u.f}) and filtering on them with {@code CONTAINS} / {@code CONTAINS KEY} (opt-in filtering
 * only, inside the named partitions), on non-frozen and frozen collections.
 */
class ElementSelectionTest {
  @TempDir Path dir;
  private TalusDb db;
  private Table t;

  static final UserType ADDRESS =
      UserType.builder("address").field("street", DataType.TEXT).field("zip", DataType.INT).build();

  @BeforeEach
  void open() {
    db = TalusDb.open(TalusOptions.builder(dir).build());
    db.createType(ADDRESS);
    t =
        db.createTable(
            TableSchema.builder("v")
                .partitionKey("k", DataType.INT)
                .clusteringColumn("c", DataType.INT)
                .column("tags", DataType.set(DataType.TEXT))
                .column("m", DataType.map(DataType.TEXT, DataType.INT))
                .column("fm", DataType.frozen(DataType.map(DataType.TEXT, DataType.INT)))
                .column("l", DataType.list(DataType.INT))
                .column("home", DataType.udt(ADDRESS))
                .column("v", DataType.INT)
                .build());
    t.insert()
        .value("k", 1)
        .value("c", 1)
        .value("tags", Set.of("a", "b", "c", "d"))
        .value("m", Map.of("x", 1, "y", 2, "z", 3))
        .value("fm", Map.of("x", 1))
        .value("l", List.of(5, 6))
        .value("home", Map.of("street", "Main St", "zip", 10))
        .execute();
    t.insert().value("k", 1).value("c", 2).value("tags", Set.of("b")).value("v", 2).execute();
    t.flush();
  }

  @AfterEach
  void close() {
    db.close();
  }

  private ResultRow first(Select s) {
    return s.execute().rows().get(0);
  }

  @Test
  void elementsRangesAndFieldsAreSelectedAndNamedAsInCql() {
    ResultRow r =
        first(
            t.select()
                .eq("k", 1)
                .eq("c", 1)
                .columns("c")
                .element("m", "y")
                .element("m", "nope")
                .element("tags", "b")
                .elementRange("tags", "b", "c")
                .elementRange("m", null, "y")
                .element("fm", "x")
                .field("home", "zip"));
    assertThat(r.columns())
        .containsExactly(
            "c",
            "m['y']",
            "m['nope']",
            "tags['b']",
            "tags['b'..'c']",
            "m[..'y']",
            "fm['x']",
            "home.zip");
    assertThat(r.get("m['y']")).isEqualTo(2);
    assertThat(r.get("m['nope']")).isNull();
    assertThat(r.get("tags['b']")).isEqualTo("b");
    assertThat(r.get("tags['b'..'c']")).isEqualTo(Set.of("b", "c"));
    assertThat(r.get("m[..'y']")).isEqualTo(Map.of("x", 1, "y", 2));
    assertThat(r.get("fm['x']")).isEqualTo(1);
    assertThat(r.get("home.zip")).isEqualTo(10);
    assertThat(
            first(t.select().eq("k", 1).eq("c", 1).elementRange("tags", "x", null))
                .get("tags['x'..]"))
        .as("an empty slice is null")
        .isNull();
  }

  @Test
  void selectionsAreCheckedAgainstTheColumnType() {
    assertThatThrownBy(() -> t.select().eq("k", 1).element("l", 0).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessage("Element selection is only allowed on sets and maps, but l is a list<int>");
    assertThatThrownBy(() -> t.select().eq("k", 1).field("m", "x").execute())
        .hasMessageContaining("is not a user type");
    assertThatThrownBy(() -> t.select().eq("k", 1).field("home", "city").execute())
        .hasMessageContaining("has no field city");
    assertThatThrownBy(() -> t.select().eq("k", 1).element("m", 3).execute())
        .hasMessageContaining("bad element for column m");
  }

  @Test
  void containsAndContainsKeyFilterInsideTheNamedPartitions() {
    assertThatThrownBy(() -> t.select().eq("k", 1).contains("tags", "b").execute())
        .hasMessageContaining("allowFiltering()");
    assertThat(t.select().eq("k", 1).contains("tags", "b").allowFiltering().execute().size())
        .isEqualTo(2);
    assertThat(
            t.select().eq("k", 1).contains("tags", "a").allowFiltering().execute().rows().stream()
                .map(r -> r.getInt("c")))
        .containsExactly(1);
    assertThat(t.select().eq("k", 1).contains("m", 3).allowFiltering().execute().size())
        .as("CONTAINS on a map looks at its values")
        .isEqualTo(1);
    assertThat(t.select().eq("k", 1).containsKey("m", "z").allowFiltering().execute().size())
        .isEqualTo(1);
    assertThat(t.select().eq("k", 1).containsKey("fm", "x").allowFiltering().execute().size())
        .as("frozen maps too")
        .isEqualTo(1);
    assertThat(t.select().eq("k", 1).contains("l", 6).allowFiltering().execute().size())
        .isEqualTo(1);
    assertThat(
            t.select()
                .eq("k", 1)
                .contains("tags", "b")
                .contains("tags", "a")
                .allowFiltering()
                .execute()
                .size())
        .isEqualTo(1);
    assertThatThrownBy(() -> t.select().eq("k", 1).contains("v", 2).allowFiltering().execute())
        .hasMessageContaining("Cannot use CONTAINS on non-collection column v");
    assertThatThrownBy(
            () -> t.select().eq("k", 1).containsKey("tags", "a").allowFiltering().execute())
        .hasMessageContaining("Cannot use CONTAINS KEY on non-map column tags");
    assertThatThrownBy(
            () -> t.select().eq("k", 1).eq("tags", Set.of("a")).allowFiltering().execute())
        .hasMessageContaining("can only be restricted by CONTAINS or CONTAINS KEY");
    assertThatThrownBy(() -> t.select().eq("k", 1).contains("c", 1).allowFiltering().execute())
        .hasMessageContaining("Cannot use CONTAINS on primary key column c");
  }

  @Test
  void aWholeCollectionCanStillBeFilteredWhenFrozen() {
    assertThat(t.select().eq("k", 1).eq("fm", Map.of("x", 1)).allowFiltering().execute().size())
        .isEqualTo(1);
  }
}
