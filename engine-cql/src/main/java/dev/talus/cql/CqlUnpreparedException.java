package dev.talus.cql;

import dev.talus.TalusException;

/**
 * A prepared statement asked for by its id ({@link TalusSession#prepared(byte[])}) that the session
 * does not know: it was never prepared there, or was evicted from the session's cache (Cassandra's
 * {@code Unprepared} error, code {@code 0x2500}). Prepare the query again. Immutable and
 * thread-safe.
 */
public class CqlUnpreparedException extends TalusException {
  private static final long serialVersionUID = 1L;

  private final byte[] id;

  public CqlUnpreparedException(byte[] id) {
    super("Prepared query with ID " + java.util.HexFormat.of().formatHex(id) + " not found");
    this.id = id.clone();
  }

  /** The unknown id. */
  public byte[] id() {
    return id.clone();
  }
}
