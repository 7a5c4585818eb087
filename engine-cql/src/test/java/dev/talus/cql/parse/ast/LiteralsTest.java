package dev.talus.cql.parse.ast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The conversions of literal texts that belong to the language (Cassandra's semantics). */
class LiteralsTest {
  private static final long S = 1_000_000_000L;

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    // the unit format, each unit
    "1y, 12, 0, 0",
    "1mo, 1, 0, 0",
    "1w, 0, 7, 0",
    "1d, 0, 1, 0",
    "1h, 0, 0, 3600000000000",
    "1m, 0, 0, 60000000000",
    "1s, 0, 0, 1000000000",
    "1ms, 0, 0, 1000000",
    "1us, 0, 0, 1000",
    "1µs, 0, 0, 1000",
    "1ns, 0, 0, 1",
    // combinations, case, sign
    "1h30m, 0, 0, 5400000000000",
    "12mo3d, 12, 3, 0",
    "-1h, 0, 0, -3600000000000",
    "1Y2MO3W4D5H6M7S8MS9US10NS, 14, 25, 18367008009010",
    "2y14mo, 38, 0, 0",
    // ISO 8601 with designators
    "P1Y2M3DT4H5M6S, 14, 3, 14706000000000",
    "P1Y, 12, 0, 0",
    "P2M10D, 2, 10, 0",
    "PT4H, 0, 0, 14400000000000",
    "PT90M, 0, 0, 5400000000000",
    "-PT1H, 0, 0, -3600000000000",
    // ISO 8601 weeks and the alternative format
    "P2W, 0, 14, 0",
    "-P2W, 0, -14, 0",
    "P0001-02-03T04:05:06, 14, 3, 14706000000000",
    "-P0000-00-01T00:00:30, 0, -1, -30000000000",
  })
  void durationsBecomeMonthsDaysAndNanoseconds(String text, int months, int days, long nanos) {
    assertThat(Literals.toDuration(text)).isEqualTo(new CqlDuration(months, days, nanos));
  }

  @Test
  void durationUnitsMustComeInOrderAndOnce() {
    assertThatThrownBy(() -> Literals.toDuration("30m1h"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("invalid duration 30m1h: the minutes must come after the hours");
    assertThatThrownBy(() -> Literals.toDuration("1h2h"))
        .hasMessage("invalid duration 1h2h: the hours are given twice");
    assertThatThrownBy(() -> Literals.toDuration("1w1y"))
        .hasMessage("invalid duration 1w1y: the weeks must come after the years");
  }

  @Test
  void durationTotalsMustFitAsInCassandra() {
    assertThat(Literals.toDuration("2147483647mo").months()).isEqualTo(Integer.MAX_VALUE);
    assertThatThrownBy(() -> Literals.toDuration("2147483648mo"))
        .hasMessage("invalid duration 2147483648mo: the total months must be at most 2147483647");
    assertThatThrownBy(() -> Literals.toDuration("178956971y"))
        .hasMessageContaining("the total months must be at most");
    assertThatThrownBy(() -> Literals.toDuration("2147483647d1w"))
        .hasMessageContaining("must come after");
    assertThatThrownBy(() -> Literals.toDuration("2562048h"))
        .hasMessageContaining("the total nanoseconds must be at most " + Long.MAX_VALUE);
    assertThatThrownBy(() -> Literals.toDuration("99999999999999999999ns"))
        .hasMessageContaining("the total nanoseconds");
    assertThat(Literals.toDuration("9223372036854775807ns").nanoseconds())
        .isEqualTo(Long.MAX_VALUE);
    assertThat(Literals.toDuration("2562047h").nanoseconds()).isEqualTo(2562047L * 3600 * S);
  }

  @Test
  void malformedDurationsAreRefused() {
    for (String bad : new String[] {"", "h", "1", "1x", "P", "PT", "P1W2D", "P1-02-03T04:05:06"}) {
      assertThatThrownBy(() -> Literals.toDuration(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("duration");
    }
  }

  @Test
  void integersOfAnySizeWithRangeChecksPerType() {
    assertThat(Literals.toBigInteger("123456789012345678901234567890"))
        .isEqualTo(new BigInteger("123456789012345678901234567890"));
    assertThat(Literals.toBigInteger("-98765432109876543210"))
        .isEqualTo(new BigInteger("-98765432109876543210"));
    assertThat(Literals.toLong("-9223372036854775808")).isEqualTo(Long.MIN_VALUE);
    assertThatThrownBy(() -> Literals.toLong("9223372036854775808"))
        .hasMessage(
            "9223372036854775808 is out of range for bigint [-9223372036854775808,"
                + " 9223372036854775807]");
    assertThat(Literals.toInt("2147483647")).isEqualTo(Integer.MAX_VALUE);
    assertThatThrownBy(() -> Literals.toInt("2147483648")).hasMessageContaining("int");
    assertThat(Literals.toShort("-32768")).isEqualTo(Short.MIN_VALUE);
    assertThatThrownBy(() -> Literals.toShort("32768")).hasMessageContaining("smallint");
    assertThat(Literals.toByte("127")).isEqualTo((byte) 127);
    assertThatThrownBy(() -> Literals.toByte("-129")).hasMessageContaining("tinyint");
    assertThatThrownBy(() -> Literals.toBigInteger("1.5")).hasMessage("'1.5' is not an integer");
  }

  @Test
  void floatingPointIncludingNanAndInfinities() {
    assertThat(Literals.toDouble("NaN")).isNaN();
    assertThat(Literals.toDouble("Infinity")).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(Literals.toDouble("-Infinity")).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(Literals.toDouble("-2.5e-3")).isEqualTo(-0.0025);
    assertThat(Literals.toDouble("3.")).isEqualTo(3.0);
    assertThat(Literals.toDouble("42")).isEqualTo(42.0);
    assertThat(Literals.toFloat("1.5")).isEqualTo(1.5f);
    assertThat(Literals.toFloat("-Infinity")).isEqualTo(Float.NEGATIVE_INFINITY);
    assertThatThrownBy(() -> Literals.toDouble("1e400"))
        .hasMessage("1e400 is out of range for double");
    assertThatThrownBy(() -> Literals.toFloat("1e39")).hasMessage("1e39 is out of range for float");
    // Java-only spellings are not CQL numbers
    assertThatThrownBy(() -> Literals.toDouble("0x1p3")).hasMessage("'0x1p3' is not a number");
    assertThatThrownBy(() -> Literals.toDouble("1d")).hasMessage("'1d' is not a number");
  }

  @Test
  void decimalsKeepTheirScale() {
    assertThat(Literals.toBigDecimal("1.50")).isEqualTo(new BigDecimal("1.50"));
    assertThat(Literals.toBigDecimal("1.50").scale()).isEqualTo(2);
    assertThat(Literals.toBigDecimal("-12345678901234567890.1"))
        .isEqualTo(new BigDecimal("-12345678901234567890.1"));
    assertThat(Literals.toBigDecimal("1e3")).isEqualTo(new BigDecimal("1E+3"));
    assertThatThrownBy(() -> Literals.toBigDecimal("NaN"))
        .hasMessage("'NaN' is not a decimal number");
  }

  @Test
  void hexBlobs() {
    assertThat(Literals.hexToBytes("0x")).isEmpty();
    assertThat(Literals.hexToBytes("0xCAFEbabe"))
        .containsExactly((byte) 0xca, (byte) 0xfe, (byte) 0xba, (byte) 0xbe);
    assertThat(Literals.hexToBytes("0X00ff")).containsExactly((byte) 0, (byte) 0xff);
    assertThatThrownBy(() -> Literals.hexToBytes("0xabc"))
        .hasMessage("the blob 0xabc has an odd number of hex digits (3); each byte takes two");
    assertThatThrownBy(() -> Literals.hexToBytes("cafe"))
        .hasMessageContaining("must start with 0x");
    assertThatThrownBy(() -> Literals.hexToBytes("0xzz")).hasMessageContaining("bad hex digit");
  }

  @Test
  void uuidsAndBooleans() {
    assertThat(Literals.toUuid("123E4567-e89b-12d3-a456-426614174000"))
        .isEqualTo(UUID.fromString("123e4567-e89b-12d3-a456-426614174000"));
    assertThatThrownBy(() -> Literals.toUuid("1-2-3-4-5")).hasMessage("'1-2-3-4-5' is not a UUID");
    assertThat(Literals.toBoolean("TRUE")).isTrue();
    assertThat(Literals.toBoolean("false")).isFalse();
    assertThatThrownBy(() -> Literals.toBoolean("yes")).hasMessage("'yes' is not a boolean");
  }
}
