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
import dev.talus.cql.parse.ast.Property;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code CREATE [CUSTOM] INDEX [IF NOT EXISTS] [name] ON t (col | keys(c) | values(c) | entries(c)
 * | full(c)) [USING 'sai'] [WITH OPTIONS = {...}]} and {@code DROP INDEX [IF EXISTS] [ks.]name},
 * run through the engine's {@code Table.createIndex} and {@code Table.dropIndex}. Talus has one
 * index kind, the storage-attached index: {@code USING} may name it ({@code 'sai'}, {@code
 * 'StorageAttachedIndex'} or its full Cassandra class name) or be left out, which makes an SAI
 * index too (Cassandra 5.0 makes a legacy secondary index then, unless {@code
 * default_secondary_index} says {@code sai}). An unnamed index is called {@code
 * <table>_<column>_idx}, as in Cassandra. Both answer with the schema change Cassandra sends: the
 * table was updated. The target and the options go to the engine as written ({@code
 * IndexDef.target}, {@code IndexDef.options}), which decides what it can index. Immutable,
 * thread-safe.
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
    Map<String, String> options = options(s, src);
    if (s.targets().size() != 1) {
      throw src.notYet(
          s.position(), 6, "an index on several columns", "index each column on its own");
    }
    IndexTarget target = s.targets().get(0);
    IndexDef.Target kind = target(target.kind());
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
          created =
              t.createIndex(
                  new IndexDef(name, column, IndexDef.Kind.SAI, kind, new TreeMap<>(options)),
                  s.ifNotExists());
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

  /**
   * The {@code WITH OPTIONS = {...}} map of {@code s}, its keys and values as text (a number or
   * boolean as written), for the engine to check; empty without options. {@code OPTIONS} is the
   * only property an index takes, as in Cassandra's {@code IndexAttributes}.
   */
  static Map<String, String> options(CreateIndexStatement s, Source src) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Property p : s.properties().properties()) {
      if (!p.name().name().equals("options")) {
        throw src.syntax(
            p.position(), p.name().name(), "Unknown property '" + p.name().name() + "'");
      }
      out.putAll(PropertyValues.map(p, src));
    }
    return out;
  }

  private static IndexDef.Target target(IndexTarget.Kind k) {
    return switch (k) {
      case SIMPLE -> IndexDef.Target.SIMPLE;
      case KEYS -> IndexDef.Target.KEYS;
      case VALUES -> IndexDef.Target.VALUES;
      case ENTRIES -> IndexDef.Target.ENTRIES;
      case FULL -> IndexDef.Target.FULL;
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
