package dev.talus.schema;

import dev.talus.TableSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * What differs between an existing table's schema and the one a caller asked for, field by field,
 * for the error of {@code createTableIfNotExists}: printing both schemas whole hides the one field
 * that differs. Stateless.
 */
public final class SchemaDiff {
  private static final Map<String, Function<TableSchema, Object>> FIELDS = new LinkedHashMap<>();

  static {
    FIELDS.put("partition key", TableSchema::partitionKey);
    FIELDS.put("clustering columns", TableSchema::clustering);
    FIELDS.put("regular columns", TableSchema::regularColumns);
    FIELDS.put("static columns", TableSchema::staticColumns);
    FIELDS.put("defaultTimeToLive", TableSchema::defaultTimeToLive);
    FIELDS.put("gcGrace", TableSchema::gcGrace);
    FIELDS.put("compaction", TableSchema::compaction);
    FIELDS.put("compression", TableSchema::compression);
    FIELDS.put("chunkLengthKb", TableSchema::chunkLengthKb);
    FIELDS.put("bloomFilterFpChance", TableSchema::bloomFilterFpChance);
    FIELDS.put(
        "tombstoneThresholds",
        s -> List.of(s.tombstoneWarnThreshold(), s.tombstoneFailureThreshold()));
    FIELDS.put(
        "partitionSizeThresholds",
        s -> java.util.Arrays.asList(s.partitionSizeWarnBytes(), s.partitionSizeFailBytes()));
    FIELDS.put(
        "partitionRowsThresholds",
        s -> java.util.Arrays.asList(s.partitionRowsWarn(), s.partitionRowsFail()));
  }

  private SchemaDiff() {}

  /** One line per differing field: {@code "gcGrace: existing PT240H, requested PT1H"}. */
  public static List<String> differences(TableSchema existing, TableSchema requested) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, Function<TableSchema, Object>> f : FIELDS.entrySet()) {
      Object a = f.getValue().apply(existing);
      Object b = f.getValue().apply(requested);
      if (!Objects.equals(a, b) && !Objects.equals(String.valueOf(a), String.valueOf(b))) {
        out.add(f.getKey() + ": existing " + a + ", requested " + b);
      }
    }
    if (out.isEmpty()) { // a property this list does not know yet: fall back to the whole schemas
      out.add("existing " + existing + ", requested " + requested);
    }
    return out;
  }

  /** The message of a refused {@code createTableIfNotExists}: the differences and the choices. */
  public static String message(TableSchema existing, TableSchema requested) {
    List<String> d = differences(existing, requested);
    return "table "
        + existing.name()
        + " already exists with a different schema; it differs in "
        + d.size()
        + " field(s):\n  - "
        + String.join("\n  - ", d)
        + "\nUse the existing table as it is (db.table(\""
        + existing.name()
        + "\"), whose schema() is the stored one), change your schema to match it, change the"
        + " stored one with Table.alter() (add or drop regular and static columns, rename key"
        + " columns, change options; key columns and types never change), or create the new"
        + " schema under another table name.";
  }
}
