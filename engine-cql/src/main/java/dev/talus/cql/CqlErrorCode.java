package dev.talus.cql;

import dev.talus.GuardrailViolationException;
import dev.talus.InvalidQueryException;
import dev.talus.InvalidSchemaException;
import dev.talus.TombstoneOverwhelmingException;
import dev.talus.WriteRejectedException;

/**
 * Cassandra's error categories (the native protocol's error codes), and which one each Talus
 * exception belongs to: what a server answers, and how a shell or an application can tell a typo
 * from a bad value from a full disk. Immutable.
 */
public enum CqlErrorCode {
  /** Something failed that is not the statement's fault (I/O, corruption, use after close). */
  SERVER_ERROR(0x0000),
  /** The engine refused a write before storing anything: memory full, write too large. */
  OVERLOADED(0x1001),
  /** A read failed: it scanned more tombstones than the table allows. */
  READ_FAILURE(0x1300),
  /** The statement is not valid CQL ({@link CqlSyntaxException}). */
  SYNTAX_ERROR(0x2000),
  /** The statement is valid CQL but cannot run ({@link CqlInvalidRequestException}). */
  INVALID(0x2200),
  /** A schema statement's option or definition is invalid ({@link CqlConfigurationException}). */
  CONFIG_ERROR(0x2300),
  /** The keyspace or table exists ({@link CqlAlreadyExistsException}). */
  ALREADY_EXISTS(0x2400),
  /** The prepared statement is unknown ({@link CqlUnpreparedException}). */
  UNPREPARED(0x2500);

  private final int code;

  CqlErrorCode(int code) {
    this.code = code;
  }

  /** The native protocol's code. */
  public int code() {
    return code;
  }

  /** The category of {@code error}. */
  public static CqlErrorCode of(Throwable error) {
    if (error instanceof CqlSyntaxException) {
      return SYNTAX_ERROR;
    }
    if (error instanceof CqlAlreadyExistsException) {
      return ALREADY_EXISTS;
    }
    if (error instanceof CqlUnpreparedException) {
      return UNPREPARED;
    }
    if (error instanceof InvalidSchemaException) {
      return CONFIG_ERROR;
    }
    if (error instanceof InvalidQueryException || error instanceof GuardrailViolationException) {
      // Cassandra reports a guardrail failure as an invalid request
      return INVALID;
    }
    if (error instanceof WriteRejectedException) {
      return OVERLOADED;
    }
    if (error instanceof TombstoneOverwhelmingException) {
      return READ_FAILURE;
    }
    return SERVER_ERROR;
  }
}
