package dev.talus.schema;

import dev.talus.ColumnDef;
import dev.talus.InvalidQueryException;
import dev.talus.TableSchema;
import dev.talus.codec.TypeCodec;

/**
 * Column resolution shared by the write and the read validation: finds a column by name and turns a
 * user's value into the column type's canonical value, refusing what does not fit with a message
 * that names the column and the table. Stateless.
 */
public final class Columns {
  private Columns() {}

  /** The column named {@code name}; {@link InvalidQueryException} listing the columns if none. */
  public static ColumnDef column(TableSchema s, String name) {
    return s.column(name)
        .orElseThrow(
            () ->
                new InvalidQueryException(
                    "unknown column "
                        + name
                        + " in table "
                        + s.name()
                        + "; its columns are "
                        + s.columns().stream().map(ColumnDef::name).toList()));
  }

  /** {@code value} as column {@code c}'s canonical value. */
  public static Object coerce(TableSchema s, ColumnDef c, Object value) {
    return coerce(s, c, TypeCodec.of(c.type()), value);
  }

  /** {@link #coerce} with the codec of {@code c}'s type already at hand. */
  public static Object coerce(TableSchema s, ColumnDef c, TypeCodec<?> codec, Object value) {
    try {
      return codec.coerce(value);
    } catch (IllegalArgumentException e) {
      throw new InvalidQueryException(
          "bad value for column " + c.name() + " of " + s.name() + ": " + e.getMessage(), e);
    }
  }

  /** Like {@link #coerce}, for a primary key column, which cannot be null. */
  public static Object keyValue(TableSchema s, ColumnDef c, Object value) {
    if (value == null) {
      throw new InvalidQueryException(
          "primary key column " + c.name() + " of " + s.name() + " cannot be null");
    }
    return coerce(s, c, value);
  }
}
