package dev.talus;

/**
 * A read scanned more tombstones than the table's failure threshold allows. Typical cause: a
 * queue-like table that deletes what it reads. Fix the data model (time buckets, TTL instead of
 * deletes), or let compaction purge the tombstones after gc_grace.
 */
public class TombstoneOverwhelmingException extends TalusException {
  private static final long serialVersionUID = 1L;

  public TombstoneOverwhelmingException(String message) {
    super(message);
  }
}
