package dev.talus.model;

import dev.talus.Insert;
import dev.talus.PreparedInsert;
import dev.talus.Select;
import dev.talus.Table;
import java.time.Duration;
import java.util.Map;

/**
 * An insert of the model tests, run either through the builder or as a {@link PreparedInsert} with
 * every value bound to a marker: both must write the same, which the model checks.
 */
final class ModelInserts {
  private ModelInserts() {}

  /**
   * Inserts {@code values} (column to value, in order) into {@code t} with {@code ttl} and {@code
   * ts} (null: the clock's), prepared if {@code prepared}.
   */
  static void insert(Table t, Map<String, Object> values, Duration ttl, Long ts, boolean prepared) {
    Insert ins = t.insert();
    values.forEach((c, v) -> ins.value(c, prepared ? Select.marker() : v));
    ins.ttl(ttl);
    if (ts != null) {
      ins.timestamp(ts);
    }
    if (prepared) {
      ins.prepare().execute(values.values().toArray());
    } else {
      ins.execute();
    }
  }

  /** Whether {@code op} runs prepared: by its hash, so replaying a seed makes the same choices. */
  static boolean prepared(Object op) {
    return (op.hashCode() & 1) == 0;
  }
}
