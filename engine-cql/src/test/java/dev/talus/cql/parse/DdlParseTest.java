package dev.talus.cql.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.cql.parse.ast.AlterTableStatement;
import dev.talus.cql.parse.ast.AlterTypeStatement;
import dev.talus.cql.parse.ast.ClusteringOrder;
import dev.talus.cql.parse.ast.ColumnDefinition;
import dev.talus.cql.parse.ast.CqlType;
import dev.talus.cql.parse.ast.CreateIndexStatement;
import dev.talus.cql.parse.ast.CreateKeyspaceStatement;
import dev.talus.cql.parse.ast.CreateTableStatement;
import dev.talus.cql.parse.ast.CreateTypeStatement;
import dev.talus.cql.parse.ast.DescribeStatement;
import dev.talus.cql.parse.ast.DropIndexStatement;
import dev.talus.cql.parse.ast.FieldDefinition;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.IndexTarget;
import dev.talus.cql.parse.ast.LiteralKind;
import dev.talus.cql.parse.ast.NativeType;
import dev.talus.cql.parse.ast.PrimaryKey;
import dev.talus.cql.parse.ast.PropertyValue;
import dev.talus.cql.parse.ast.QualifiedName;
import dev.talus.cql.parse.ast.Rename;
import dev.talus.cql.parse.ast.SourcePosition;
import dev.talus.cql.parse.ast.Term;
import dev.talus.cql.parse.ast.TruncateStatement;
import dev.talus.cql.parse.ast.UseStatement;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Keyspace, table, type and index DDL, USE, TRUNCATE and DESCRIBE: their syntax trees. */
class DdlParseTest {
  private static final SourcePosition P = SourcePosition.NONE;

  private static Identifier id(String n) {
    return Identifier.of(n);
  }

  private static CqlType nat(NativeType t) {
    return new CqlType.Native(t, P);
  }

  @Test
  void keyspaceOptions() {
    CreateKeyspaceStatement k =
        Cql.parse(
            "CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': 'NetworkTopologyStrategy',"
                + " 'dc1': 3} AND durable_writes = false",
            CreateKeyspaceStatement.class);
    assertThat(k.keyspace()).isEqualTo(id("ks"));
    assertThat(k.ifNotExists()).isTrue();
    PropertyValue.MapValue replication = (PropertyValue.MapValue) k.properties().get("replication");
    assertThat(replication.get("class")).isEqualTo("NetworkTopologyStrategy");
    assertThat(replication.get("dc1")).isEqualTo("3");
    assertThat(replication.entries().get(1).value().kind()).isEqualTo(LiteralKind.INTEGER);
    assertThat(k.properties().get("durable_writes"))
        .isEqualTo(new PropertyValue.Constant(new Term.Literal(LiteralKind.BOOLEAN, "false", P)));
    assertThat(k.properties().get("absent")).isNull();
  }

  @Test
  void optionsAreConstantsGivenOnce() {
    assertThat(Cql.error("ALTER TABLE t WITH comment = 'a' AND comment = 'b'").reason())
        .isEqualTo("the option comment is given twice; give it once");
    assertThat(
            Cql.error("CREATE KEYSPACE k WITH replication = {'class': 'x', 'class': 'y'}").reason())
        .isEqualTo("the key class is given twice in the map; give it once");
    assertThat(Cql.error("ALTER TABLE t WITH caching = {'keys': ?}").reason())
        .isEqualTo("bind markers cannot be used in the options of a DDL statement");
    assertThat(Cql.error("ALTER TABLE t WITH gc_grace_seconds = ?").reason())
        .isEqualTo("bind markers cannot be used in the options of a DDL statement");
    assertThat(Cql.error("ALTER TABLE t WITH caching = {'keys': now()}").reason())
        .contains("an option map value must be a constant");
    assertThat(Cql.error("ALTER TABLE t WITH caching = {'keys'}").reason())
        .contains("expected ':'");
    // an unreserved keyword is a value too, as in Cassandra
    assertThat(Cql.parse("ALTER TABLE t WITH x = ALL", AlterTableStatement.class).action())
        .isEqualTo(
            new AlterTableStatement.SetOptions(
                new dev.talus.cql.parse.ast.Properties(
                    List.of(
                        new dev.talus.cql.parse.ast.Property(
                            id("x"), new PropertyValue.Word("all", P))))));
  }

  @Test
  void createTableWithACompoundPrimaryKey() {
    CreateTableStatement t =
        Cql.parse(
            "CREATE TABLE ks.t (a int, b text, c timeuuid, s text STATIC, v blob,"
                + " PRIMARY KEY ((a, b), c)) WITH CLUSTERING ORDER BY (c DESC) AND COMPACT STORAGE"
                + " AND gc_grace_seconds = 0",
            CreateTableStatement.class);
    assertThat(t.table()).isEqualTo(new QualifiedName(id("ks"), id("t")));
    assertThat(t.columns())
        .containsExactly(
            new ColumnDefinition(id("a"), nat(NativeType.INT), false, null),
            new ColumnDefinition(id("b"), nat(NativeType.TEXT), false, null),
            new ColumnDefinition(id("c"), nat(NativeType.TIMEUUID), false, null),
            new ColumnDefinition(id("s"), nat(NativeType.TEXT), true, null),
            new ColumnDefinition(id("v"), nat(NativeType.BLOB), false, null));
    assertThat(t.primaryKeys())
        .containsExactly(new PrimaryKey(List.of(id("a"), id("b")), List.of(id("c")), false, P));
    assertThat(t.clusteringOrder()).containsExactly(new ClusteringOrder(id("c"), true));
    assertThat(t.compactStorage()).isTrue();
    assertThat(t.properties().properties()).hasSize(1);
  }

