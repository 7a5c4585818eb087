package dev.talus.cql.exec.dml;

/**
 * An engine refusal in CQL's words. The engine's query-first messages name the rule and the fix in
 * terms of the builder API ({@code allowFiltering()}, {@code in(...)}, {@code orderBy}); a CQL user
 * reads the same rule and fix in terms of the statement ({@code ALLOW FILTERING}, {@code IN},
 * {@code ORDER BY}). Only these names change; the rule and the fix stay the engine's. Stateless.
 */
final class EngineMessages {
  private static final String[][] WORDS = {
    {"allowFiltering()", "ALLOW FILTERING"},
    {"in(...)", "IN"},
    {"eq(...)", "="},
    {"perPartitionLimit", "PER PARTITION LIMIT"},
    {"orderBy or reversed", "ORDER BY"},
    {"orderBy", "ORDER BY"},
    {"read without pageSize", "read without paging (a fetch size of 0)"},
    {"pageSize", "a fetch size"},
  };

  private EngineMessages() {}

  /** {@code message} with the builder API's names replaced by CQL's. */
  static String inCql(String message) {
    String out = message;
    for (String[] w : WORDS) {
      out = out.replace(w[0], w[1]);
    }
    return out;
  }
}
