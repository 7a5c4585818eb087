package dev.talus.cql.exec.ddl;

import dev.talus.Table;
import dev.talus.TalusDb;
import dev.talus.cql.CqlResult;
import dev.talus.cql.SchemaChange;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.Executable;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.parse.ast.DropTableStatement;
import dev.talus.cql.parse.ast.QualifiedName;
import dev.talus.cql.parse.ast.TruncateStatement;
import java.util.Optional;

/**
 * {@code DROP TABLE [IF EXISTS]} and {@code TRUNCATE [TABLE]}, run through the engine's {@code
 * TalusDb.dropTable} and {@code Table.truncate}: durable at once, all or nothing, and the old
 * commit-log records never replay into a table created again under the same name. The table is
 * looked up when the statement runs, so a prepared one acts on the table of that name then.
 * Immutable, thread-safe.
 */
public final class TableDrop {
  private TableDrop() {}

  public static Executable drop(DropTableStatement s, PrepareContext pc) {
    Source src = pc.source();
    String ks = pc.keyspaceOf(s.table());
    String name = s.table().name().name();
    return new KeyspaceDdl.Ddl() {
      @Override
      public CqlResult execute(ExecContext ctx) {
        TalusDb db = ctx.db();
        if (find(db, ks, name).isEmpty()) {
          if (s.ifExists()) {
            return CqlResult.empty(ctx.warnings());
          }
          throw missing(src, s.table(), db, ks);
        }
        db.dropTable(ks + "." + name);
        return CqlResult.schemaChange(
            new SchemaChange(SchemaChange.Change.DROPPED, SchemaChange.Target.TABLE, ks, name),
            ctx.warnings());
      }
    };
  }

  public static Executable truncate(TruncateStatement s, PrepareContext pc) {
    Source src = pc.source();
    String ks = pc.keyspaceOf(s.table());
    String name = s.table().name().name();
    return new KeyspaceDdl.Ddl() {
      @Override
      public CqlResult execute(ExecContext ctx) {
        TalusDb db = ctx.db();
        Table t = find(db, ks, name).orElseThrow(() -> missing(src, s.table(), db, ks));
        t.truncate();
        return CqlResult.empty(ctx.warnings()); // Cassandra's TRUNCATE returns no schema change
      }
    };
  }

  private static Optional<Table> find(TalusDb db, String ks, String name) {
    return db.keyspace(ks).isEmpty() ? Optional.empty() : db.findTable(ks, name);
  }

  /** Cassandra's errors for a missing keyspace or table. */
  private static RuntimeException missing(Source src, QualifiedName n, TalusDb db, String ks) {
    if (db.keyspace(ks).isEmpty()) {
      return src.invalid(
          n.keyspace() != null ? n.keyspace() : n.name(), "Keyspace '" + ks + "' doesn't exist");
    }
    return src.invalid(n.name(), "Table '" + ks + "." + n.name().name() + "' doesn't exist");
  }
}
