package dev.talus.cql.exec;

import dev.talus.DataType;
import dev.talus.DurationValue;
import dev.talus.TalusException;
import dev.talus.cql.ColumnType;
import dev.talus.cql.CqlAlreadyExistsException;
import dev.talus.cql.CqlColumn;
import dev.talus.cql.CqlConfigurationException;
import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlSyntaxException;
import dev.talus.cql.CqlUnsupportedException;
import dev.talus.cql.PreparedCql;
import dev.talus.cql.TalusSession;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Runs a statement and names what happened: {@code OK}, or the kind of typed error. Anything else —
 * an exception that is not a {@link TalusException} — fails the test that asked.
 */
final class Outcomes {
  private Outcomes() {}

  /** Executes {@code cql}, binding a sample value of the right type to every marker. */
  static String run(TalusSession session, String cql) {
    try {
      PreparedCql p = session.prepare(cql);
      Object[] values = new Object[p.variables().size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = sample(p.variables().get(i));
      }
      p.execute(values);
      return "OK";
    } catch (CqlUnsupportedException e) {
      return e.planned() ? "NOT_YET" : "NEVER";
    } catch (CqlAlreadyExistsException e) {
      return "ALREADY_EXISTS";
    } catch (CqlConfigurationException e) {
      return "CONFIG";
    } catch (CqlInvalidRequestException e) {
      return "INVALID";
    } catch (CqlSyntaxException e) {
      return "SYNTAX";
    } catch (TalusException e) {
      return "TALUS " + e.getClass().getSimpleName();
    }
  }

  static Object sample(CqlColumn c) {
    return sample(c.type());
  }

  static Object sample(ColumnType t) {
    if (t instanceof ColumnType.ListOf l) {
      return List.of(sample(l.element()));
    }
    if (t instanceof ColumnType.SetOf s) {
      return Set.of(sample(s.element()));
    }
    if (t instanceof ColumnType.MapOf m) {
      return Map.of(sample(m.key()), sample(m.value()));
    }
    DataType d = ((ColumnType.Native) t).type();
    return switch (d.kind()) {
      case TEXT, ASCII -> "x";
      case BOOLEAN -> true;
      case TINYINT -> (byte) 1;
      case SMALLINT -> (short) 1;
      case INT -> 1;
      case BIGINT -> 1L;
      case VARINT -> BigInteger.ONE;
      case FLOAT -> 1f;
      case DOUBLE -> 1d;
      case DECIMAL -> BigDecimal.ONE;
      case BLOB -> new byte[] {1};
      case UUID -> new UUID(1, 1);
      case TIMEUUID -> UUID.fromString("00000000-0000-1000-8000-000000000001");
      case TIMESTAMP -> Instant.ofEpochSecond(1_700_000_000);
      case DATE -> LocalDate.of(2026, 9, 1);
      case TIME -> LocalTime.NOON;
      case INET -> InetAddress.getLoopbackAddress();
      case DURATION -> DurationValue.of(0, 1, 0);
      default -> throw new IllegalArgumentException("no CQL sample of " + d);
    };
  }
}
