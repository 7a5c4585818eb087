package dev.talus.cql.parse.ast;

/**
 * The lexical kinds of CQL constants. The kind says how the constant was written, not what type it
 * will become: an {@link #INTEGER} may turn into an {@code int}, a {@code bigint}, a {@code
 * varint}, a {@code decimal} or a {@code double}, a {@link #STRING} into text, a timestamp, a date
 * or an inet, depending on the column it is bound to.
 */
public enum LiteralKind {
  /** {@code 'it''s'} or {@code $$it's$$}; the text is the content, unescaped. */
  STRING,
  /** {@code 42}, {@code -7}, any number of digits (beyond {@code long} for varints). */
  INTEGER,
  /**
   * {@code 1.5}, {@code -2.5e-3}, {@code 3.}; and {@code NaN}, {@code Infinity}, {@code -Infinity}
   * (whose texts are exactly those; {@code -NaN} is {@code NaN}).
   */
  FLOAT,
  /** {@code true} or {@code false}; the text is in lower case. */
  BOOLEAN,
  /**
   * {@code 1h30m}, {@code -2d}, {@code P1Y2M}, {@code PT4H}, {@code P2W}, {@code
   * P0001-02-03T04:05:06}.
   */
  DURATION,
  /** {@code 123e4567-e89b-12d3-a456-426614174000}, as written. */
  UUID,
  /** {@code 0xcafe} (a blob), as written, with its {@code 0x} prefix. */
  HEX
}
