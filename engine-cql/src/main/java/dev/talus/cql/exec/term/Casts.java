package dev.talus.cql.exec.term;

import dev.talus.DataType;
import dev.talus.TimeUuidGenerator;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Set;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * {@code CAST(x AS type)}, with Cassandra's conversions: between any two numeric types (narrowing
 * as Java's primitive conversions do), from any type to {@code text} or {@code ascii} (its text
 * form), from {@code date} and {@code timeuuid} to {@code timestamp}, and from {@code timestamp}
 * and {@code timeuuid} to {@code date}. Static, thread-safe.
 */
final class Casts {
  private static final Set<DataType> NUMERIC =
      Set.of(
          DataType.TINYINT,
          DataType.SMALLINT,
          DataType.INT,
          DataType.BIGINT,
          DataType.VARINT,
          DataType.FLOAT,
          DataType.DOUBLE,
          DataType.DECIMAL);

  private Casts() {}

  /** The conversion from {@code from} to {@code to}, or null if CQL has none. */
  static UnaryOperator<Object> of(DataType from, DataType to) {
    if (from == to) {
      return v -> v;
    }
    if (to == DataType.TEXT) {
      return Values::text;
    }
    if (to == DataType.ASCII) {
      return v -> {
        String s = Values.text(v);
        return s.chars().allMatch(c -> c < 0x80) ? s : null;
      };
    }
    if (NUMERIC.contains(from) && NUMERIC.contains(to)) {
      return v -> number((Number) v, to);
    }
    if (to == DataType.TIMESTAMP && from == DataType.DATE) {
      return v -> ((LocalDate) v).atStartOfDay().toInstant(ZoneOffset.UTC);
    }
    if (to == DataType.TIMESTAMP && from == DataType.TIMEUUID) {
      return v -> TimeUuidGenerator.timestampOf((UUID) v).truncatedTo(ChronoUnit.MILLIS);
    }
    if (to == DataType.DATE && from == DataType.TIMESTAMP) {
      return v -> LocalDate.ofInstant((Instant) v, ZoneOffset.UTC);
    }
    if (to == DataType.DATE && from == DataType.TIMEUUID) {
      return v -> LocalDate.ofInstant(TimeUuidGenerator.timestampOf((UUID) v), ZoneOffset.UTC);
    }
    return null;
  }

  private static Object number(Number n, DataType to) {
    return switch (to.kind()) {
      case TINYINT -> n.byteValue();
      case SMALLINT -> n.shortValue();
      case INT -> n.intValue();
      case BIGINT -> n.longValue();
      case FLOAT -> n.floatValue();
      case DOUBLE -> n.doubleValue();
      case VARINT -> decimal(n).setScale(0, RoundingMode.DOWN).toBigInteger();
      case DECIMAL -> decimal(n);
      default -> throw new IllegalStateException(to.toString());
    };
  }

  private static BigDecimal decimal(Number n) {
    if (n instanceof BigDecimal d) {
      return d;
    }
    if (n instanceof BigInteger i) {
      return new BigDecimal(i);
    }
    if (n instanceof Double || n instanceof Float) {
      double d = n.doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw new IllegalArgumentException(d + " has no decimal value");
      }
      return BigDecimal.valueOf(d);
    }
    return BigDecimal.valueOf(n.longValue());
  }
}
