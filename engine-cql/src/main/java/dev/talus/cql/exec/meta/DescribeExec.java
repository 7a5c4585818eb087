package dev.talus.cql.exec.meta;

import dev.talus.DataType;
import dev.talus.KeyspaceSchema;
import dev.talus.Table;
import dev.talus.TalusDb;
import dev.talus.cql.ColumnType;
import dev.talus.cql.CqlColumn;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlRow;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.Executable;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.RowShape;
import dev.talus.cql.exec.support.SessionState;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.parse.ast.DescribeStatement;
import dev.talus.cql.parse.ast.DescribeStatement.Target;
import dev.talus.cql.parse.ast.QualifiedName;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code DESCRIBE}, run by the server as Cassandra 4.0+ does: rows of {@code (keyspace_name, type,
 * name)}, plus {@code create_statement} for the forms that print DDL ({@code KEYSPACE}, {@code
 * TABLE}, {@code SCHEMA}, a bare name). The DDL re-creates the schema (see {@link SchemaDdl}). A
 * table's indexes follow it, one row each ({@code CREATE CUSTOM INDEX … USING
 * 'StorageAttachedIndex'}). Functions, aggregates and views: Talus has none, so their lists are
 * empty and a named one is not found. Immutable and thread-safe.
 */
public final class DescribeExec implements Executable {
  private static final List<CqlColumn> LIST_COLUMNS =
      List.of(column("keyspace_name"), column("type"), column("name"));
  private static final List<CqlColumn> DDL_COLUMNS =
      List.of(column("keyspace_name"), column("type"), column("name"), column("create_statement"));
  private static final List<CqlColumn> CLUSTER_COLUMNS =
      List.of(column("cluster"), column("partitioner"), column("snitch"));

  private final DescribeStatement statement;
  private final String sessionKeyspace;
  private final Source source;

  private DescribeExec(DescribeStatement statement, String sessionKeyspace, Source source) {
    this.statement = statement;
    this.sessionKeyspace = sessionKeyspace;
    this.source = source;
  }

  private static CqlColumn column(String name) {
    return new CqlColumn("", "", name, ColumnType.of(DataType.TEXT));
  }

  public static DescribeExec prepare(DescribeStatement s, PrepareContext pc) {
    return new DescribeExec(s, pc.sessionKeyspace(), pc.source());
  }

  @Override
  public List<CqlColumn> resultColumns() {
    return switch (statement.target()) {
      case KEYSPACES, TABLES, TYPES, FUNCTIONS, AGGREGATES -> LIST_COLUMNS;
      case CLUSTER -> CLUSTER_COLUMNS;
      default -> DDL_COLUMNS;
    };
  }

  @Override
  public CqlResult execute(ExecContext ctx) {
    SessionState session = ctx.session();
    TalusDb db = ctx.db();
    List<Object[]> rows = new ArrayList<>();
    Target target = statement.target();
    QualifiedName name = statement.name();
    switch (target) {
      case CLUSTER ->
          rows.add(
              new Object[] {
                SystemTables.CLUSTER_NAME,
                SystemTables.PARTITIONER,
                "org.apache.cassandra.locator.SimpleSnitch"
              });
      case KEYSPACES -> {
        for (String ks : allKeyspaces(db)) {
          rows.add(new Object[] {ks, "keyspace", ks});
        }
      }
      case TABLES -> {
        for (VirtualTable v : SystemTables.all()) {
          rows.add(new Object[] {v.info().keyspace(), "table", v.info().table()});
        }
        for (Table t : db.tables()) {
          rows.add(new Object[] {t.keyspace(), "table", t.name()});
        }
        rows.sort((a, b) -> (a[0] + "." + a[2]).compareTo(b[0] + "." + b[2]));
      }
      case TYPES -> {
        for (dev.talus.UserType u : db.types()) {
          for (String ks : TypeDdlText.keyspacesOf(u, db)) {
            rows.add(new Object[] {ks, "type", u.name()});
          }
        }
        rows.sort((a, b) -> (a[0] + "." + a[2]).compareTo(b[0] + "." + b[2]));
      }
      case TYPE -> describeType(name, session, db, rows);
      case FUNCTIONS, AGGREGATES -> {
        // Talus has no user-defined functions or aggregates
      }
      case KEYSPACE -> describeKeyspace(keyspaceName(session, name), statement.only(), db, rows);
      case SCHEMA, FULL_SCHEMA -> {
        for (String ks : allKeyspaces(db)) {
          if (target == Target.FULL_SCHEMA || !SystemTables.KEYSPACES.contains(ks)) {
            describeKeyspace(ks, false, db, rows);
          }
        }
      }
      case TABLE -> describeTable(name, session, db, rows);
      case NAME -> {
        if (name.keyspace() == null && keyspaceExists(name.name().name(), db)) {
          describeKeyspace(name.name().name(), false, db, rows);
        } else {
          describeTable(name, session, db, rows);
        }
      }
      default -> {
        String kind =
            switch (target) {
              case INDEX -> "Index";
              case MATERIALIZED_VIEW -> "Materialized view";
              case TYPE -> "Type";
              case FUNCTION -> "Function";
              default -> "Aggregate";
            };
        String ks =
            keyspaceName(
                session, name.keyspace() == null ? null : new QualifiedName(null, name.keyspace()));
        throw source.invalid(
            name.position(),
            name.toString().length(),
            kind + " '" + name.name().name() + "' not found in keyspace '" + ks + "'");
      }
    }
    RowShape shape = new RowShape(resultColumns());
    List<CqlRow> out = new ArrayList<>(rows.size());
    for (Object[] r : rows) {
      out.add(shape.row(r));
    }
    return CqlResult.rows(shape.columns(), out, null, ctx.warnings());
  }

