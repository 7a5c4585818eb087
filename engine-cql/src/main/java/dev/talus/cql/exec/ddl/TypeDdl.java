package dev.talus.cql.exec.ddl;

import dev.talus.DataType;
import dev.talus.InvalidQueryException;
import dev.talus.InvalidSchemaException;
import dev.talus.KeyspaceSchema;
import dev.talus.TalusDb;
import dev.talus.UserType;
import dev.talus.cql.CqlResult;
import dev.talus.cql.SchemaChange;
import dev.talus.cql.exec.meta.SystemTables;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.Executable;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.exec.term.Types;
import dev.talus.cql.parse.ast.AlterTypeStatement;
import dev.talus.cql.parse.ast.CreateTypeStatement;
import dev.talus.cql.parse.ast.DropTypeStatement;
import dev.talus.cql.parse.ast.FieldDefinition;
import dev.talus.cql.parse.ast.Rename;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code CREATE TYPE [IF NOT EXISTS] [ks.]name (field type, ...)}, {@code ALTER TYPE} and {@code
 * DROP TYPE}. Talus's user types are database-wide (the engine keeps one namespace of types), so a
 * type created in one keyspace is visible from every keyspace; the keyspace named must exist. Field
 * types are resolved when the statement is prepared; collections and user types inside a field are
 * frozen, as the engine stores them. The rules and messages of ALTER and DROP are the engine's
 * ({@code TalusDb.addTypeField}, {@code renameTypeFields}, {@code dropType}), Cassandra's.
 * Immutable and thread-safe.
 */
public final class TypeDdl {
  private TypeDdl() {}

  /** {@code CREATE TYPE}. */
  public static Executable create(CreateTypeStatement s, PrepareContext pc) {
    Source src = pc.source();
    String ks = pc.keyspaceOf(s.type());
    String name = s.type().name().name();
    if (KeyspaceSchema.isReserved(ks) || SystemTables.KEYSPACES.contains(ks)) {
      throw src.invalid(pc.keyspaceIdentifier(s.type()), ks + " keyspace is not user-modifiable");
    }
    UserType.Builder b = UserType.builder(name);
    Set<String> seen = new HashSet<>();
    for (FieldDefinition f : s.fields()) {
      if (!seen.add(f.name().name())) {
        throw src.invalid(
            f.name(), "Duplicate field name " + f.name().name() + " in type " + ks + "." + name);
      }
      DataType t = Types.column(f.type(), pc);
      if (t == DataType.COUNTER) {
        throw src.invalid(f.name(), "A user type cannot contain counters");
      }
      b.field(f.name().name(), DataType.frozen(t));
    }
    UserType type;
    try {
      type = b.build();
    } catch (InvalidSchemaException e) {
      throw src.invalid(s.type().name(), e.getMessage());
    }
    return new KeyspaceDdl.Ddl() {
      @Override
      public CqlResult execute(ExecContext ctx) {
        TalusDb db = ctx.db();
        if (db.keyspace(ks).isEmpty() && !ks.equals(db.options().defaultKeyspace())) {
          throw src.invalid(pc.keyspaceIdentifier(s.type()), "Keyspace '" + ks + "' doesn't exist");
        }
        if (db.type(name).isPresent()) {
          if (s.ifNotExists()) {
            return CqlResult.empty(ctx.warnings());
          }
          throw src.alreadyExists(s.type().name(), ks, name);
        }
        try {
          db.createType(type);
        } catch (InvalidSchemaException e) {
          throw src.invalid(s.type().name(), e.getMessage());
        }
        return CqlResult.schemaChange(
            new SchemaChange(SchemaChange.Change.CREATED, SchemaChange.Target.TYPE, ks, name),
            ctx.warnings());
      }
    };
  }

  /**
   * {@code ALTER TYPE [IF EXISTS] [ks.]name ADD [IF NOT EXISTS] field type} or {@code RENAME [IF
   * EXISTS] a TO b [AND ...]}; {@code ALTER field TYPE t} is refused as Cassandra refuses it.
   */
  public static Executable alter(AlterTypeStatement s, PrepareContext pc) {
    Source src = pc.source();
    String ks = pc.keyspaceOf(s.type());
    String name = s.type().name().name();
    if (s.action() instanceof AlterTypeStatement.AlterFieldType a) {
      throw src.invalid(a.field(), "Altering field types is no longer supported");
    }
    DataType added = null;
    if (s.action() instanceof AlterTypeStatement.AddField add) {
      added = Types.column(add.field().type(), pc);
      if (added == DataType.COUNTER) {
        throw src.invalid(add.field().name(), "A user type cannot contain counters");
      }
    }
    DataType fieldType = added;
    return new KeyspaceDdl.Ddl() {
      @Override
      public CqlResult execute(ExecContext ctx) {
        TalusDb db = ctx.db();
        Optional<UserType> current = db.type(name);
        if (current.isEmpty()) {
          if (s.ifExists()) {
            return CqlResult.empty(ctx.warnings());
          }
          throw src.invalid(s.type().name(), "Type '" + ks + "." + name + "' doesn't exist");
        }
        try {
          if (s.action() instanceof AlterTypeStatement.AddField add) {
            String field = add.field().name().name();
            if (add.ifNotExists() && current.get().fieldIndex(field) >= 0) {
              return CqlResult.empty(ctx.warnings());
            }
            db.addTypeField(name, field, DataType.frozen(fieldType));
          } else {
            AlterTypeStatement.RenameFields r = (AlterTypeStatement.RenameFields) s.action();
            Map<String, String> renames = new LinkedHashMap<>();
            for (Rename x : r.renames()) {
              if (!r.ifExists() || current.get().fieldIndex(x.from().name()) >= 0) {
                renames.put(x.from().name(), x.to().name());
              }
            }
            if (renames.isEmpty()) {
              return CqlResult.empty(ctx.warnings());
            }
            db.renameTypeFields(name, renames);
          }
        } catch (InvalidQueryException | InvalidSchemaException e) {
          throw src.invalid(s.type().name(), e.getMessage());
        }
        return CqlResult.schemaChange(
            new SchemaChange(SchemaChange.Change.UPDATED, SchemaChange.Target.TYPE, ks, name),
            ctx.warnings());
      }
    };
  }

  /**
   * {@code DROP TYPE [IF EXISTS]}: a missing type is Cassandra's error (or nothing with IF EXISTS);
   * a type another type or a table uses is refused with Cassandra's message.
   */
  public static Executable drop(DropTypeStatement s, PrepareContext pc) {
    Source src = pc.source();
    String ks = pc.keyspaceOf(s.type());
    String name = s.type().name().name();
    return new KeyspaceDdl.Ddl() {
      @Override
      public CqlResult execute(ExecContext ctx) {
        if (ctx.db().type(name).isEmpty()) {
          if (s.ifExists()) {
            return CqlResult.empty(ctx.warnings());
          }
          throw src.invalid(s.type().name(), "Type '" + ks + "." + name + "' doesn't exist");
        }
        try {
          ctx.db().dropType(name);
        } catch (InvalidQueryException e) {
          throw src.invalid(s.type().name(), e.getMessage());
        }
        return CqlResult.schemaChange(
            new SchemaChange(SchemaChange.Change.DROPPED, SchemaChange.Target.TYPE, ks, name),
            ctx.warnings());
      }
    };
  }
}
