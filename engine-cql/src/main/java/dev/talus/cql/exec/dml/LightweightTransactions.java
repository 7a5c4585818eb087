package dev.talus.cql.exec.dml;

import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.parse.ast.SourcePosition;

/** The refusal of conditional writes ({@code IF ...}), which the engine cannot do yet. */
final class LightweightTransactions {
  private LightweightTransactions() {}

  static RuntimeException notYet(SourcePosition at, String what, PrepareContext pc) {
    return pc.source()
        .notYet(
            at,
            1,
            "conditional writes (" + what + ")",
            "lightweight transactions arrive with the engine's conditional writes; write"
                + " unconditionally, or check in the application");
  }
}