  private String keyspaceName(SessionState session, QualifiedName name) {
    if (name != null) {
      return name.name().name();
    }
    String ks = session.keyspace() != null ? session.keyspace() : sessionKeyspace;
    if (ks == null) {
      throw source.invalid(
          statement.position(),
          8,
          "No keyspace specified and no current keyspace: USE a keyspace, or name one");
    }
    return ks;
  }

  private static List<String> allKeyspaces(TalusDb db) {
    List<String> out = new ArrayList<>(SystemTables.KEYSPACES);
    for (KeyspaceSchema k : db.keyspaces()) {
      out.add(k.name());
    }
    out.sort(null);
    return out;
  }

  private static boolean keyspaceExists(String ks, TalusDb db) {
    return SystemTables.KEYSPACES.contains(ks) || db.keyspace(ks).isPresent();
  }

  private void describeKeyspace(String ks, boolean only, TalusDb db, List<Object[]> rows) {
    if (SystemTables.KEYSPACES.contains(ks)) {
      rows.add(
          new Object[] {
            ks,
            "keyspace",
            ks,
            "/*\nWarning: Keyspace "
                + ks
                + " is a system keyspace that Talus answers itself; it cannot be created with"
                + " CQL.\n\n"
                + SchemaDdl.keyspace(
                    ks, java.util.Map.of("class", SystemTables.LOCAL_STRATEGY), true)
                + "\n*/"
          });
      if (!only) {
        for (VirtualTable v : SystemTables.all()) {
          if (v.info().keyspace().equals(ks)) {
            rows.add(new Object[] {ks, "table", v.info().table(), SchemaDdl.systemTable(v.info())});
          }
        }
      }
      return;
    }
    KeyspaceSchema k =
        db.keyspace(ks)
            .orElseThrow(
                () ->
                    source.invalid(
                        statement.name() == null
                            ? statement.position()
                            : statement.name().position(),
                        Math.max(1, ks.length()),
                        "'" + ks + "' not found in keyspaces"));
    rows.add(new Object[] {ks, "keyspace", ks, SchemaDdl.keyspace(k)});
    if (!only) {
      for (dev.talus.UserType u : TypeDdlText.typesOf(ks, db)) {
        rows.add(new Object[] {ks, "type", u.name(), TypeDdlText.createType(ks, u)});
      }
      for (Table t : db.tables()) {
        if (t.keyspace().equals(ks)) {
          rows.add(new Object[] {ks, "table", t.name(), SchemaDdl.table(t.schema())});
          addIndexes(ks, t, rows);
        }
      }
    }
  }

  private void describeTable(
      QualifiedName name, SessionState session, TalusDb db, List<Object[]> rows) {
    String ks =
        name.keyspace() != null
            ? name.keyspace().name()
            : session.keyspace() != null
                ? session.keyspace()
                : sessionKeyspace != null ? sessionKeyspace : db.options().defaultKeyspace();
    VirtualTable v = SystemTables.find(ks, name.name().name());
    if (v != null) {
      rows.add(new Object[] {ks, "table", v.info().table(), SchemaDdl.systemTable(v.info())});
      return;
    }
    if (!keyspaceExists(ks, db)) {
      throw source.invalid(
          name.position(), name.toString().length(), "'" + ks + "' not found in keyspaces");
    }
    Table t =
        db.findTable(ks, name.name().name())
            .orElseThrow(
                () ->
                    source.invalid(
                        name.position(),
                        name.toString().length(),
                        "'" + name.name().name() + "' not found in keyspace '" + ks + "'"));
    rows.add(new Object[] {ks, "table", t.name(), SchemaDdl.table(t.schema())});
    addIndexes(ks, t, rows);
  }

  /** One row per index of {@code t}, after the table's, as Cassandra describes them. */
  private static void addIndexes(String ks, Table t, List<Object[]> rows) {
    for (dev.talus.IndexDef d : t.indexes()) {
      rows.add(new Object[] {ks, "index", d.name(), IndexRows.describe(ks, t, d)});
    }
  }

  private void describeType(
      QualifiedName name, SessionState session, TalusDb db, List<Object[]> rows) {
    String ks =
        keyspaceName(
            session, name.keyspace() == null ? null : new QualifiedName(null, name.keyspace()));
    dev.talus.UserType u =
        db.type(name.name().name())
            .orElseThrow(
                () ->
                    source.invalid(
                        name.position(),
                        name.toString().length(),
                        "Type '" + name.name().name() + "' not found in keyspace '" + ks + "'"));
    rows.add(new Object[] {ks, "type", u.name(), TypeDdlText.createType(ks, u)});
  }
}
