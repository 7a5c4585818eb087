package dev.talus.cql.exec.dml;

import dev.talus.Batch;
import dev.talus.InvalidQueryException;
import dev.talus.cql.CqlColumn;
import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlResult;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.Executable;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.parse.ast.BatchStatement;
import dev.talus.cql.parse.ast.ModificationStatement;
import dev.talus.cql.parse.ast.SourcePosition;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code BEGIN [UNLOGGED | COUNTER] BATCH ... APPLY BATCH}: every statement's writes go into one
 * engine {@link Batch} — validated together (one invalid write refuses the batch), recorded as one
 * commit-log record, writes without a timestamp sharing one. That is Cassandra's logged batch; an
 * {@code UNLOGGED} batch gets the same guarantee, which is stronger than Cassandra's. Cassandra's
 * rules hold: a timestamp on the batch or on its statements, not both; no TTL on the batch; writes
 * to counter tables only in a {@code COUNTER} (or {@code UNLOGGED}) batch that holds nothing else
 * and has no timestamp. A batch with {@code IF} clauses is a conditional batch: its writes must go
 * to one partition of one table, no timestamp may be given, and it returns Cassandra's {@code
 * [applied]} rows. Immutable and thread-safe.
 */
final class BatchExec implements Executable {
  private final List<WriteStatement> statements;
  private final WriteAttributes attributes;
  private final boolean conditional;
  private final Source source;
  private final SourcePosition at;

  private BatchExec(
      List<WriteStatement> statements,
      WriteAttributes attributes,
      boolean conditional,
      Source source,
      SourcePosition at) {
    this.statements = List.copyOf(statements);
    this.attributes = attributes;
    this.conditional = conditional;
    this.source = source;
    this.at = at;
  }

  static BatchExec prepare(BatchStatement b, PrepareContext pc) {
    Source src = pc.source();
    if (b.attributes().ttl() != null) {
      throw src.invalid(
          b.attributes().ttl().position(), "Global TTL on the BATCH statement is not supported.");
    }
    if (b.type() == BatchStatement.Type.COUNTER && b.attributes().timestamp() != null) {
      throw src.invalid(
          b.attributes().timestamp().position(),
          "Cannot provide custom timestamp for counter BATCH");
    }
    WriteAttributes attributes = WriteAttributes.prepare(b.attributes(), pc);
    List<WriteStatement> statements = new ArrayList<>();
    boolean conditional = false;
    ModificationStatement firstCounter = null;
    ModificationStatement firstOther = null;
    for (ModificationStatement m : b.statements()) {
      WriteStatement w = Writes.prepare(m, pc);
      conditional |= w.conditions().conditional();
      if (attributes.hasTimestamp() && w.hasOwnTimestamp()) {
        throw src.invalid(
            m.position(), 6, "Timestamp must be set either on BATCH or individual statements");
      }
      if (w.writesCounters()) {
        firstCounter = firstCounter == null ? m : firstCounter;
      } else {
        firstOther = firstOther == null ? m : firstOther;
      }
      statements.add(w);
    }
    checkCounterRules(b, attributes, firstCounter, firstOther, src);
    if (conditional) {
      if (attributes.hasTimestamp()) {
        throw src.invalid(
            b.attributes().timestamp().position(),
            "Cannot provide custom timestamp for conditional BATCH");
      }
      for (int i = 0; i < statements.size(); i++) {
        if (statements.get(i).hasOwnTimestamp()) {
          throw src.invalid(
              b.statements().get(i).position(),
              6,
              "Cannot provide custom timestamp for conditional BATCH");
        }
      }
    }
    return new BatchExec(statements, attributes, conditional, src, b.position());
  }

  /**
   * Cassandra's rules (its {@code BatchStatement.validate}, in its order): counter writes go in a
   * {@code COUNTER} batch (or an {@code UNLOGGED} one) and only counter writes do; a batch with
   * counters takes no timestamp.
   */
  private static void checkCounterRules(
      BatchStatement b,
      WriteAttributes attributes,
      ModificationStatement firstCounter,
      ModificationStatement firstOther,
      Source src) {
    if (attributes.hasTimestamp() && firstCounter != null) {
      throw src.invalid(
          b.attributes().timestamp().position(),
          "Cannot provide custom timestamp for a BATCH containing counters");
    }
    if (b.type() == BatchStatement.Type.COUNTER && firstOther != null) {
      throw src.invalid(
          firstOther.position(), 6, "Cannot include non-counter statement in a counter batch");
    }
    if (firstCounter != null && firstOther != null) {
      throw src.invalid(
          firstOther.position(),
          6,
          "Counter and non-counter mutations cannot exist in the same batch");
    }
    if (b.type() == BatchStatement.Type.LOGGED && firstCounter != null) {
      throw src.invalid(
          firstCounter.position(), 6, "Cannot include a counter statement in a logged batch");
    }
  }

  @Override
  public List<CqlColumn> resultColumns() {
    return List.of();
  }

  @Override
  public CqlResult execute(ExecContext given) {
    ExecContext ctx = conditional ? given.withoutDefaultTimestamp() : given;
    Long ts = attributes.hasTimestamp() ? attributes.timestamp(ctx) : null;
    Batch batch = ctx.db().batch();
    try {
      for (WriteStatement w : statements) {
        w.addTo(batch, ctx, ts);
      }
      if (conditional) {
        List<CqlConditions> conditions = new ArrayList<>();
        statements.forEach(w -> conditions.add(w.conditions()));
        return CqlConditions.result(batch.executeConditional(), conditions, true, ctx.warnings());
      }
      batch.execute();
    } catch (CqlInvalidRequestException e) {
      throw e;
    } catch (InvalidQueryException e) {
      throw source.invalid(at, 5, e.getMessage());
    }
    return CqlResult.empty(ctx.warnings());
  }
}
