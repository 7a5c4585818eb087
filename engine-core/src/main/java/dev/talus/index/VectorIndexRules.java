package dev.talus.index;

import dev.talus.ColumnDef;
import dev.talus.DataType;
import dev.talus.IndexDef;
import dev.talus.InvalidQueryException;
import java.util.Collection;

/**
 * What CREATE INDEX accepts for a vector column: a regular {@code vector<float, n>} column, the
 * whole value, and one option, {@code similarity_function} ({@code cosine} — the default — {@code
 * dot_product} or {@code euclidean}, any case), as Cassandra 5.0's {@code IndexWriterConfig}
 * validates it. Cassandra's graph options ({@code maximum_node_connections}, {@code
 * construction_beam_width}) are refused: Talus's graph has fixed parameters, chosen by measurement
 * (docs/architecture.md). Stateless.
 */
final class VectorIndexRules {
  private VectorIndexRules() {}

  /** True if {@code c} is a vector column, whose index these rules check. */
  static boolean applies(ColumnDef c) {
    return c.type().kind() == DataType.Kind.VECTOR;
  }

  /** True if a column of type {@code t} takes a vector index: {@code vector<float, n>}. */
  static boolean isVector(DataType t) {
    return t.kind() == DataType.Kind.VECTOR && t.elementType().equals(DataType.FLOAT);
  }

  /** Checks {@code def} on vector column {@code c}. */
  static void check(ColumnDef c, IndexDef def, Collection<IndexDef> tableIndexes) {
    if (!isVector(c.type())) {
      throw new InvalidQueryException(
          "Indexing column "
              + c.name()
              + " of type "
              + c.type().cqlName()
              + " is not yet supported by Talus (it indexes vectors of float only)");
    }
    if (c.kind() != ColumnDef.Kind.REGULAR) {
      throw new InvalidQueryException(
          "Indexing vector column " + c.name() + " is supported on regular columns only");
    }
    if (def.target() != IndexDef.Target.SIMPLE) {
      throw new InvalidQueryException(
          "Indexing " + def.target().cql(c.name()) + " of a vector is not supported");
    }
    for (String key : def.options().keySet()) {
      if (!key.equals(VectorSimilarity.OPTION)) {
        throw new InvalidQueryException(
            "Index option '"
                + key
                + "' is not supported by Talus (a vector index takes only "
                + VectorSimilarity.OPTION
                + ")");
      }
    }
    VectorSimilarity.of(def); // refuses an unknown function
    for (IndexDef other : tableIndexes) {
      if (other.column().equals(def.column()) && other.kind() == def.kind()) {
        throw new InvalidQueryException(
            "Index " + def.name() + " is a duplicate of existing index " + other.name());
      }
    }
  }

  /** Refuses vector options on a column that is not a vector (Cassandra's message). */
  static void checkNotVectorOptions(ColumnDef c, IndexDef def) {
    if (def.options().containsKey(VectorSimilarity.OPTION)) {
      throw new InvalidQueryException(
          "CQL type " + c.type().cqlName() + " cannot have vector options");
    }
  }
}
