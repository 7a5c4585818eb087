package dev.talus;

/**
 * A write would push a partition past a failure threshold of a guardrail (partition size or
 * partition rows). Nothing of the write was logged or applied. The message names the table, the
 * partition key values and the limit; the fix is almost always the data model: add a bucket (time
 * or hash) to the partition key so each partition stays bounded.
 */
public class GuardrailViolationException extends TalusException {
  private static final long serialVersionUID = 1L;

  public GuardrailViolationException(String message) {
    super(message);
  }
}
