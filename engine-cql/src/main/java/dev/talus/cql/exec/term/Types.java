package dev.talus.cql.exec.term;

import dev.talus.DataType;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.parse.CqlPrinter;
import dev.talus.cql.parse.ast.CqlType;
import dev.talus.cql.parse.ast.NativeType;

/**
 * CQL's types as Talus stores them: the native types map to {@link DataType} ({@code varchar} is
 * {@code text}); collections, frozen values, tuples, vectors, user-defined types and counters are
 * refused as not supported yet, custom types as never. Static, thread-safe.
 */
public final class Types {
  private Types() {}

  /** The column type of a {@code CREATE TABLE} column. */
  public static DataType column(CqlType type, PrepareContext pc) {
    if (type instanceof CqlType.Native n && n.type() != NativeType.COUNTER) {
      return Terms.nativeType(n.type());
    }
    throw unsupported(type, pc);
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
    if (type instanceof CqlType.Native n) {
      return pc.source()
          .notYet(
              n.position(),
              width,
              "counter columns",
              "counters arrive with the engine's counter support");
    }
    return pc.source()
        .notYet(
            type.position(),
            width,
            "the type " + written,
            "Talus stores the native types today; collections, frozen values, tuples, vectors and"
                + " user-defined types arrive with the engine's support for them");
  }
}
