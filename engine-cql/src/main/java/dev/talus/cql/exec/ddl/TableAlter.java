package dev.talus.cql.exec.ddl;

import dev.talus.CompactionOptions;
import dev.talus.InvalidSchemaException;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.cql.CqlResult;
import dev.talus.cql.SchemaChange;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.Executable;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.parse.ast.AlterTableStatement;
import dev.talus.cql.parse.ast.Properties;
import dev.talus.cql.parse.ast.Property;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ALTER TABLE}: what the engine can change today is the compaction strategy ({@code ALTER
 * TABLE t WITH compaction = {...}}, applied to the live table); adding, dropping and renaming
 * columns and the other options wait for the engine's schema changes. Column type changes and
 * {@code DROP COMPACT STORAGE} are refused as Cassandra 5.0 refuses them. Immutable, thread-safe.
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
    if (!(a instanceof AlterTableStatement.SetOptions o)
        || o.properties().properties().size() != 1
        || !o.properties().properties().get(0).name().name().equals("compaction")) {
      String what =
          a instanceof AlterTableStatement.AddColumns
              ? "ALTER TABLE ... ADD"
              : a instanceof AlterTableStatement.DropColumns
                  ? "ALTER TABLE ... DROP"
                  : a instanceof AlterTableStatement.RenameColumns
                      ? "ALTER TABLE ... RENAME"
                      : "ALTER TABLE ... WITH options other than compaction";
      throw src.notYet(
          s.position(),
          5,
          what,
          "it arrives with the engine's schema changes; ALTER TABLE t WITH compaction = {...}"
              + " runs today");
    }
    Property compaction = o.properties().properties().get(0);
    Table table;
    try {
      table = pc.table(s.table());
    } catch (RuntimeException e) {
      if (s.ifExists()) {
        return noop();
      }
      throw e;
    }
    TableSchema.Builder b = table.schema().toBuilder();
    TableOptions.apply(new Properties(List.of(compaction)), b, pc);
    CompactionOptions options;
    try {
      options = b.build().compaction();
    } catch (InvalidSchemaException e) {
      throw src.config(compaction.position(), 10, e.getMessage());
    }
    List<String> warnings = pc.warnings();
    return new KeyspaceDdl.Ddl() {
      @Override
      public CqlResult execute(ExecContext ctx) {
        table.setCompaction(options);
        List<String> all = new ArrayList<>(warnings);
        all.addAll(ctx.warnings());
        return CqlResult.schemaChange(
            new SchemaChange(
                SchemaChange.Change.UPDATED,
                SchemaChange.Target.TABLE,
                table.keyspace(),
                table.name()),
            all);
      }
    };
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
