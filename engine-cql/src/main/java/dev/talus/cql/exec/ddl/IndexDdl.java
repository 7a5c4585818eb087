package dev.talus.cql.exec.ddl;

import dev.talus.IndexDef;
import dev.talus.Table;
import dev.talus.TalusDb;
import dev.talus.cql.CqlResult;
import dev.talus.cql.SchemaChange;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.Executable;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.parse.ast.CreateIndexStatement;
import dev.talus.cql.parse.ast.DropIndexStatement;
import dev.talus.cql.parse.ast.IndexTarget;
import java.util.Locale;
import java.util.Set;

/**
 * {@code CREATE [CUSTOM] INDEX [IF NOT EXISTS] [name] ON t (col) [USING 'sai']} and {@code DROP
 * INDEX [IF EXISTS] [ks.]name}, run through the engine's {@code Table.createIndex} and {@code
 * Table.dropIndex}. Talus has one index kind, the storage-attached index: {@code USING} may name it
 * ({@code 'sai'}, {@code 'StorageAttachedIndex'} or its full Cassandra class name) or be left out,
 * which makes an SAI index too (Cassandra 5.0 makes a legacy secondary index then, unless {@code
 * default_secondary_index} says {@code sai}). An unnamed index is called {@code
 * <table>_<column>_idx}, as in Cassandra. Both answer with the schema change Cassandra sends: the
 * table was updated. Immutable, thread-safe.
 */
public final class IndexDdl {
  private static final Set<String> SAI =
      Set.of("sai", "storageattachedindex", "org.apache.cassandra.index.sai.storageattachedindex");

  private IndexDdl() {}

  public static Executable create(CreateIndexStatement s, PrepareContext pc) {
    Source src = pc.source();
    if (s.custom() && s.using() == null) {
      throw src.invalid(s.position(), "CUSTOM index requires specifying the index class");
    }
    if (s.using() != null && !SAI.contains(s.using().toLowerCase(Locale.ROOT))) {
      throw src.notYet(
          s.position(),
          6,
          "index class '" + s.using() + "'",
          "Talus has storage-attached indexes only: USING 'sai'");
    }
    if (!s.properties().isEmpty()) {
      throw src.notYet(
          s.position(), 6, "index options (WITH OPTIONS)", "Talus indexes take no options yet");
    }
    if (s.targets().size() != 1) {
      throw src.notYet(
          s.position(), 6, "an index on several columns", "index each column on its own");
    }
    IndexTarget target = s.targets().get(0);
    if (target.kind() != IndexTarget.Kind.SIMPLE) {
      throw src.notYet(
          target.position(),
          target.column().name().length(),
          "indexing " + target.kind().cql() + "(...) of a collection",
          "Talus indexes regular columns of scalar types");
    }
    String ks = pc.keyspaceOf(s.table());
    String table = s.table().name().name();
    String column = target.column().name();
    String name = s.name() != null ? s.name().name() : table + "_" + column + "_idx";
    return new KeyspaceDdl.Ddl() {
      @Override
      public CqlResult execute(ExecContext ctx) {
        TalusDb db = ctx.db();
        Table t =
            (db.keyspace(ks).isEmpty()
                    ? java.util.Optional.<Table>empty()
                    : db.findTable(ks, table))
                .orElseThrow(
                    () ->
                        src.invalid(
                            s.table().name(), "Table '" + ks + "." + table + "' doesn't exist"));
        boolean created;
        try {
          created = t.createIndex(IndexDef.sai(name, column), s.ifNotExists());
        } catch (dev.talus.cql.CqlInvalidRequestException e) {
          throw e;
        } catch (dev.talus.InvalidQueryException e) {
          throw src.invalid(s.position(), 6, e.getMessage());
        }
        if (!created) {
          return CqlResult.empty(ctx.warnings());
        }
        return CqlResult.schemaChange(
            new SchemaChange(SchemaChange.Change.UPDATED, SchemaChange.Target.TABLE, ks, table),
            ctx.warnings());
      }
    };
  }

  public static Executable drop(DropIndexStatement s, PrepareContext pc) {
    Source src = pc.source();
    String ks = pc.keyspaceOf(s.index());
    String name = s.index().name().name();
    return new KeyspaceDdl.Ddl() {
      @Override
      public CqlResult execute(ExecContext ctx) {
        TalusDb db = ctx.db();
        for (Table t : db.tables()) {
          if (t.keyspace().equals(ks)
              && t.indexes().stream().anyMatch(d -> d.name().equals(name))) {
            t.dropIndex(name);
            return CqlResult.schemaChange(
                new SchemaChange(
                    SchemaChange.Change.UPDATED, SchemaChange.Target.TABLE, ks, t.name()),
                ctx.warnings());
          }
        }
        if (s.ifExists()) {
          return CqlResult.empty(ctx.warnings());
        }
        throw src.invalid(
            s.index().name(),
            "Index '"
                + name
                + "' could not be found in any of the tables of keyspace '"
                + ks
                + "'");
      }
    };
  }
}