  @Test
  void inlineAndRepeatedPrimaryKeysAreKeptAsWrittenForPreparingToJudge() {
    CreateTableStatement inline =
        Cql.parse("CREATE TABLE t (id uuid PRIMARY KEY, v int)", CreateTableStatement.class);
    assertThat(inline.primaryKeys())
        .containsExactly(new PrimaryKey(List.of(id("id")), List.of(), true, P));
    CreateTableStatement none = Cql.parse("CREATE TABLE t (a int)", CreateTableStatement.class);
    assertThat(none.primaryKeys()).isEmpty();
    CreateTableStatement two =
        Cql.parse(
            "CREATE TABLE t (a int PRIMARY KEY, b int, PRIMARY KEY (b))",
            CreateTableStatement.class);
    assertThat(two.primaryKeys()).hasSize(2);
    Cql.roundTrip("CREATE TABLE t (PRIMARY KEY (b), a int PRIMARY KEY, b int)");
  }

  @Test
  void createTablePrintsInTheLayoutOfDescribe() {
    assertThat(
            Cql.roundTrip(
                "create table if not exists ks.readings (sensor text, day date, ts timestamp, value"
                    + " double, primary key ((sensor, day), ts)) with clustering order by (ts desc)"
                    + " and default_time_to_live = 86400"))
        .isEqualTo(
            "CREATE TABLE IF NOT EXISTS ks.readings (\n"
                + "    sensor text,\n"
                + "    day date,\n"
                + "    ts timestamp,\n"
                + "    value double,\n"
                + "    PRIMARY KEY ((sensor, day), ts)\n"
                + ") WITH CLUSTERING ORDER BY (ts DESC)\n"
                + "    AND default_time_to_live = 86400");
    assertThat(Cql.roundTrip("CREATE TYPE a (x int, y frozen<list<text>>)"))
        .isEqualTo("CREATE TYPE a (\n    x int,\n    y frozen<list<text>>\n)");
  }

  @Test
  void everyKindOfType() {
    CreateTableStatement t =
        Cql.parse(
            "CREATE TABLE t (k int PRIMARY KEY, a frozen<map<text, list<int>>>, b tuple<int, text>,"
                + " c vector<float, 3>, d ks.addr, e 'org.Foo', f set<uuid>)",
            CreateTableStatement.class);
    List<CqlType> types = t.columns().stream().map(ColumnDefinition::type).toList();
    assertThat(types.get(1))
        .isEqualTo(
            new CqlType.Frozen(
                new CqlType.MapOf(
                    nat(NativeType.TEXT), new CqlType.ListOf(nat(NativeType.INT), P), P),
                P));
    assertThat(types.get(2))
        .isEqualTo(new CqlType.TupleOf(List.of(nat(NativeType.INT), nat(NativeType.TEXT)), P));
    assertThat(types.get(3)).isEqualTo(new CqlType.VectorOf(nat(NativeType.FLOAT), 3, P));
    assertThat(types.get(4))
        .isEqualTo(new CqlType.UserDefined(new QualifiedName(id("ks"), id("addr"))));
    assertThat(types.get(5)).isEqualTo(new CqlType.Custom("org.Foo", P));
    assertThat(types.get(6)).isEqualTo(new CqlType.SetOf(nat(NativeType.UUID), P));
    assertThat(Cql.error("CREATE TABLE t (v vector<float, 99999999999>)").reason())
        .isEqualTo("the vector dimension 99999999999 is too large");
    assertThat(Cql.error("CREATE TABLE t (v vector<float>)").reason()).contains("expected ','");
    assertThat(Cql.error("CREATE TABLE t (v set)").reason()).contains("expected '<' after set");
  }

