package dev.talus.cql.exec.dml;

import dev.talus.DataType;
import dev.talus.Select;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Receiver;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.exec.support.TableInfo;
import dev.talus.cql.exec.term.Operand;
import dev.talus.cql.exec.term.Terms;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.Operator;
import dev.talus.cql.parse.ast.Relation;
import java.util.List;

/**
 * {@code token(k1, k2, ...) op value} in a SELECT: a bound on the partitions' tokens (bigint
 * Murmur3 values, {@code SELECT token(k)} shows them), which makes the read a scan of that token
 * range, the way drivers split a table. The columns must be the whole partition key in order; at
 * most one lower and one upper bound, or one {@code =}, as Cassandra allows. Immutable and
 * thread-safe.
 */
final class TokenWhere {
  /**
   * One token bound.
   *
   * @param op EQ, GT, GTE, LT or LTE
   * @param value the token
   * @param relation where it was written
   * @param source for errors at execution
   */
  record Restriction(Operator op, Operand value, Relation.Token relation, Source source) {
    /** Adds this bound to {@code s}. */
    void addTo(Select s, ExecContext ctx) {
      Object v = value.eval(ctx, null);
      if (v == ExecContext.UNSET || v == null) {
        throw source.invalid(
            relation.position(),
            5,
            "Invalid " + (v == null ? "null" : "unset") + " value for the partition key token");
      }
      long t = (Long) v;
      switch (op) {
        case EQ -> s.tokenGe(t).tokenLe(t);
        case GT -> s.tokenGt(t);
        case GTE -> s.tokenGe(t);
        case LT -> s.tokenLt(t);
        case LTE -> s.tokenLe(t);
        default -> throw new IllegalStateException(op.toString());
      }
    }
  }

  private TokenWhere() {}

  /** Prepares the token relations among {@code relations} (the others are skipped). */
  static List<Restriction> prepare(List<Relation> relations, TableInfo table, PrepareContext pc) {
    Source src = pc.source();
    List<Restriction> out = new java.util.ArrayList<>(0);
    List<String> pk =
        table.columns(TableInfo.Kind.PARTITION_KEY).stream().map(TableInfo.Column::name).toList();
    for (Relation r : relations) {
      if (!(r instanceof Relation.Token t)) {
        continue;
      }
      List<String> names = t.columns().stream().map(Identifier::name).toList();
      for (Identifier id : t.columns()) {
        Where.column(id, table, pc);
        if (!pk.contains(id.name())) {
          throw src.invalid(
              id, "The token function can only be applied to the partition key columns");
        }
      }
      if (!names.equals(pk)) {
        throw src.invalid(
            t.position(),
            5,
            names.size() == pk.size()
                ? "The token function arguments must be in the partition key order: "
                    + String.join(", ", pk)
                : "The token() function must be applied to all partition key components or none"
                    + " of them");
      }
      Operator op = t.operator();
      if (op != Operator.EQ
          && op != Operator.GT
          && op != Operator.GTE
          && op != Operator.LT
          && op != Operator.LTE) {
        throw src.invalid(
            t.position(), 5, "Unsupported \"" + op.cql() + "\" relation on the token function");
      }
      for (Restriction o : out) {
        boolean lower = op == Operator.GT || op == Operator.GTE;
        boolean otherLower = o.op() == Operator.GT || o.op() == Operator.GTE;
        if (op == Operator.EQ || o.op() == Operator.EQ) {
          throw src.invalid(
              t.position(),
              5,
              "The token function cannot be restricted by more than one relation if it includes"
                  + " an Equal");
        }
        if (lower == otherLower) {
          throw src.invalid(
              t.position(),
              5,
              "More than one restriction was found for the "
                  + (lower ? "start" : "end")
                  + " bound on the token function");
        }
      }
      Operand value =
          Terms.prepare(t.value(), Receiver.of("partition key token", DataType.BIGINT), pc);
      out.add(new Restriction(op, value, t, src));
    }
    return out;
  }
}
