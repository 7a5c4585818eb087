package dev.talus.cql.exec.ddl;

import dev.talus.AlterTable;
import dev.talus.InvalidQueryException;
import dev.talus.InvalidSchemaException;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.cql.CqlConfigurationException;
import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlResult;
import dev.talus.cql.SchemaChange;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.Executable;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.exec.term.Types;
import dev.talus.cql.parse.ast.AlterTableStatement;
import dev.talus.cql.parse.ast.ColumnDefinition;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.Rename;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code ALTER TABLE}: {@code ADD [IF NOT EXISTS]} one column or a parenthesised list, {@code DROP
 * [IF EXISTS]} one or a list, {@code RENAME [IF EXISTS] a TO b [AND ...]} of primary key columns,
 * and {@code WITH} any table option, each run through the engine's {@link Table#alter()} as one
 * durable schema change (the rules and messages are Cassandra's; see {@code
 * cql3/statements/schema/AlterTableStatement.java}). Column names, types and options are checked
 * when the statement is prepared; the change is checked against, and applied to, the schema the
 * table has when it runs. Column type changes and {@code DROP COMPACT STORAGE} are refused as
 * Cassandra 5.0 refuses them; {@code DROP ... USING TIMESTAMP} is refused because a Talus drop
 * always removes the column's data whole. Immutable, thread-safe.
 */
public final class TableAlter {
  private TableAlter() {}

  public static Executable prepare(AlterTableStatement s, PrepareContext pc) {
    Source src = pc.source();
    AlterTableStatement.Action a = s.action();
    if (a instanceof AlterTableStatement.AlterColumnType) {
      throw src.invalid(s.position(), 5, "Altering column types is no longer supported");
    }
    if (a instanceof AlterTableStatement.DropCompactStorage) {
      throw src.invalid(
          s.position(), 5, "Cannot DROP COMPACT STORAGE on a table without COMPACT STORAGE");
    }
    if (a instanceof AlterTableStatement.SetColumnMask) {
      throw src.never(
          s.position(),
          5,
          "column masks",
          "column masks are not supported by Talus: it has no roles");
    }
    if (a instanceof AlterTableStatement.DropColumns d && d.timestamp() != null) {
      throw src.never(
          d.timestamp().position(),
          1,
          "ALTER TABLE ... DROP ... USING TIMESTAMP",
          "a Talus drop always removes the column's data whole, so no timestamp can keep newer"
              + " cells; drop without USING TIMESTAMP");
    }
    Table table;
    try {
      table = pc.table(s.table());
    } catch (CqlInvalidRequestException e) {
      if (s.ifExists()) {
        return noop();
      }
      throw e;
    }
    change(s, a, table.schema(), pc); // names, masks and types are checked now
    if (a instanceof AlterTableStatement.SetOptions o) { // and options
      TableSchema.Builder b = table.schema().toBuilder();
      TableOptions.apply(o.properties(), b, pc);
      try {
        b.build();
      } catch (InvalidSchemaException e) {
        throw src.config(s.position(), 5, e.getMessage());
      }
    }
    List<String> warnings = pc.warnings();
    String ks = table.keyspace();
    String name = table.name();
    return new KeyspaceDdl.Ddl() {
      @Override
      public CqlResult execute(ExecContext ctx) {
        var current = ctx.db().findTable(ks, name);
        if (current.isEmpty()) {
          if (s.ifExists()) {
            return CqlResult.empty(ctx.warnings());
          }
          throw src.invalid(s.table().name(), "table " + name + " does not exist");
        }
        Table t = current.get();
        AlterTable alter = t.alter();
        change(s, a, t.schema(), pc).accept(alter);
        try {
          alter.apply();
        } catch (CqlConfigurationException | CqlInvalidRequestException e) {
          throw e;
        } catch (InvalidSchemaException e) {
          throw src.config(s.position(), 5, e.getMessage());
        } catch (InvalidQueryException e) {
          throw src.invalid(s.position(), 5, e.getMessage());
        }
        List<String> all = new ArrayList<>(warnings);
        all.addAll(ctx.warnings());
        return CqlResult.schemaChange(
            new SchemaChange(SchemaChange.Change.UPDATED, SchemaChange.Target.TABLE, ks, name),
            all);
      }
    };
  }

  /**
   * The engine calls of the statement's action against {@code schema} (IF [NOT] EXISTS resolved).
   */
  private static Consumer<AlterTable> change(
      AlterTableStatement s, AlterTableStatement.Action a, TableSchema schema, PrepareContext pc) {
    Source src = pc.source();
    List<Consumer<AlterTable>> calls = new ArrayList<>();
    if (a instanceof AlterTableStatement.AddColumns add) {
      for (ColumnDefinition c : add.columns()) {
        String col = c.name().name();
        if (!TableSchema.isValidName(col)) {
          throw src.config(
              c.position(),
              Math.max(1, col.length()),
              "Talus column names are 1 to 48 letters, digits or underscores; \""
                  + col
                  + "\" is not one (Cassandra accepts any quoted name)");
        }
        if (c.mask() != null) {
          throw src.never(
              c.mask().position(),
              6,
              "column masks",
              "column masks (MASKED WITH) are not supported by Talus: it has no roles");
        }
        if (add.ifNotExists() && schema.column(col).isPresent()) {
          continue;
        }
        if (c.isStatic() && schema.clustering().isEmpty()) {
          // Cassandra's AlterTableStatement refuses this as an invalid request
          throw src.invalid(
              c.position(),
              col.length(),
              "Static columns are only useful (and thus allowed) if the table has at least one"
                  + " clustering column");
        }
        var type = Types.column(c.type(), pc);
        if (c.isStatic()) {
          calls.add(t -> t.addStaticColumn(col, type));
        } else {
          calls.add(t -> t.addColumn(col, type));
        }
      }
    } else if (a instanceof AlterTableStatement.DropColumns drop) {
      for (Identifier c : drop.columns()) {
        if (drop.ifExists() && schema.column(c.name()).isEmpty()) {
          continue;
        }
        calls.add(t -> t.dropColumn(c.name()));
      }
    } else if (a instanceof AlterTableStatement.RenameColumns rename) {
      for (Rename r : rename.renames()) {
        if (rename.ifExists() && schema.column(r.from().name()).isEmpty()) {
          continue;
        }
        calls.add(t -> t.renameColumn(r.from().name(), r.to().name()));
      }
    } else if (a instanceof AlterTableStatement.SetOptions o) {
      calls.add(
          t ->
              t.options(
                  b -> {
                    TableOptions.apply(o.properties(), b, pc);
                    return b;
                  }));
    }
    return t -> calls.forEach(c -> c.accept(t));
  }

  private static Executable noop() {
    return new KeyspaceDdl.Ddl() {
      @Override
      public CqlResult execute(ExecContext ctx) {
        return CqlResult.empty(ctx.warnings());
      }
    };
  }
}
