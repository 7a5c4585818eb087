package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The types beyond the native ones, their rules (Cassandra's wording where it has one), user types
 * created on the database and persisted with the schema, static columns and counter tables.
 */
class ValueKindsSchemaTest {
  @TempDir Path dir;

  private static final UserType ADDRESS =
      UserType.builder("address").field("street", DataType.TEXT).field("zip", DataType.INT).build();

  private TalusDb open() {
    return TalusDb.open(TalusOptions.builder(dir).build());
  }

  @Test
  void typeNamesFollowCql() {
    assertThat(DataType.set(DataType.TEXT).cqlName()).isEqualTo("set<text>");
    assertThat(DataType.frozen(DataType.map(DataType.INT, DataType.TEXT)).cqlName())
        .isEqualTo("frozen<map<int, text>>");
    assertThat(DataType.list(DataType.frozen(DataType.set(DataType.INT))).cqlName())
        .isEqualTo("list<frozen<set<int>>>");
    assertThat(DataType.tuple(DataType.INT, DataType.list(DataType.TEXT)).cqlName())
        .as("collections inside a tuple are frozen implicitly")
        .isEqualTo("tuple<int, frozen<list<text>>>");
    assertThat(DataType.frozen(DataType.udt(ADDRESS)).cqlName()).isEqualTo("frozen<address>");
    assertThat(DataType.udt(ADDRESS).cqlName()).isEqualTo("address");
    assertThat(DataType.vector(DataType.FLOAT, 3).cqlName()).isEqualTo("vector<float, 3>");
    assertThat(DataType.COUNTER.cqlName()).isEqualTo("counter");
    assertThat(DataType.frozen(DataType.INT)).isSameAs(DataType.INT);
    DataType fs = DataType.frozen(DataType.set(DataType.INT));
    assertThat(DataType.frozen(fs)).isEqualTo(fs);
    assertThat(DataType.set(DataType.INT)).isEqualTo(DataType.set(DataType.INT)).isNotEqualTo(fs);
  }

  @Test
  void javaTypes() {
    assertThat(DataType.set(DataType.TEXT).javaType()).isEqualTo(Set.class);
    assertThat(DataType.map(DataType.INT, DataType.TEXT).javaType()).isEqualTo(Map.class);
    assertThat(DataType.list(DataType.TEXT).javaType()).isEqualTo(List.class);
    assertThat(DataType.tuple(DataType.INT).javaType()).isEqualTo(TupleValue.class);
    assertThat(DataType.udt(ADDRESS).javaType()).isEqualTo(UdtValue.class);
    assertThat(DataType.vector(DataType.FLOAT, 2).javaType()).isEqualTo(float[].class);
    assertThat(DataType.vector(DataType.INT, 2).javaType()).isEqualTo(List.class);
    assertThat(DataType.COUNTER.javaType()).isEqualTo(Long.class);
  }

  @Test
  void whatCanBeAKey() {
    assertThat(DataType.frozen(DataType.set(DataType.INT)).canBeKey()).isTrue();
    assertThat(DataType.tuple(DataType.INT, DataType.TEXT).canBeKey()).isTrue();
    assertThat(DataType.frozen(DataType.udt(ADDRESS)).canBeKey()).isTrue();
    assertThat(DataType.set(DataType.INT).canBeKey()).isFalse();
    assertThat(DataType.udt(ADDRESS).canBeKey()).isFalse();
    assertThat(DataType.vector(DataType.FLOAT, 2).canBeKey()).isFalse();
    assertThat(DataType.tuple(DataType.DURATION).canBeKey()).isFalse();
    assertThat(DataType.COUNTER.canBeKey()).isFalse();
    assertThat(DataType.frozen(DataType.list(DataType.DURATION)).canBeKey()).isFalse();
  }

  @Test
  void nestedTypesMustBeFrozenAndCountersStayOutOfOtherTypes() {
    assertThatThrownBy(() -> DataType.list(DataType.set(DataType.INT)))
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("non-frozen set<int> is not allowed as a list")
        .hasMessageContaining("frozen(...)");
    assertThatThrownBy(() -> DataType.map(DataType.udt(ADDRESS), DataType.INT))
        .hasMessageContaining("non-frozen address");
    assertThatThrownBy(() -> DataType.set(DataType.COUNTER))
        .hasMessageContaining("counters are not allowed inside a set");
    assertThatThrownBy(() -> DataType.set(DataType.DURATION))
        .hasMessageContaining("duration values have no order, so they cannot be a set");
    assertThatThrownBy(() -> DataType.map(DataType.DURATION, DataType.INT))
        .hasMessageContaining("cannot be a map key");
    assertThat(DataType.map(DataType.INT, DataType.DURATION).valueType())
        .isEqualTo(DataType.DURATION);
    assertThatThrownBy(() -> DataType.vector(DataType.FLOAT, 0))
        .hasMessageContaining("dimension of at least 1");
    assertThatThrownBy(() -> UserType.builder("t").field("c", DataType.COUNTER).build())
        .hasMessageContaining("cannot contain counters");
    assertThatThrownBy(() -> UserType.builder("text").field("c", DataType.INT).build())
        .hasMessageContaining("native type");
    assertThatThrownBy(() -> UserType.builder("u").build()).hasMessageContaining("at least one");
  }

  @Test
  void staticColumnsNeedAClusteringColumn() {
    assertThatThrownBy(
            () ->
                TableSchema.builder("t")
                    .partitionKey("k", DataType.INT)
                    .staticColumn("s", DataType.TEXT)
                    .build())
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("Static columns are only useful (and thus allowed)");
    TableSchema s =
        TableSchema.builder("t")
            .partitionKey("k", DataType.INT)
            .clusteringColumn("c", DataType.INT)
            .column("v", DataType.TEXT)
            .staticColumn("s", DataType.TEXT)
            .build();
    assertThat(s.staticColumns()).extracting(ColumnDef::name).containsExactly("s");
    assertThat(s.regularColumns()).extracting(ColumnDef::name).containsExactly("v");
    assertThat(s.columns()).extracting(ColumnDef::name).containsExactly("k", "c", "v", "s");
    assertThat(s.column("s").orElseThrow().kind()).isEqualTo(ColumnDef.Kind.STATIC);
  }

  @Test
  void counterTablesHoldCountersOnly() {
    assertThatThrownBy(
            () ->
                TableSchema.builder("t")
                    .partitionKey("k", DataType.INT)
                    .column("views", DataType.COUNTER)
                    .column("name", DataType.TEXT)
                    .build())
        .hasMessageContaining("Cannot mix counter and non counter columns in the same table");
    assertThatThrownBy(
            () ->
                TableSchema.builder("t")
                    .partitionKey("k", DataType.INT)
                    .column("views", DataType.COUNTER)
                    .defaultTimeToLive(Duration.ofDays(1))
                    .build())
        .hasMessageContaining("Cannot set default_time_to_live on a table with counters");
    assertThatThrownBy(
            () ->
                TableSchema.builder("t")
                    .partitionKey("k", DataType.INT)
                    .clusteringColumn("c", DataType.COUNTER)
                    .column("views", DataType.COUNTER)
                    .build())
        .hasMessageContaining("counter type is not supported for PRIMARY KEY column 'c'");
    TableSchema ok =
        TableSchema.builder("t")
            .partitionKey("k", DataType.INT)
            .column("views", DataType.COUNTER)
            .column("likes", DataType.COUNTER)
            .build();
    assertThat(ok.isCounterTable()).isTrue();
  }

  @Test
  void keysRefuseNonFrozenCollectionsAndVectorsButTakeFrozenOnes() {
    assertThatThrownBy(
            () -> TableSchema.builder("t").partitionKey("k", DataType.set(DataType.INT)).build())
        .hasMessageContaining("Invalid non-frozen collection type set<int> for PRIMARY KEY")
        .hasMessageContaining("frozen(...)");
    assertThatThrownBy(
            () ->
                TableSchema.builder("t")
                    .partitionKey("k", DataType.INT)
                    .clusteringColumn("v", DataType.vector(DataType.FLOAT, 2))
                    .build())
        .hasMessageContaining("vector type is not supported for PRIMARY KEY");
    TableSchema s =
        TableSchema.builder("t")
            .partitionKey("k", DataType.frozen(DataType.set(DataType.INT)))
            .clusteringColumn("c", DataType.tuple(DataType.INT, DataType.TEXT))
            .build();
    assertThat(s.partitionKey().get(0).type().isFrozen()).isTrue();
  }

  @Test
  void userTypesArePersistedWithTheSchemaAndTablesMustUseDefinedOnes() {
    TableSchema people =
        TableSchema.builder("people")
            .partitionKey("id", DataType.INT)
            .column("home", DataType.udt(ADDRESS))
            .column("past", DataType.list(DataType.frozen(DataType.udt(ADDRESS))))
            .column("tags", DataType.set(DataType.TEXT))
            .column("point", DataType.vector(DataType.FLOAT, 3))
            .column("pair", DataType.tuple(DataType.INT, DataType.BLOB))
            .build();
    try (TalusDb db = open()) {
      assertThatThrownBy(() -> db.createTable(people))
          .isInstanceOf(InvalidSchemaException.class)
          .hasMessageContaining("Unknown type address");
      db.createType(ADDRESS);
      assertThat(db.createTypeIfNotExists(ADDRESS)).isEqualTo(ADDRESS);
      assertThatThrownBy(() -> db.createType(ADDRESS))
          .hasMessageContaining("A user type of name address already exists");
      UserType other = UserType.builder("address").field("street", DataType.TEXT).build();
      assertThatThrownBy(
              () ->
                  db.createTable(
                      TableSchema.builder("t")
                          .partitionKey("id", DataType.INT)
                          .column("a", DataType.udt(other))
                          .build()))
          .hasMessageContaining("differs from the one defined on the database");
      db.createTable(people);
    }
    try (TalusDb db = open()) {
      assertThat(db.types()).containsExactly(ADDRESS);
      assertThat(db.type("address")).contains(ADDRESS);
      assertThat(db.table("people").schema()).isEqualTo(people);
      assertThat(db.table("people").schema().column("past").orElseThrow().type())
          .isEqualTo(DataType.list(DataType.frozen(DataType.udt(ADDRESS))));
    }
  }

  @Test
  void valuesAreCheckedAndMadeCanonical() {
    var set = dev.talus.codec.TypeCodec.of(DataType.set(DataType.INT));
    assertThat(set.coerce(List.of(3, 1, 2, 1))).isEqualTo(Set.of(1, 2, 3));
    assertThat(List.<Object>copyOf((Set<?>) set.coerce(List.of(3, 1, 2)))).containsExactly(1, 2, 3);
    assertThatThrownBy(() -> set.coerce(java.util.Arrays.asList(1, null)))
        .hasMessageContaining("null is not supported inside collections");
    var map = dev.talus.codec.TypeCodec.of(DataType.map(DataType.TEXT, DataType.INT));
    Map<String, Integer> m = new LinkedHashMap<>();
    m.put("b", 2);
    m.put("a", 1);
    assertThat(List.<Object>copyOf(((Map<?, ?>) map.coerce(m)).keySet())).containsExactly("a", "b");
    var vec = dev.talus.codec.TypeCodec.of(DataType.vector(DataType.FLOAT, 3));
    assertThatThrownBy(() -> vec.coerce(new float[] {1, 2}))
        .hasMessageContaining("expected 3 elements, but given 2");
    assertThat((float[]) vec.coerce(List.of(1, 2.5, 3))).containsExactly(1f, 2.5f, 3f);
    var tuple = dev.talus.codec.TypeCodec.of(DataType.tuple(DataType.INT, DataType.BLOB));
    TupleValue t = (TupleValue) tuple.coerce(TupleValue.of(7));
    assertThat(t.values()).containsExactly(7, null);
    assertThatThrownBy(() -> tuple.coerce(TupleValue.of(1, new byte[0], 3)))
        .hasMessageContaining("too many components");
    TupleValue withBlob = (TupleValue) tuple.coerce(TupleValue.of(1, new byte[] {5}));
    assertThat(withBlob.get(1)).isEqualTo(ByteBuffer.wrap(new byte[] {5}));
    var udt = dev.talus.codec.TypeCodec.of(DataType.frozen(DataType.udt(ADDRESS)));
    assertThatThrownBy(() -> udt.coerce(Map.of("city", "x")))
        .hasMessageContaining("unknown field city");
    UdtValue a = (UdtValue) udt.coerce(Map.of("zip", 1234));
    assertThat(a.get("zip")).isEqualTo(1234);
    assertThat(a.get("street")).isNull();
    assertThat(udt.format(a)).isEqualTo("{street: null, zip: 1234}");
    assertThat(set.literal(set.coerce(List.of(2, 1)))).isEqualTo("{1, 2}");
    var texts = dev.talus.codec.TypeCodec.of(DataType.list(DataType.TEXT));
    assertThat(texts.literal(texts.coerce(List.of("it's")))).isEqualTo("['it''s']");
  }
}
