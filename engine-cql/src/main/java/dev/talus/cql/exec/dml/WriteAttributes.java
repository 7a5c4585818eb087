package dev.talus.cql.exec.dml;

import dev.talus.DataType;
import dev.talus.TableSchema;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Receiver;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.exec.term.Operand;
import dev.talus.cql.exec.term.Terms;
import dev.talus.cql.parse.ast.Attributes;
import dev.talus.cql.parse.ast.SourcePosition;
import java.time.Duration;

/**
 * {@code USING TTL} and {@code USING TIMESTAMP} of a write, checked at each execution with
 * Cassandra's messages. An unset TTL means the table's default; an unset timestamp the clock's (or
 * the execution's default timestamp). Immutable and thread-safe.
 */
final class WriteAttributes {
  static final WriteAttributes NONE = new WriteAttributes(null, null, null, null, null);

  private final Operand ttl;
  private final Operand timestamp;
  private final SourcePosition ttlAt;
  private final SourcePosition timestampAt;
  private final Source source;

  private WriteAttributes(
      Operand ttl, Operand timestamp, SourcePosition ttlAt, SourcePosition timestampAt, Source s) {
    this.ttl = ttl;
    this.timestamp = timestamp;
    this.ttlAt = ttlAt;
    this.timestampAt = timestampAt;
    this.source = s;
  }

  static WriteAttributes prepare(Attributes a, PrepareContext pc) {
    if (a.isEmpty()) {
      return NONE;
    }
    return new WriteAttributes(
        a.ttl() == null ? null : Terms.prepare(a.ttl(), Receiver.of("[ttl]", DataType.INT), pc),
        a.timestamp() == null
            ? null
            : Terms.prepare(a.timestamp(), Receiver.of("[timestamp]", DataType.BIGINT), pc),
        a.ttl() == null ? null : a.ttl().position(),
        a.timestamp() == null ? null : a.timestamp().position(),
        pc.source());
  }

  boolean hasTimestamp() {
    return timestamp != null;
  }

  boolean hasTtl() {
    return ttl != null;
  }

  /** The TTL to write with, or null for the table's default. */
  Duration ttl(ExecContext ctx) {
    if (ttl == null) {
      return null;
    }
    Object v = ttl.eval(ctx, null);
    if (v == ExecContext.UNSET) {
      return null;
    }
    if (v == null) {
      throw source.invalid(ttlAt, "Invalid null value of TTL");
    }
    long seconds = ((Number) v).longValue();
    if (seconds < 0) {
      throw source.invalid(ttlAt, "A TTL must be greater or equal to 0, but was " + seconds);
    }
    long max = TableSchema.MAX_TTL.getSeconds();
    if (seconds > max) {
      throw source.invalid(
          ttlAt, "ttl is too large. requested (" + seconds + ") maximum (" + max + ")");
    }
    return Duration.ofSeconds(seconds);
  }

  /** The write timestamp in microseconds, or null for the clock's. */
  Long timestamp(ExecContext ctx) {
    if (timestamp == null) {
      return ctx.timestamp();
    }
    Object v = timestamp.eval(ctx, null);
    if (v == ExecContext.UNSET) {
      return ctx.timestamp();
    }
    if (v == null) {
      throw source.invalid(timestampAt, "Invalid null value of timestamp");
    }
    long ts = ((Number) v).longValue();
    if (ts == Long.MIN_VALUE || ts == Long.MAX_VALUE) {
      throw source.invalid(
          timestampAt,
          "Invalid timestamp " + ts + ": it is reserved; use microseconds since the epoch");
    }
    return ts;
  }
}
