package dev.talus.cql.exec.ddl;

import dev.talus.InvalidSchemaException;
import dev.talus.KeyspaceSchema;
import dev.talus.Table;
import dev.talus.TalusDb;
import dev.talus.cql.CqlColumn;
import dev.talus.cql.CqlResult;
import dev.talus.cql.SchemaChange;
import dev.talus.cql.exec.meta.SystemTables;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.Executable;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.parse.ast.AlterKeyspaceStatement;
import dev.talus.cql.parse.ast.CreateKeyspaceStatement;
import dev.talus.cql.parse.ast.DropKeyspaceStatement;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.Properties;
import dev.talus.cql.parse.ast.Property;
import dev.talus.cql.parse.ast.UseStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code CREATE KEYSPACE}, {@code ALTER KEYSPACE}, {@code DROP KEYSPACE} and {@code USE}, on the
 * engine's keyspaces: options {@code replication} (validated with Cassandra's rules by the engine)
 * and {@code durable_writes}; Cassandra's messages for what exists or does not. Dropping a keyspace
 * drops its tables first, one by one. Immutable and thread-safe.
 */
public final class KeyspaceDdl {
  private KeyspaceDdl() {}

  /** The options of a keyspace statement: replication (or null), durable writes (or null). */
  private record Options(Map<String, String> replication, Boolean durableWrites, Property at) {}

  private static Options options(Properties props, PrepareContext pc) {
    Source src = pc.source();
    Map<String, String> replication = null;
    Boolean durable = null;
    Property at = null;
    for (Property p : props.properties()) {
      switch (p.name().name()) {
        case "replication" -> {
          replication = PropertyValues.map(p, src);
          at = p;
        }
        case "durable_writes" -> durable = PropertyValues.bool(p, src);
        case "graph_engine" ->
            pc.warn("The unsupported graph property 'graph_engine' was ignored.");
        default ->
            throw src.syntax(
                p.position(), p.name().name(), "Unknown property '" + p.name().name() + "'");
      }
    }
    return new Options(replication, durable, at);
  }

  private static void checkUserKeyspace(Identifier ks, PrepareContext pc) {
    if (KeyspaceSchema.isReserved(ks.name()) || SystemTables.KEYSPACES.contains(ks.name())) {
      throw pc.source().invalid(ks, ks.name() + " keyspace is not user-modifiable");
    }
  }

  private static KeyspaceSchema build(
      KeyspaceSchema.Builder b, Property at, Identifier ks, PrepareContext pc) {
    try {
      return b.build();
    } catch (InvalidSchemaException e) {
      Identifier where = at != null ? at.name() : ks;
      throw pc.source().config(where.position(), where.name().length(), e.getMessage());
    }
  }

  /** {@code CREATE KEYSPACE}. */
  public static Executable create(CreateKeyspaceStatement s, PrepareContext pc) {
    checkUserKeyspace(s.keyspace(), pc);
    Options o = options(s.properties(), pc);
    if (o.replication() == null) {
      throw pc.source().invalid(s.position(), 6, "Missing mandatory option 'replication'");
    }
    KeyspaceSchema.Builder b =
        KeyspaceSchema.builder(s.keyspace().name()).replication(o.replication());
    if (o.durableWrites() != null) {
      b.durableWrites(o.durableWrites());
    }
    KeyspaceSchema ks = build(b, o.at(), s.keyspace(), pc);
    List<String> warnings = new ArrayList<>(pc.warnings());
    warnings.addAll(ks.lint());
    Source src = pc.source();
    return new Ddl() {
      @Override
      public CqlResult execute(ExecContext ctx) {
        TalusDb db = ctx.db();
        if (db.keyspace(ks.name()).isPresent()) {
          if (s.ifNotExists()) {
            return CqlResult.empty(ctx.warnings());
          }
          throw src.alreadyExists(s.keyspace(), ks.name(), "");
        }
        db.createKeyspace(ks);
        return change(SchemaChange.Change.CREATED, ks.name(), warnings, ctx);
      }
    };
  }

