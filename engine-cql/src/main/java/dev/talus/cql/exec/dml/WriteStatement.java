package dev.talus.cql.exec.dml;

import dev.talus.Batch;
import dev.talus.InvalidQueryException;
import dev.talus.cql.CqlColumn;
import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlResult;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.Executable;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.parse.ast.SourcePosition;
import java.util.List;

/**
 * A prepared {@code INSERT}, {@code UPDATE} or {@code DELETE}: it turns one execution into the
 * engine's write builders (several for {@code IN}, applied as one batch), run on their own or added
 * to a {@code BATCH}. A statement with an {@code IF} clause runs as a conditional write and returns
 * Cassandra's {@code [applied]} rows. A write the engine refuses keeps its message and points at
 * the statement.
 */
abstract class WriteStatement implements Executable {
  private final Source source;
  private final SourcePosition at;

  WriteStatement(Source source, SourcePosition at) {
    this.source = source;
    this.at = at;
  }

  /** Whether the statement has its own {@code USING TIMESTAMP}. */
  abstract boolean hasOwnTimestamp();

  /** Whether the statement has its own {@code USING TTL}. */
  abstract boolean hasOwnTtl();

  /**
   * Adds the statement's writes to {@code batch}.
   *
   * @param timestamp the batch's timestamp, or null
   */
  abstract void addTo(Batch batch, ExecContext ctx, Long timestamp);

  /** Runs the statement's writes: one on its own, several (IN) as one batch. */
  abstract void run(ExecContext ctx);

  /** Whether the statement writes to a counter table (Cassandra's {@code isCounter()}). */
  boolean writesCounters() {
    return false;
  }

  /** The statement's {@code IF} clause ({@link CqlConditions#NONE} without one). */
  CqlConditions conditions() {
    return CqlConditions.NONE;
  }

  @Override
  public final List<CqlColumn> resultColumns() {
    return List.of();
  }

  @Override
  public final CqlResult execute(ExecContext ctx) {
    try {
      if (conditions().conditional()) {
        Batch one = ctx.db().batch();
        addTo(one, ctx.withoutDefaultTimestamp(), null);
        if (one.size() == 0) {
          return CqlResult.empty(ctx.warnings()); // every value unset: nothing to write
        }
        return CqlConditions.result(
            one.executeConditional(), List.of(conditions()), false, ctx.warnings());
      }
      run(ctx);
    } catch (CqlInvalidRequestException e) {
      throw e;
    } catch (InvalidQueryException e) {
      throw refused(e);
    }
    return CqlResult.empty(ctx.warnings());
  }

  /** An engine refusal as a CQL error at the statement. */
  CqlInvalidRequestException refused(InvalidQueryException e) {
    return source.invalid(at, 1, e.getMessage());
  }
}
