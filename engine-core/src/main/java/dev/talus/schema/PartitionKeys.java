package dev.talus.schema;

import dev.talus.InvalidQueryException;
import dev.talus.TableSchema;
import dev.talus.data.PartitionKey;

/**
 * The partition key of a write or a read, with Cassandra's key rules checked: a single-column key
 * whose value serializes to no bytes (an empty text or blob) is not a key, and no key is longer
 * than 65,535 bytes (Cassandra's 16-bit length). Writes and reads share these rules, so a key that
 * cannot be written cannot be read either. Stateless.
 */
public final class PartitionKeys {
  /** Largest partition key accepted, as in Cassandra (16-bit length). */
  public static final int MAX_KEY_BYTES = 65_535;

  private PartitionKeys() {}

  /**
   * The key for canonical {@code values} of every partition key column of {@code keys}' table.
   *
   * @throws InvalidQueryException if the key is empty or too long
   */
  public static PartitionKey of(KeyCodec keys, Object[] values) {
    TableSchema s = keys.schema();
    // As in Cassandra: composite keys may have empty components, a single-column key may not.
    if (values.length == 1
        && ((values[0] instanceof String str && str.isEmpty())
            || (values[0] instanceof byte[] b && b.length == 0))) {
      throw new InvalidQueryException(
          "Key may not be empty: partition key column "
              + s.partitionKey().get(0).name()
              + " of "
              + s.name()
              + " is an empty value");
    }
    PartitionKey key = keys.partitionKey(values);
    if (key.bytes().length > MAX_KEY_BYTES) {
      throw new InvalidQueryException(
          "partition key of "
              + s.name()
              + " is "
              + key.bytes().length
              + " bytes; the limit is "
              + MAX_KEY_BYTES);
    }
    return key;
  }
}
