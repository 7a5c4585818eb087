package dev.talus;

/** A table schema or an option value is invalid; the message names the field and the rule. */
public class InvalidSchemaException extends TalusException {
  private static final long serialVersionUID = 1L;

  public InvalidSchemaException(String message) {
    super(message);
  }
}
