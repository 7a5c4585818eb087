package dev.talus.cql.exec.ddl;

import dev.talus.ClusteringOrder;
import dev.talus.DataType;
import dev.talus.InvalidSchemaException;
import dev.talus.KeyspaceSchema;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.cql.CqlResult;
import dev.talus.cql.SchemaChange;
import dev.talus.cql.exec.meta.SystemTables;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.Executable;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.exec.term.Types;
import dev.talus.cql.parse.ast.ColumnDefinition;
import dev.talus.cql.parse.ast.CreateTableStatement;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.PrimaryKey;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code CREATE TABLE [IF NOT EXISTS]}, prepared into a Talus {@link TableSchema}: the columns and
 * their types (static columns included), the primary key, {@code CLUSTERING ORDER BY}, and the
 * options ({@link TableOptions}); Cassandra's checks and messages for the primary key and the
 * clustering order. Executing creates the table (a table of the default keyspace creates the
 * keyspace the first time, as the Java API does). Immutable and thread-safe.
 */
public final class CreateTableExec extends KeyspaceDdl.Ddl {
  private final CreateTableStatement statement;
  private final TableSchema schema;
  private final List<String> warnings;
  private final Source source;

  private CreateTableExec(
      CreateTableStatement statement, TableSchema schema, List<String> warnings, Source source) {
    this.statement = statement;
    this.schema = schema;
    this.warnings = warnings;
    this.source = source;
  }