  /** {@code ALTER KEYSPACE}. */
  public static Executable alter(AlterKeyspaceStatement s, PrepareContext pc) {
    checkUserKeyspace(s.keyspace(), pc);
    Options o = options(s.properties(), pc);
    List<String> prepareWarnings = pc.warnings();
    Source src = pc.source();
    return new Ddl() {
      @Override
      public CqlResult execute(ExecContext ctx) {
        TalusDb db = ctx.db();
        KeyspaceSchema old = db.keyspace(s.keyspace().name()).orElse(null);
        if (old == null) {
          if (s.ifExists()) {
            return CqlResult.empty(ctx.warnings());
          }
          throw src.invalid(s.keyspace(), "Keyspace '" + s.keyspace().name() + "' doesn't exist");
        }
        KeyspaceSchema.Builder b = old.toBuilder();
        if (o.replication() != null) {
          b.replication(o.replication());
        }
        if (o.durableWrites() != null) {
          b.durableWrites(o.durableWrites());
        }
        KeyspaceSchema ks = build(b, o.at(), s.keyspace(), pc);
        db.alterKeyspace(ks);
        List<String> warnings = new ArrayList<>(prepareWarnings);
        if (o.replication() != null) {
          warnings.addAll(ks.lint());
        }
        return change(SchemaChange.Change.UPDATED, ks.name(), warnings, ctx);
      }
    };
  }

  /** {@code DROP KEYSPACE}. */
  public static Executable drop(DropKeyspaceStatement s, PrepareContext pc) {
    checkUserKeyspace(s.keyspace(), pc);
    Source src = pc.source();
    return new Ddl() {
      @Override
      public CqlResult execute(ExecContext ctx) {
        TalusDb db = ctx.db();
        String name = s.keyspace().name();
        if (db.keyspace(name).isEmpty()) {
          if (s.ifExists()) {
            return CqlResult.empty(ctx.warnings());
          }
          throw src.invalid(s.keyspace(), "Keyspace '" + name + "' doesn't exist");
        }
        // its tables first, each dropped durably on its own (a crash part-way leaves the rest,
        // and the statement run again finishes); a table created meanwhile is dropped next round
        for (int round = 0; ; round++) {
          for (Table t : db.tables()) {
            if (t.schema().keyspace().filter(name::equals).isPresent()) {
              db.dropTableIfExists(name + "." + t.schema().name());
            }
          }
          try {
            db.dropKeyspace(name);
            break;
          } catch (InvalidSchemaException e) {
            if (round >= 2) {
              throw src.invalid(s.keyspace(), e.getMessage());
            }
          }
        }
        return change(SchemaChange.Change.DROPPED, name, List.of(), ctx);
      }
    };
  }

  /** {@code USE}. */
  public static Executable use(UseStatement s, PrepareContext pc) {
    Source src = pc.source();
    String name = s.keyspace().name();
    return new Ddl() {
      @Override
      public CqlResult execute(ExecContext ctx) {
        if (!SystemTables.KEYSPACES.contains(name) && ctx.db().keyspace(name).isEmpty()) {
          throw src.invalid(s.keyspace(), "Keyspace '" + name + "' does not exist");
        }
        ctx.session().useKeyspace(name);
        return CqlResult.setKeyspace(name, ctx.warnings());
      }
    };
  }

  private static CqlResult change(
      SchemaChange.Change change, String ks, List<String> warnings, ExecContext ctx) {
    List<String> all = new ArrayList<>(warnings);
    all.addAll(ctx.warnings());
    return CqlResult.schemaChange(
        new SchemaChange(change, SchemaChange.Target.KEYSPACE, ks, ""), all);
  }

  /** A statement that returns no rows. */
  abstract static class Ddl implements Executable {
    @Override
    public List<CqlColumn> resultColumns() {
      return List.of();
    }
  }
}
