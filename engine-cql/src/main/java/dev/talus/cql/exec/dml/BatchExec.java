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
 * {@code BEGIN [UNLOGGED] BATCH ... APPLY BATCH}: every statement's writes go into one engine
 * {@link Batch} — validated together (one invalid write refuses the batch), recorded as one
 * commit-log record, writes without a timestamp sharing one. That is Cassandra's logged batch; an
 * {@code UNLOGGED} batch gets the same guarantee, which is stronger than Cassandra's. Cassandra's
 * rules hold: a timestamp on the batch or on its statements, not both; no TTL on the batch. {@code
 * COUNTER} batches wait for counters. Immutable and thread-safe.
 */
final class BatchExec implements Executable {
  private final List<WriteStatement> statements;
  private final WriteAttributes attributes;
  private final Source source;
  private final SourcePosition at;

  private BatchExec(
      List<WriteStatement> statements,
      WriteAttributes attributes,
      Source source,
      SourcePosition at) {
    this.statements = List.copyOf(statements);
    this.attributes = attributes;
    this.source = source;
    this.at = at;
  }

  static BatchExec prepare(BatchStatement b, PrepareContext pc) {
    Source src = pc.source();
    if (b.type() == BatchStatement.Type.COUNTER) {
      throw src.notYet(
          b.position(), 5, "COUNTER batches", "counters arrive with the engine's counter support");
    }
    if (b.attributes().ttl() != null) {
      throw src.invalid(
          b.attributes().ttl().position(), "Global TTL on the BATCH statement is not supported.");
    }
    WriteAttributes attributes = WriteAttributes.prepare(b.attributes(), pc);
    List<WriteStatement> statements = new ArrayList<>();
    for (ModificationStatement m : b.statements()) {
      WriteStatement w = Writes.prepare(m, pc);
      if (attributes.hasTimestamp() && w.hasOwnTimestamp()) {
        throw src.invalid(
            m.position(), 6, "Timestamp must be set either on BATCH or individual statements");
      }
      statements.add(w);
    }
    return new BatchExec(statements, attributes, src, b.position());
  }

  @Override
  public List<CqlColumn> resultColumns() {
    return List.of();
  }

  @Override
  public CqlResult execute(ExecContext ctx) {
    Long ts = attributes.hasTimestamp() ? attributes.timestamp(ctx) : null;
    Batch batch = ctx.db().batch();
    try {
      for (WriteStatement w : statements) {
        w.addTo(batch, ctx, ts);
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