  public static Executable prepare(CreateTableStatement s, PrepareContext pc) {
    Source src = pc.source();
    String ks = pc.keyspaceOf(s.table());
    Identifier name = s.table().name();
    String table = name.name();
    if (KeyspaceSchema.isReserved(ks) || SystemTables.KEYSPACES.contains(ks)) {
      throw src.invalid(pc.keyspaceIdentifier(s.table()), ks + " keyspace is not user-modifiable");
    }
    if (!TableSchema.isValidName(table)) {
      throw src.config(
          name.position(),
          Math.max(1, table.length()),
          "Table name must not be empty, more than 48 characters long, or contain"
              + " non-alphanumeric-underscore characters (got \""
              + table
              + "\")");
    }
    if (s.compactStorage()) {
      throw src.invalid(
          s.position(), 6, "COMPACT STORAGE tables are not allowed starting with version 4.0");
    }
    if (s.primaryKeys().isEmpty()) {
      throw src.invalid(
          s.position(),
          6,
          "No PRIMARY KEY specifed for table '" + table + "' (exactly one required)");
    }
    if (s.primaryKeys().size() > 1) {
      throw src.invalid(
          s.primaryKeys().get(1).position(),
          7,
          "Multiple PRIMARY KEY specified for table '" + table + "' (exactly one required)");
    }
    Map<String, DataType> types = new LinkedHashMap<>();
    List<ColumnDefinition> statics = new ArrayList<>();
    for (ColumnDefinition c : s.columns()) {
      String col = c.name().name();
      if (types.containsKey(col)) {
        throw src.invalid(
            c.name(), "Duplicate column '" + col + "' declaration for table '" + table + "'");
      }
      if (!TableSchema.isValidName(col)) {
        throw src.config(
            c.position(),
            Math.max(1, col.length()),
            "Talus column names are 1 to 48 letters, digits or underscores; \""
                + col
                + "\" is not one (Cassandra accepts any quoted name)");
      }
      if (c.isStatic()) {
        statics.add(c);
      }
      if (c.mask() != null) {
        throw src.never(
            c.mask().position(),
            6,
            "column masks",
            "column masks (MASKED WITH) are not supported by Talus: it has no roles, so nobody"
                + " could be shown the masked value; mask in the application");
      }
      types.put(col, Types.column(c.type(), pc));
    }
    PrimaryKey pk = s.primaryKeys().get(0);
    Set<String> seen = new HashSet<>();
    List<Identifier> keyColumns = new ArrayList<>(pk.partitionKey());
    keyColumns.addAll(pk.clustering());
    for (Identifier k : keyColumns) {
      DataType t = types.get(k.name());
      if (t == null) {
        throw src.invalid(
            k,
            "Unknown column '"
                + k.name()
                + "' referenced in PRIMARY KEY for table '"
                + table
                + "'");
      }
      if (!seen.add(k.name())) {
        throw src.invalid(
            k,
            "Duplicate column '" + k.name() + "' in PRIMARY KEY clause for table '" + table + "'");
      }
      if (t == DataType.DURATION || t == DataType.COUNTER) {
        throw src.invalid(
            k, t.cqlName() + " type is not supported for PRIMARY KEY column '" + k.name() + "'");
      }
      ColumnTypeRules.checkKey(k, t, src);
    }
    Map<String, Boolean> order = new LinkedHashMap<>();
    for (dev.talus.cql.parse.ast.ClusteringOrder o : s.clusteringOrder()) {
      order.put(o.column().name(), o.descending());
    }
    if (order.size() > pk.clustering().size()) {
      throw src.invalid(
          s.clusteringOrder().get(0).column(),
          "Only clustering columns can be defined in CLUSTERING ORDER directive");
    }
    int n = 0;
    for (dev.talus.cql.parse.ast.ClusteringOrder o : s.clusteringOrder()) {
      String c = pk.clustering().get(n).name();
      if (!o.column().name().equals(c)) {
        if (order.containsKey(c)) {
          throw src.invalid(
              o.column(),
              "The order of columns in the CLUSTERING ORDER directive must match that of the"
                  + " clustering columns ("
                  + c
                  + " must appear before "
                  + o.column().name()
                  + ")");
        }
        throw src.invalid(o.column(), "Missing CLUSTERING ORDER for column " + c);
      }
      n++;
    }
    TableSchema.Builder b = TableSchema.builder(table).keyspace(ks);
    for (Identifier k : pk.partitionKey()) {
      b.partitionKey(k.name(), types.get(k.name()));
    }
    for (Identifier k : pk.clustering()) {
      boolean desc = order.getOrDefault(k.name(), false);
      b.clusteringColumn(
          k.name(), types.get(k.name()), desc ? ClusteringOrder.DESC : ClusteringOrder.ASC);
    }
    ColumnTypeRules.checkStatics(statics, seen, pk.clustering().isEmpty(), src);
    ColumnTypeRules.checkCounters(s.columns(), types, seen, src);
    for (Map.Entry<String, DataType> e : types.entrySet()) {
      if (!seen.contains(e.getKey())) {
        if (statics.stream().anyMatch(c -> c.name().name().equals(e.getKey()))) {
          b.staticColumn(e.getKey(), e.getValue());
        } else {
          b.column(e.getKey(), e.getValue());
        }
      }
    }
    TableOptions.apply(s.properties(), b, pc);
    TableSchema schema;
    try {
      schema = b.build();
    } catch (InvalidSchemaException e) {
      throw src.config(s.position(), 6, e.getMessage());
    }
    List<String> warnings = new ArrayList<>(pc.warnings());
    for (String lint : schema.lint()) {
      warnings.add("Data model: " + lint);
    }
    return new CreateTableExec(s, schema, warnings, src);
  }

  @Override
  public CqlResult execute(ExecContext ctx) {
    TalusDb db = ctx.db();
    String ks = schema.keyspace().orElseThrow();
    if (db.keyspace(ks).isEmpty() && !ks.equals(db.options().defaultKeyspace())) {
      throw source.invalid(
          statement.table().keyspace() != null
              ? statement.table().keyspace()
              : statement.table().name(),
          "Keyspace '" + ks + "' doesn't exist");
    }
    if (db.findTable(ks, schema.name()).isPresent()) {
      if (statement.ifNotExists()) {
        return CqlResult.empty(ctx.warnings());
      }
      throw source.alreadyExists(statement.table().name(), ks, schema.name());
    }
    try {
      db.createTable(schema);
    } catch (InvalidSchemaException e) {
      throw source.config(statement.position(), 6, e.getMessage());
    }
    List<String> all = new ArrayList<>(warnings);
    all.addAll(ctx.warnings());
    return CqlResult.schemaChange(
        new SchemaChange(SchemaChange.Change.CREATED, SchemaChange.Target.TABLE, ks, schema.name()),
        all);
  }
}
