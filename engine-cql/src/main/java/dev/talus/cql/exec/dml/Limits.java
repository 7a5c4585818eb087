package dev.talus.cql.exec.dml;

import dev.talus.DataType;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Receiver;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.exec.term.Operand;
import dev.talus.cql.exec.term.Terms;
import dev.talus.cql.parse.ast.SelectStatement;
import dev.talus.cql.parse.ast.SourcePosition;
import dev.talus.cql.parse.ast.Term;

/**
 * {@code LIMIT} and {@code PER PARTITION LIMIT}: integers or bind markers, checked at each
 * execution with Cassandra's messages; an unset marker means no limit. Immutable and thread-safe.
 */
final class Limits {
  private final Operand limit;
  private final Operand perPartition;
  private final SourcePosition limitAt;
  private final SourcePosition perPartitionAt;
  private final Source source;

  private Limits(
      Operand limit,
      Operand perPartition,
      SourcePosition limitAt,
      SourcePosition ppAt,
      Source source) {
    this.limit = limit;
    this.perPartition = perPartition;
    this.limitAt = limitAt;
    this.perPartitionAt = ppAt;
    this.source = source;
  }

  static Limits prepare(SelectStatement s, PrepareContext pc) {
    return new Limits(
        term(s.limit(), "[limit]", pc),
        term(s.perPartitionLimit(), "[per_partition_limit]", pc),
        s.limit() == null ? null : s.limit().position(),
        s.perPartitionLimit() == null ? null : s.perPartitionLimit().position(),
        pc.source());
  }

  private static Operand term(Term t, String name, PrepareContext pc) {
    return t == null ? null : Terms.prepare(t, Receiver.of(name, DataType.INT), pc);
  }

  int limit(ExecContext ctx) {
    return value(limit, ctx, "LIMIT", "limit", limitAt);
  }

  int perPartitionLimit(ExecContext ctx) {
    return value(perPartition, ctx, "PER PARTITION LIMIT", "per partition limit", perPartitionAt);
  }

  private int value(Operand o, ExecContext ctx, String clause, String what, SourcePosition at) {
    if (o == null) {
      return Integer.MAX_VALUE;
    }
    Object v = o.eval(ctx, null);
    if (v == ExecContext.UNSET) {
      return Integer.MAX_VALUE;
    }
    if (v == null) {
      throw source.invalid(at, "Invalid null value of " + what);
    }
    long n = ((Number) v).longValue();
    if (n <= 0) {
      throw source.invalid(at, clause + " must be strictly positive");
    }
    return (int) Math.min(n, Integer.MAX_VALUE);
  }
}
