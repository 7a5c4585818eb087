package dev.talus.cql.parse.ast;

import java.util.Locale;

/** The native (built-in, non-collection) types of CQL, as spelled in the language. */
public enum NativeType {
  ASCII,
  BIGINT,
  BLOB,
  BOOLEAN,
  COUNTER,
  DATE,
  DECIMAL,
  DOUBLE,
  DURATION,
  FLOAT,
  INET,
  INT,
  SMALLINT,
  /** {@code text}; {@link #VARCHAR} is the same type under another name. */
  TEXT,
  TIME,
  TIMESTAMP,
  TIMEUUID,
  TINYINT,
  UUID,
  /** {@code varchar}, an alias of {@link #TEXT}. */
  VARCHAR,
  VARINT;

  /**
   * Returns the name as CQL writes it, in lower case.
   *
   * @return e.g. {@code "timeuuid"}
   */
  public String cqlName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
