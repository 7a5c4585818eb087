package dev.talus.cql.exec.term;

import dev.talus.DataType;
import dev.talus.InvalidSchemaException;
import dev.talus.UserType;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.parse.CqlPrinter;
import dev.talus.cql.parse.ast.CqlType;
import dev.talus.cql.parse.ast.NativeType;
import java.util.ArrayList;
import java.util.List;

/**
 * CQL's types as Talus stores them: the native types map to {@link DataType} ({@code varchar} is
 * {@code text}), {@code counter} to {@link DataType#COUNTER}, {@code list/set/map<...>}, {@code
 * frozen<...>}, {@code tuple<...>}, {@code vector<T, n>} and user types (created with {@code CREATE
 * TYPE}, database-wide in Talus) to the engine's composite types, with Cassandra's checks and
 * wording (a counter inside a collection, {@code frozen<>} of a native type, a non-frozen
 * collection inside another). Custom types are refused as never supported. Static, thread-safe.
 */
public final class Types {
  private Types() {}

  /** The column type of a {@code CREATE TABLE} column (or a user type's field). */
  public static DataType column(CqlType type, PrepareContext pc) {
    DataType t = resolve(type, pc, false);
    if (t == null) {
      throw unsupported(type, pc);
    }
    return t;
  }

  private static DataType resolve(CqlType type, PrepareContext pc, boolean inside) {
    String written = CqlPrinter.print(type);
    try {
      if (type instanceof CqlType.Native n) {
        if (n.type() == NativeType.COUNTER) {
          if (inside) {
            throw pc.source()
                .invalid(
                    n.position(), 7, "Counters are not allowed inside collections: " + written);
          }
          return DataType.COUNTER;
        }
        return Terms.nativeType(n.type());
      }
      if (type instanceof CqlType.ListOf l) {
        return DataType.list(element(l.element(), written, pc));
      }
      if (type instanceof CqlType.SetOf s) {
        return DataType.set(element(s.element(), written, pc));
      }
      if (type instanceof CqlType.MapOf m) {
        return DataType.map(element(m.key(), written, pc), element(m.value(), written, pc));
      }
      if (type instanceof CqlType.Frozen f) {
        DataType inner = resolve(f.inner(), pc, inside);
        if (inner.isNative()) {
          throw pc.source()
              .invalid(
                  f.position(),
                  written.length(),
                  "frozen<> is only allowed on collections, tuples, and user-defined types");
        }
        return DataType.frozen(inner);
      }
      if (type instanceof CqlType.TupleOf t) {
        List<DataType> parts = new ArrayList<>();
        for (CqlType e : t.elements()) {
          parts.add(DataType.frozen(resolve(e, pc, true)));
        }
        return DataType.tuple(parts.toArray(new DataType[0]));
      }
      if (type instanceof CqlType.VectorOf v) {
        if (v.dimension() < 1) {
          throw pc.source()
              .invalid(
                  v.position(),
                  written.length(),
                  "vectors may only have positive dimensions; given " + v.dimension());
        }
        return DataType.vector(resolve(v.element(), pc, true), v.dimension());
      }
      if (type instanceof CqlType.UserDefined u) {
        return DataType.udt(userType(u, pc));
      }
      return null;
    } catch (InvalidSchemaException e) {
      throw pc.source().invalid(type.position(), written.length(), e.getMessage());
    }
  }

  private static DataType element(CqlType e, String outer, PrepareContext pc) {
    DataType t = resolve(e, pc, true);
    if (t.isMultiCell()) {
      throw pc.source()
          .invalid(
              e.position(),
              CqlPrinter.print(e).length(),
              (t.isCollection() ? "Non-frozen collections" : "Non-frozen UDTs")
                  + " are not allowed inside collections: "
                  + outer);
    }
    return t;
  }

  /** The user type {@code u} names; Cassandra's "Unknown type" when it does not exist. */
  public static UserType userType(CqlType.UserDefined u, PrepareContext pc) {
    String name = u.name().name().name();
    String ks = pc.keyspaceOf(u.name());
    return pc.db()
        .type(name)
        .orElseThrow(
            () ->
                pc.source()
                    .invalid(
                        u.position(),
                        Math.max(1, CqlPrinter.print(u).length()),
                        "Unknown type " + ks + "." + name));
  }

  /** The refusal of a type Talus cannot store. */
  public static RuntimeException unsupported(CqlType type, PrepareContext pc) {
    String written = CqlPrinter.print(type);
    int width = written.length();
    if (type instanceof CqlType.Custom c) {
      return pc.source()
          .never(
              c.position(),
              width,
              "custom types",
              "custom types ("
                  + written
                  + ") are not supported by Talus: they are Java classes loaded into a"
                  + " Cassandra server; use a native type, or a blob");
    }
    return pc.source()
        .invalid(type.position(), width, "the type " + written + " is not allowed here");
  }
}
