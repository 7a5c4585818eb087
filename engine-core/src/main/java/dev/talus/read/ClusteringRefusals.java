package dev.talus.read;

import dev.talus.ColumnDef;
import dev.talus.InvalidQueryException;
import dev.talus.TableSchema;
import java.util.List;

/**
 * The refusals of clustering restrictions that break the left-to-right rule, each naming the rule
 * and the fixes (allowFiltering() among them). Stateless.
 */
final class ClusteringRefusals {
  private ClusteringRefusals() {}

  /**
   * The refusal of a restriction on clustering column {@code at} (a range if {@code isRange}) that
   * breaks the left-to-right rule, without allowFiltering: it follows a range on {@code
   * rangeColumn} (-1: none), or column {@code next} before it is left open.
   */
  static InvalidQueryException needsFiltering(
      TableSchema s, int at, boolean isRange, int rangeColumn, int next) {
    List<ColumnDef> ck = s.clustering();
    String column = ck.get(at).name();
    String optIn =
        ", or, if the named partitions are small, opt in with allowFiltering() to filter their"
            + " rows";
    if (rangeColumn >= 0) {
      String range = ck.get(rangeColumn).name();
      if (isRange) {
        return new InvalidQueryException(
            "ranges on both "
                + range
                + " and "
                + column
                + " of "
                + s.name()
                + ". Rule: only the last restricted clustering column may have a range. Fix:"
                + " restrict "
                + range
                + " by equality, filter the rest in the application"
                + optIn);
      }
      return new InvalidQueryException(
          "query on "
              + s.name()
              + " restricts clustering column "
              + column
              + " after a range on "
              + range
              + ". Rule: only the last restricted clustering column may have a range. Fix:"
              + " restrict "
              + range
              + " by equality, create a table whose clustering order starts with "
              + column
              + " for this query"
              + optIn);
    }
    String missing = ck.get(next).name();
    if (isRange) {
      return new InvalidQueryException(
          "query on "
              + s.name()
              + " restricts clustering column "
              + column
              + " by a range but "
              + missing
              + ", which precedes it, is not restricted by equality. Rule: clustering columns are"
              + " restricted left to right, and only the last restricted one may have a range."
              + " Fix: restrict "
              + missing
              + " by equality, create a table whose clustering starts with "
              + column
              + optIn);
    }
    return new InvalidQueryException(
        "query on "
            + s.name()
            + " restricts clustering column "
            + column
            + " but skips "
            + missing
            + ", which precedes it. Rule: clustering columns are restricted left to right, like a"
            + " phone book sorted by surname then first name. Fix: restrict "
            + missing
            + ", create a table whose clustering order starts with "
            + column
            + " for this query"
            + optIn);
  }
}
