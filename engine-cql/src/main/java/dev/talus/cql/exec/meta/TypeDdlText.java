package dev.talus.cql.exec.meta;

import dev.talus.DataType;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.UserType;
import dev.talus.cql.parse.CqlPrinter;
import dev.talus.cql.parse.ast.CqlType;
import dev.talus.cql.parse.ast.CreateTypeStatement;
import dev.talus.cql.parse.ast.FieldDefinition;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.NativeType;
import dev.talus.cql.parse.ast.QualifiedName;
import dev.talus.cql.parse.ast.SourcePosition;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Types as DDL for {@code DESCRIBE}: a Talus {@link DataType} as the CQL type syntax tree that
 * prints it, a user type as {@code CREATE TYPE IF NOT EXISTS ks.name (...)} (IF NOT EXISTS because
 * Talus's types are database-wide: the same type may be described under several keyspaces), and
 * which user types a keyspace's tables use, in creation order (so that each type comes after the
 * types its fields use). Static, thread-safe.
 */
public final class TypeDdlText {
  private static final SourcePosition NONE = SourcePosition.NONE;

  private TypeDdlText() {}

  /** The CQL type that prints {@code t}. */
  public static CqlType cqlType(DataType t) {
    List<DataType> c = t.componentTypes();
    CqlType inner =
        switch (t.kind()) {
          case LIST -> new CqlType.ListOf(cqlType(c.get(0)), NONE);
          case SET -> new CqlType.SetOf(cqlType(c.get(0)), NONE);
          case MAP -> new CqlType.MapOf(cqlType(c.get(0)), cqlType(c.get(1)), NONE);
          case TUPLE -> new CqlType.TupleOf(c.stream().map(TypeDdlText::cqlType).toList(), NONE);
          case UDT ->
              new CqlType.UserDefined(new QualifiedName(null, Identifier.of(t.userType().name())));
          case VECTOR -> new CqlType.VectorOf(cqlType(c.get(0)), t.dimension(), NONE);
          default -> new CqlType.Native(NativeType.valueOf(t.kind().name()), NONE);
        };
    return t.isFrozen() && t.kind() != DataType.Kind.TUPLE && t.kind() != DataType.Kind.VECTOR
        ? new CqlType.Frozen(inner, NONE)
        : inner;
  }

  /** {@code CREATE TYPE IF NOT EXISTS ks.name (...);} */
  public static String createType(String keyspace, UserType u) {
    List<FieldDefinition> fields = new ArrayList<>();
    for (int i = 0; i < u.fieldNames().size(); i++) {
      fields.add(
          new FieldDefinition(
              Identifier.of(u.fieldNames().get(i)), cqlType(u.fieldTypes().get(i))));
    }
    return CqlPrinter.print(
            new CreateTypeStatement(
                new QualifiedName(Identifier.of(keyspace), Identifier.of(u.name())),
                true,
                fields,
                NONE))
        + ";";
  }

  /**
   * The user types the tables of {@code keyspace} use (directly or through other types), in
   * creation order; for the default keyspace also the types no table uses, so that every type is
   * described somewhere.
   */
  public static List<UserType> typesOf(String keyspace, TalusDb db) {
    Set<String> used = new LinkedHashSet<>();
    Set<String> anyUse = new LinkedHashSet<>();
    for (var t : db.tables()) {
      Set<String> into = t.keyspace().equals(keyspace) ? used : new LinkedHashSet<>();
      collect(t.schema(), into);
      anyUse.addAll(into);
    }
    boolean isDefault = keyspace.equals(db.options().defaultKeyspace());
    List<UserType> out = new ArrayList<>();
    for (UserType u : db.types()) {
      if (used.contains(u.name()) || (isDefault && !anyUse.contains(u.name()))) {
        out.add(u);
      }
    }
    return out;
  }

  private static void collect(TableSchema s, Set<String> into) {
    for (var c : s.columns()) {
      collect(c.type(), into);
    }
  }

  private static void collect(DataType t, Set<String> into) {
    if (t.kind() == DataType.Kind.UDT) {
      into.add(t.userType().name());
    }
    for (DataType c : t.componentTypes()) {
      collect(c, into);
    }
  }

  /** {@code DESCRIBE TYPES} rows and the keyspaces each type is listed under. */
  static List<String> keyspacesOf(UserType u, TalusDb db) {
    List<String> out = new ArrayList<>();
    for (var k : db.keyspaces()) {
      if (typesOf(k.name(), db).contains(u)) {
        out.add(k.name());
      }
    }
    return out;
  }
}
