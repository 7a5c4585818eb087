package dev.talus.cql.exec.support;

import dev.talus.cql.CqlColumn;
import dev.talus.cql.CqlResult;
import java.util.List;

/**
 * A statement prepared once — names resolved, values typed, the plan made — and executed any number
 * of times with bound values (Cassandra's {@code CQLStatement}, prepared from its raw form).
 * Immutable and thread-safe: everything an execution needs comes in its {@link ExecContext}.
 */
public interface Executable {
  /** The columns of the rows the statement returns; empty when it returns none. */
  List<CqlColumn> resultColumns();

  /** Runs the statement. */
  CqlResult execute(ExecContext ctx);
}
