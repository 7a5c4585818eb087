package dev.talus.request;

import dev.talus.ColumnDef;
import dev.talus.InvalidQueryException;
import dev.talus.TableSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules of a {@code DISTINCT} read (Cassandra's, with its messages): only partition key and
 * static columns are selected and restricted. Internal. Stateless.
 */
public final class Distinct {
  private Distinct() {}

  /**
   * The columns a distinct read fetches: {@code requested}, checked, and the static columns; or
   * every partition key and static column if none is requested.
   */
  public static List<String> columns(
      TableSchema s,
      List<String> requested,
      List<Restriction> restrictions,
      List<TupleRestriction> tuples) {
    if (!tuples.isEmpty()) {
      throw restrictionError();
    }
    for (Restriction r : restrictions) {
      if (!partitionOrStatic(s, r.column())) {
        throw restrictionError();
      }
    }
    if (requested.isEmpty()) {
      List<String> all = new ArrayList<>();
      s.partitionKey().forEach(c -> all.add(c.name()));
      s.staticColumns().forEach(c -> all.add(c.name()));
      return all;
    }
    for (String c : requested) {
      if (!partitionOrStatic(s, c)) {
        throw new InvalidQueryException(
            "SELECT DISTINCT queries must only request partition key columns and/or static columns"
                + " (not "
                + c
                + ")");
      }
    }
    // the static columns are read too, so that a partition with static data only is not missed
    List<String> read = new ArrayList<>(requested);
    s.staticColumns().stream()
        .map(ColumnDef::name)
        .filter(c -> !read.contains(c))
        .forEach(read::add);
    return read;
  }

  private static boolean partitionOrStatic(TableSchema s, String column) {
    ColumnDef c = s.column(column).orElse(null);
    return c != null && (c.kind() == ColumnDef.Kind.PARTITION_KEY || c.isStatic());
  }

  private static InvalidQueryException restrictionError() {
    return new InvalidQueryException(
        "SELECT DISTINCT with WHERE clause only supports restriction by partition key and/or"
            + " static columns.");
  }
}
