package dev.talus.server;

import static com.datastax.oss.driver.api.querybuilder.QueryBuilder.bindMarker;
import static com.datastax.oss.driver.api.querybuilder.QueryBuilder.deleteFrom;
import static com.datastax.oss.driver.api.querybuilder.QueryBuilder.insertInto;
import static com.datastax.oss.driver.api.querybuilder.QueryBuilder.literal;
import static com.datastax.oss.driver.api.querybuilder.QueryBuilder.selectFrom;
import static com.datastax.oss.driver.api.querybuilder.QueryBuilder.update;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.schema.ClusteringOrder;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.querybuilder.SchemaBuilder;
import com.datastax.oss.driver.api.querybuilder.relation.Relation;
import com.datastax.oss.driver.api.querybuilder.select.Selector;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CQL the Java driver's query builder and schema builder write (their own spacing, quoting and
 * clause order) parses and runs on Talus: schema, INSERT, SELECT, UPDATE and DELETE, with bind
 * markers, conditions, TTLs, collection and counter operations.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QueryBuilderDriverTest {
  @TempDir static Path dir;
  private DriverFixture fixture;
  private CqlSession session;

  @BeforeAll
  void start() {
    fixture = DriverFixture.open(dir);
    session = fixture.session;
    session.execute(SchemaBuilder.createKeyspace("qb").ifNotExists().withSimpleStrategy(1).build());
    session.execute(
        SchemaBuilder.createTable("qb", "events")
            .ifNotExists()
            .withPartitionKey("room", DataTypes.TEXT)
            .withClusteringColumn("at", DataTypes.INT)
            .withColumn("body", DataTypes.TEXT)
            .withColumn("tags", DataTypes.setOf(DataTypes.TEXT))
            .withColumn("attrs", DataTypes.mapOf(DataTypes.TEXT, DataTypes.INT))
            .withClusteringOrder("at", ClusteringOrder.DESC)
            .withDefaultTimeToLiveSeconds(0)
            .build());
    session.execute(
        SchemaBuilder.createTable("qb", "hits")
            .withPartitionKey("page", DataTypes.TEXT)
            .withColumn("n", DataTypes.COUNTER)
            .build());
  }

  @AfterAll
  void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test
  void theSchemaBuildersTablesAreInTheDriversMetadata() {
    var table =
        session.getMetadata().getKeyspace("qb").flatMap(ks -> ks.getTable("events")).orElseThrow();
    assertThat(table.getPartitionKey())
        .extracting(c -> c.getName().asInternal())
        .containsExactly("room");
    assertThat(table.getClusteringColumns().values()).containsExactly(ClusteringOrder.DESC);
    assertThat(table.getColumn("tags").orElseThrow().getType())
        .isEqualTo(DataTypes.setOf(DataTypes.TEXT));
  }

  @Test
  void insertSelectUpdateDeleteBuiltByTheQueryBuilder() {
    PreparedStatement insert =
        session.prepare(
            insertInto("qb", "events")
                .value("room", bindMarker())
                .value("at", bindMarker())
                .value("body", bindMarker())
                .build());
    for (int at = 1; at <= 5; at++) {
      session.execute(insert.bind("lobby", at, "m" + at));
    }
    session.execute(
        insertInto("qb", "events")
            .value("room", literal("lobby"))
            .value("at", literal(6))
            .value("body", literal("it's six"))
            .value("tags", literal(Set.of("x")))
            .usingTtl(86_400)
            .build());

    PreparedStatement latest =
        session.prepare(
            selectFrom("qb", "events")
                .columns("at", "body")
                .writeTime("body")
                .whereColumn("room")
                .isEqualTo(bindMarker("room"))
                .whereColumn("at")
                .isGreaterThan(bindMarker("after"))
                .limit(bindMarker("n"))
                .build());
    List<Row> rows =
        session
            .execute(latest.bind().setString("room", "lobby").setInt("after", 2).setInt("n", 3))
            .all();
    assertThat(rows).extracting(r -> r.getInt("at")).containsExactly(6, 5, 4);
    assertThat(rows.get(0).getString("body")).isEqualTo("it's six");
    assertThat(rows.get(0).getLong(2)).isPositive();

    session.execute(
        update("qb", "events")
            .setColumn("body", literal("edited"))
            .appendSetElement("tags", literal("y"))
            .setMapValue("attrs", literal("likes"), literal(3))
            .whereColumn("room")
            .isEqualTo(literal("lobby"))
            .whereColumn("at")
            .isEqualTo(literal(6))
            .build());
    Row six =
        session
            .execute(
                selectFrom("qb", "events")
                    .all()
                    .where(
                        Relation.column("room").isEqualTo(literal("lobby")),
                        Relation.column("at").isEqualTo(literal(6)))
                    .build())
            .one();
    assertThat(six.getString("body")).isEqualTo("edited");
    assertThat(six.getSet("tags", String.class)).containsExactly("x", "y");
    assertThat(six.getMap("attrs", String.class, Integer.class)).isEqualTo(Map.of("likes", 3));

    session.execute(
        deleteFrom("qb", "events")
            .whereColumn("room")
            .isEqualTo(literal("lobby"))
            .whereColumn("at")
            .in(literal(1), literal(2))
            .build());
    session.execute(
        deleteFrom("qb", "events")
            .element("tags", literal("x"))
            .whereColumn("room")
            .isEqualTo(literal("lobby"))
            .whereColumn("at")
            .isEqualTo(literal(6))
            .build());
    ResultSet all =
        session.execute(
            selectFrom("qb", "events")
                .column("at")
                .column("tags")
                .whereColumn("room")
                .isEqualTo(literal("lobby"))
                .build());
    List<Row> left = all.all();
    assertThat(left).extracting(r -> r.getInt("at")).containsExactly(6, 5, 4, 3);
    assertThat(left.get(0).getSet("tags", String.class)).containsExactly("y");
  }

  @Test
  void conditionsAggregatesAndCountersBuiltByTheQueryBuilder() {
    SimpleStatement create =
        insertInto("qb", "events")
            .value("room", literal("lwt"))
            .value("at", literal(1))
            .value("body", literal("first"))
            .ifNotExists()
            .build();
    assertThat(session.execute(create).wasApplied()).isTrue();
    assertThat(session.execute(create).wasApplied()).isFalse();
    SimpleStatement cas =
        update("qb", "events")
            .setColumn("body", literal("second"))
            .whereColumn("room")
            .isEqualTo(literal("lwt"))
            .whereColumn("at")
            .isEqualTo(literal(1))
            .ifColumn("body")
            .isEqualTo(literal("first"))
            .build();
    assertThat(session.execute(cas).wasApplied()).isTrue();
    assertThat(session.execute(cas).wasApplied()).isFalse();
    Row counted =
        session
            .execute(
                selectFrom("qb", "events")
                    .countAll()
                    .function("max", Selector.column("at"))
                    .as("last")
                    .whereColumn("room")
                    .isEqualTo(literal("lwt"))
                    .build())
            .one();
    assertThat(counted.getLong(0)).isEqualTo(1L);
    assertThat(counted.getInt("last")).isEqualTo(1);

    PreparedStatement hit =
        session.prepare(
            update("qb", "hits")
                .increment("n", bindMarker())
                .whereColumn("page")
                .isEqualTo(bindMarker())
                .build());
    session.execute(
        BatchStatement.newInstance(
            DefaultBatchType.COUNTER, hit.bind(2L, "/a"), hit.bind(3L, "/a"), hit.bind(1L, "/b")));
    session.execute(
        update("qb", "hits").decrement("n").whereColumn("page").isEqualTo(literal("/b")).build());
    assertThat(
            session
                .execute(
                    selectFrom("qb", "hits")
                        .column("n")
                        .whereColumn("page")
                        .isEqualTo(literal("/a"))
                        .build())
                .one()
                .getLong(0))
        .isEqualTo(5L);
    assertThat(
            session
                .execute(
                    selectFrom("qb", "hits")
                        .column("n")
                        .whereColumn("page")
                        .isEqualTo(literal("/b"))
                        .build())
                .one()
                .getLong(0))
        .isEqualTo(0L);
  }
}
