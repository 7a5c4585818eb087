package dev.talus.cql.exec.meta;

import dev.talus.ClusteringOrder;
import dev.talus.ColumnDef;
import dev.talus.DataType;
import dev.talus.KeyspaceSchema;
import dev.talus.TableSchema;
import dev.talus.cql.ColumnType;
import dev.talus.cql.exec.support.TableInfo;
import dev.talus.cql.parse.CqlPrinter;
import dev.talus.cql.parse.ast.ColumnDefinition;
import dev.talus.cql.parse.ast.CqlType;
import dev.talus.cql.parse.ast.CreateKeyspaceStatement;
import dev.talus.cql.parse.ast.CreateTableStatement;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.LiteralKind;
import dev.talus.cql.parse.ast.NativeType;
import dev.talus.cql.parse.ast.PrimaryKey;
import dev.talus.cql.parse.ast.Properties;
import dev.talus.cql.parse.ast.Property;
import dev.talus.cql.parse.ast.PropertyValue;
import dev.talus.cql.parse.ast.QualifiedName;
import dev.talus.cql.parse.ast.SourcePosition;
import dev.talus.cql.parse.ast.Term;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The CQL that re-creates a keyspace or a table, for {@code DESCRIBE}: built as syntax trees and
 * printed by the canonical printer, so it always parses back. A table's statement carries exactly
 * the options Talus keeps — clustering order, {@code bloom_filter_fp_chance}, {@code compaction},
 * {@code compression}, {@code default_time_to_live}, {@code gc_grace_seconds}, and Talus's own
 * thresholds under {@code extensions} (which Cassandra accepts and ignores) — so Cassandra 5.0
 * accepts it and Talus re-creates the same schema from it. Static, thread-safe.
 */
public final class SchemaDdl {
  private static final SourcePosition NONE = SourcePosition.NONE;

  private SchemaDdl() {}

  /** {@code CREATE KEYSPACE ...;} */
  public static String keyspace(KeyspaceSchema k) {
    return keyspace(k.name(), k.replication(), k.durableWrites());
  }

  static String keyspace(String name, Map<String, String> replication, boolean durable) {
    List<Property> props =
        List.of(
            property("replication", map(replication)),
            property(
                "durable_writes",
                new PropertyValue.Constant(
                    new Term.Literal(LiteralKind.BOOLEAN, Boolean.toString(durable), NONE))));
    return CqlPrinter.print(
            new CreateKeyspaceStatement(Identifier.of(name), false, new Properties(props), NONE))
        + ";";
  }

  /** {@code CREATE TABLE ...;} for a Talus table. */
  public static String table(TableSchema s) {
    List<ColumnDefinition> columns = new ArrayList<>();
    for (ColumnDef c : s.columns()) {
      columns.add(
          new ColumnDefinition(
              Identifier.of(c.name()), TypeDdlText.cqlType(c.type()), c.isStatic(), null));
    }
    List<Identifier> pk = s.partitionKey().stream().map(c -> Identifier.of(c.name())).toList();
    List<Identifier> ck = s.clustering().stream().map(c -> Identifier.of(c.name())).toList();
    boolean inline = pk.size() == 1 && ck.isEmpty();
    List<dev.talus.cql.parse.ast.ClusteringOrder> order = new ArrayList<>();
    for (ColumnDef c : s.clustering()) {
      order.add(
          new dev.talus.cql.parse.ast.ClusteringOrder(
              Identifier.of(c.name()), c.order() == ClusteringOrder.DESC));
    }
    List<Property> props = new ArrayList<>();
    props.add(property("bloom_filter_fp_chance", number(Double.toString(s.bloomFilterFpChance()))));
    props.add(property("compaction", map(CqlOptions.compaction(s.compaction()))));
    props.add(
        property("compression", map(CqlOptions.compression(s.compression(), s.chunkLengthKb()))));
    props.add(property("default_time_to_live", integer(s.defaultTimeToLive().getSeconds())));
    Map<String, String> extensions = CqlOptions.extensions(s);
    if (!extensions.isEmpty()) {
      props.add(property("extensions", map(extensions)));
    }
    props.add(property("gc_grace_seconds", integer(s.gcGrace().getSeconds())));
    CreateTableStatement t =
        new CreateTableStatement(
            new QualifiedName(Identifier.of(s.keyspace().orElseThrow()), Identifier.of(s.name())),
            false,
            columns,
            List.of(new PrimaryKey(pk, ck, inline, NONE)),
            order,
            false,
            new Properties(props),
            NONE);
    return CqlPrinter.print(t) + ";";
  }

  /** {@code CREATE TABLE ...;} for a system table, behind a comment that it cannot be created. */
  public static String systemTable(TableInfo info) {
    List<ColumnDefinition> columns = new ArrayList<>();
    for (TableInfo.Column c : info.columns()) {
      columns.add(new ColumnDefinition(Identifier.of(c.name()), type(c.type(), info), false, null));
    }
    List<Identifier> pk =
        info.columns(TableInfo.Kind.PARTITION_KEY).stream()
            .map(c -> Identifier.of(c.name()))
            .toList();
    List<Identifier> ck =
        info.columns(TableInfo.Kind.CLUSTERING).stream().map(c -> Identifier.of(c.name())).toList();
    String ddl =
        CqlPrinter.print(
            new CreateTableStatement(
                new QualifiedName(Identifier.of(info.keyspace()), Identifier.of(info.table())),
                false,
                columns,
                List.of(new PrimaryKey(pk, ck, pk.size() == 1 && ck.isEmpty(), NONE)),
                List.of(),
                false,
                Properties.NONE,
                NONE));
    return "/*\nWarning: Table "
        + info.qualifiedName()
        + " is a system table that Talus answers itself; it cannot be created with CQL.\n\n"
        + ddl
        + ";\n*/";
  }

  private static CqlType type(ColumnType t, TableInfo info) {
    boolean frozen = info.keyspace().equals("system_schema");
    CqlType inner;
    if (t instanceof ColumnType.Native n) {
      inner = nativeType(n.type());
    } else if (t instanceof ColumnType.ListOf l) {
      inner = new CqlType.ListOf(type(l.element(), info), NONE);
    } else if (t instanceof ColumnType.SetOf st) {
      inner = new CqlType.SetOf(type(st.element(), info), NONE);
    } else {
      ColumnType.MapOf m = (ColumnType.MapOf) t;
      inner = new CqlType.MapOf(type(m.key(), info), type(m.value(), info), NONE);
    }
    return frozen && !(t instanceof ColumnType.Native) ? new CqlType.Frozen(inner, NONE) : inner;
  }

  private static CqlType nativeType(DataType t) {
    return new CqlType.Native(NativeType.valueOf(t.name()), NONE);
  }

  private static Property property(String name, PropertyValue value) {
    return new Property(Identifier.of(name), value);
  }

  private static PropertyValue number(String text) {
    return new PropertyValue.Constant(new Term.Literal(LiteralKind.FLOAT, text, NONE));
  }

  private static PropertyValue integer(long n) {
    return new PropertyValue.Constant(
        new Term.Literal(LiteralKind.INTEGER, Long.toString(n), NONE));
  }

  private static PropertyValue map(Map<String, String> m) {
    List<PropertyValue.Entry> entries = new ArrayList<>();
    m.forEach(
        (k, v) ->
            entries.add(
                new PropertyValue.Entry(
                    new Term.Literal(LiteralKind.STRING, k, NONE),
                    new Term.Literal(LiteralKind.STRING, v, NONE))));
    return new PropertyValue.MapValue(entries, NONE);
  }
}
