package dev.talus;

/**
 * The collection size guardrails of a database, Cassandra's {@code items_per_collection_warn/
 * fail_threshold} and {@code collection_size_warn/fail_threshold}: set with {@link
 * TalusOptions.Builder#collectionThresholds}. Each limit is a count or a byte size that a single
 * collection may reach; a value is over a limit when it is strictly greater; 0 turns a limit off.
 *
 * <p>What is measured, as in Cassandra 5.0: on each write, the elements the write itself puts in
 * one collection column of one row (a non-frozen collection's existing elements are not read, so
 * appending to a large collection is judged by the appended part only); a frozen collection as the
 * whole value written. Bytes count each element cell as Cassandra's {@code Cell.dataSize()} does:
 * its path (set element, map key or list position) plus its value plus 16 bytes of timestamp, TTL
 * and deletion time. A write crossing a failure limit is refused with {@link
 * GuardrailViolationException} before anything is logged; one crossing a warning limit is warned
 * about. Where SSTables are written (flush, compaction) every non-frozen collection is measured
 * again as stored — its live elements — and warned about (never refused), so a collection grown by
 * many small appends is found there. See docs/guardrails.md.
 *
 * @param itemsWarn elements per collection that trigger a warning (default 1,000)
 * @param itemsFail elements per collection a write may not exceed (default 0 = off)
 * @param bytesWarn bytes per collection that trigger a warning (default 1 MiB)
 * @param bytesFail bytes per collection a write may not exceed (default 0 = off)
 */
public record CollectionThresholds(long itemsWarn, long itemsFail, long bytesWarn, long bytesFail) {
  /**
   * The defaults: warn past 1,000 elements or 1 MiB, refuse nothing. Cassandra ships all four
   * disabled; Talus warns by default, as it does for partition size, because the data-modeling rule
   * (collections stay small, a few hundred elements) is one users meet only when it is too late.
   */
  public static final CollectionThresholds DEFAULT = new CollectionThresholds(1000, 0, 1L << 20, 0);

  /** Every limit off. */
  public static final CollectionThresholds OFF = new CollectionThresholds(0, 0, 0, 0);

  /**
   * @throws InvalidSchemaException if a limit is negative or a warning limit is above its failure
   *     limit (both on)
   */
  public CollectionThresholds {
    SchemaRules.checkGuardrail("itemsPerCollectionThresholds", itemsWarn, itemsFail);
    SchemaRules.checkGuardrail("collectionSizeThresholds", bytesWarn, bytesFail);
  }
}
