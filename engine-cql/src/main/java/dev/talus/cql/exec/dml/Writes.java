package dev.talus.cql.exec.dml;

import dev.talus.cql.exec.support.Executable;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.parse.ast.BatchStatement;
import dev.talus.cql.parse.ast.DeleteStatement;
import dev.talus.cql.parse.ast.InsertJsonStatement;
import dev.talus.cql.parse.ast.InsertStatement;
import dev.talus.cql.parse.ast.ModificationStatement;
import dev.talus.cql.parse.ast.SelectStatement;
import dev.talus.cql.parse.ast.UpdateStatement;

/** The entry points of the data statements: each raw statement to its prepared form. */
public final class Writes {
  private Writes() {}

  static WriteStatement prepare(ModificationStatement m, PrepareContext pc) {
    if (m instanceof InsertStatement i) {
      return InsertExec.prepare(i, pc);
    }
    if (m instanceof InsertJsonStatement j) {
      return InsertJsonExec.prepare(j, pc);
    }
    if (m instanceof UpdateStatement u) {
      return UpdateExec.prepare(u, pc);
    }
    return DeleteExec.prepare((DeleteStatement) m, pc);
  }

  /** An {@code INSERT}, {@code INSERT JSON}, {@code UPDATE} or {@code DELETE}. */
  public static Executable write(ModificationStatement m, PrepareContext pc) {
    return prepare(m, pc);
  }

  /** A {@code BATCH}. */
  public static Executable batch(BatchStatement b, PrepareContext pc) {
    return BatchExec.prepare(b, pc);
  }

  /** A {@code SELECT} from a Talus table or a system table. */
  public static Executable select(SelectStatement s, PrepareContext pc) {
    Executable system = VirtualSelectExec.prepare(s, pc);
    if (system != null) {
      return system;
    }
    return SelectExec.prepare(s, pc.table(s.table()), pc);
  }
}
