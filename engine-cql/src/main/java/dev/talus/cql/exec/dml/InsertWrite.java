package dev.talus.cql.exec.dml;

import dev.talus.Batch;
import dev.talus.Insert;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.parse.ast.SourcePosition;
import java.time.Duration;

/**
 * A prepared {@code INSERT}, with values or {@code JSON}: one row, with the statement's {@code
 * USING TTL / TIMESTAMP} (or the batch's timestamp) and {@code IF NOT EXISTS} applied the same way
 * for both forms. Immutable and thread-safe.
 */
abstract class InsertWrite extends WriteStatement {
  private final WriteAttributes attributes;
  private final CqlConditions conditions;

  InsertWrite(
      Source source, SourcePosition at, WriteAttributes attributes, CqlConditions conditions) {
    super(source, at);
    this.attributes = attributes;
    this.conditions = conditions;
  }

  @Override
  final CqlConditions conditions() {
    return conditions;
  }

  /** The engine's insert of one execution's row, with its values set and nothing else. */
  abstract Insert row(ExecContext ctx);

  private Insert build(ExecContext ctx, Long batchTimestamp) {
    Insert insert = row(ctx);
    conditions.applyTo(insert);
    Duration ttl = attributes.ttl(ctx);
    if (ttl != null) {
      insert.ttl(ttl);
    }
    Long ts = batchTimestamp != null ? batchTimestamp : attributes.timestamp(ctx);
    if (ts != null) {
      insert.timestamp(ts);
    }
    return insert;
  }

  @Override
  final boolean hasOwnTimestamp() {
    return attributes.hasTimestamp();
  }

  @Override
  final boolean hasOwnTtl() {
    return attributes.hasTtl();
  }

  @Override
  final void addTo(Batch batch, ExecContext ctx, Long timestamp) {
    batch.add(build(ctx, timestamp));
  }

  @Override
  final void run(ExecContext ctx) {
    build(ctx, null).execute();
  }
}
