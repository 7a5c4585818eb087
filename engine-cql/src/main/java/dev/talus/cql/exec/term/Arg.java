package dev.talus.cql.exec.term;

import dev.talus.DataType;
import dev.talus.cql.ColumnType;
import dev.talus.cql.exec.support.Receiver;
import dev.talus.cql.parse.ast.SourcePosition;

/**
 * An argument of a function call before its type is fixed: a term or a selector. Function
 * resolution asks what type it has on its own, whether it could take a given type, then prepares it
 * for the chosen signature.
 */
interface Arg {
  SourcePosition position();

  /** Its type on its own, or null if it takes its receiver's (a constant, a bind marker, NULL). */
  ColumnType knownType();

  /** True if it can be prepared as a value of {@code type}. */
  boolean accepts(DataType type);

  /** Prepares it as a value for {@code receiver}. */
  Operand prepare(Receiver receiver);

  /** How it is written, for a result column's name. */
  String text();
}