  @Test
  void alterTableActions() {
    assertThat(action("ADD IF NOT EXISTS (x int, y text static)"))
        .isEqualTo(
            new AlterTableStatement.AddColumns(
                true,
                List.of(
                    new ColumnDefinition(id("x"), nat(NativeType.INT), false, null),
                    new ColumnDefinition(id("y"), nat(NativeType.TEXT), true, null))));
    assertThat(action("DROP x USING TIMESTAMP 12"))
        .isEqualTo(
            new AlterTableStatement.DropColumns(
                false, List.of(id("x")), new Term.Literal(LiteralKind.INTEGER, "12", P)));
    assertThat(action("RENAME IF EXISTS a TO b AND c TO d"))
        .isEqualTo(
            new AlterTableStatement.RenameColumns(
                true, List.of(new Rename(id("a"), id("b")), new Rename(id("c"), id("d")))));
    assertThat(action("ALTER v TYPE bigint"))
        .isEqualTo(new AlterTableStatement.AlterColumnType(id("v"), nat(NativeType.BIGINT)));
    assertThat(action("ALTER v DROP MASKED"))
        .isEqualTo(new AlterTableStatement.SetColumnMask(false, id("v"), null));
    assertThat(action("DROP COMPACT STORAGE"))
        .isEqualTo(new AlterTableStatement.DropCompactStorage());
    // a column named compact
    assertThat(action("DROP compact"))
        .isEqualTo(new AlterTableStatement.DropColumns(false, List.of(id("compact")), null));
    assertThat(Cql.error("ALTER TABLE t DROP x USING TIMESTAMP 99999999999999999999").reason())
        .isEqualTo("the timestamp 99999999999999999999 does not fit in a bigint");
    assertThat(Cql.error("ALTER TABLE t TRUNCATE").reason())
        .contains("expected ADD, DROP, RENAME, ALTER or WITH");
  }

  private static AlterTableStatement.Action action(String rest) {
    return Cql.parse("ALTER TABLE t " + rest, AlterTableStatement.class).action();
  }

  @Test
  void userTypes() {
    CreateTypeStatement c =
        Cql.parse(
            "CREATE TYPE IF NOT EXISTS ks.addr (street text, zip int,)", CreateTypeStatement.class);
    assertThat(c.fields())
        .containsExactly(
            new FieldDefinition(id("street"), nat(NativeType.TEXT)),
            new FieldDefinition(id("zip"), nat(NativeType.INT)));
    AlterTypeStatement a =
        Cql.parse("ALTER TYPE addr ADD IF NOT EXISTS country text", AlterTypeStatement.class);
    assertThat(a.action())
        .isEqualTo(
            new AlterTypeStatement.AddField(
                true, new FieldDefinition(id("country"), nat(NativeType.TEXT))));
  }

  @Test
  void indexes() {
    CreateIndexStatement i =
        Cql.parse(
            "CREATE CUSTOM INDEX IF NOT EXISTS idx ON ks.t (keys(m), v, full(f)) USING 'sai'"
                + " WITH OPTIONS = {'similarity_function': 'dot_product'}",
            CreateIndexStatement.class);
    assertThat(i.name()).isEqualTo(id("idx"));
    assertThat(i.custom()).isTrue();
    assertThat(i.ifNotExists()).isTrue();
    assertThat(i.targets())
        .containsExactly(
            new IndexTarget(IndexTarget.Kind.KEYS, id("m")),
            new IndexTarget(IndexTarget.Kind.SIMPLE, id("v")),
            new IndexTarget(IndexTarget.Kind.FULL, id("f")));
    assertThat(i.using()).isEqualTo("sai");
    assertThat(((PropertyValue.MapValue) i.properties().get("options")).get("similarity_function"))
        .isEqualTo("dot_product");
    CreateIndexStatement anonymous =
        Cql.parse("CREATE INDEX ON t (values(s))", CreateIndexStatement.class);
    assertThat(anonymous.name()).isNull();
    assertThat(anonymous.using()).isNull();
    assertThat(Cql.parse("DROP INDEX ks.idx", DropIndexStatement.class).index())
        .isEqualTo(new QualifiedName(id("ks"), id("idx")));
  }

  @Test
  void useTruncateDescribe() {
    assertThat(Cql.parse("USE \"Ks\"", UseStatement.class).keyspace()).isEqualTo(id("Ks"));
    assertThat(Cql.parse("TRUNCATE TABLE ks.t", TruncateStatement.class).table())
        .isEqualTo(new QualifiedName(id("ks"), id("t")));
    DescribeStatement d =
        Cql.parse("DESC ONLY KEYSPACE ks WITH INTERNALS", DescribeStatement.class);
    assertThat(d.target()).isEqualTo(DescribeStatement.Target.KEYSPACE);
    assertThat(d.only()).isTrue();
    assertThat(d.withInternals()).isTrue();
    assertThat(d.name()).isEqualTo(new QualifiedName(null, id("ks")));
    assertThat(Cql.parse("DESCRIBE KEYSPACE", DescribeStatement.class).name()).isNull();
    assertThat(Cql.parse("DESCRIBE t", DescribeStatement.class).target())
        .isEqualTo(DescribeStatement.Target.NAME);
    assertThat(Cql.parse("DESCRIBE FULL SCHEMA", DescribeStatement.class).target())
        .isEqualTo(DescribeStatement.Target.FULL_SCHEMA);
    assertThat(Cql.parse("DESCRIBE TYPES", DescribeStatement.class).target())
        .isEqualTo(DescribeStatement.Target.TYPES);
    assertThat(Cql.parse("DESCRIBE TYPE ks.a", DescribeStatement.class).name())
        .isEqualTo(new QualifiedName(id("ks"), id("a")));
    assertThat(Cql.parse("DESCRIBE \"tables\"", DescribeStatement.class).target())
        .isEqualTo(DescribeStatement.Target.NAME);
  }
}
