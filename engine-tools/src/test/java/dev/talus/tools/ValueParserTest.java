package dev.talus.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.ClusteringOrder;
import dev.talus.ColumnDef;
import dev.talus.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ValueParserTest {
  private static Object parse(DataType t, String s) {
    return ValueParser.parse(
        new ColumnDef("c", t, ColumnDef.Kind.PARTITION_KEY, ClusteringOrder.ASC), s);
  }

  @Test
  void parsesEveryKeyType() {
    assertThat(parse(DataType.TEXT, "a,b c")).isEqualTo("a,b c");
    assertThat(parse(DataType.ASCII, "abc")).isEqualTo("abc");
    assertThat(parse(DataType.BOOLEAN, "TRUE")).isEqualTo(true);
    assertThat(parse(DataType.TINYINT, "-5")).isEqualTo((byte) -5);
    assertThat(parse(DataType.SMALLINT, "300")).isEqualTo((short) 300);
    assertThat(parse(DataType.INT, "42")).isEqualTo(42);
    assertThat(parse(DataType.BIGINT, "9000000000")).isEqualTo(9_000_000_000L);
    assertThat(parse(DataType.VARINT, "123456789012345678901234567890"))
        .isEqualTo(new BigInteger("123456789012345678901234567890"));
    assertThat(parse(DataType.FLOAT, "1.5")).isEqualTo(1.5f);
    assertThat(parse(DataType.DOUBLE, "21.5")).isEqualTo(21.5);
    assertThat(parse(DataType.DECIMAL, "12.50")).isEqualTo(new BigDecimal("12.50"));
    assertThat((byte[]) parse(DataType.BLOB, "0xCAfe")).containsExactly(0xca, 0xfe);
    assertThat(parse(DataType.UUID, "00000000-0000-4000-8000-000000000042"))
        .isEqualTo(UUID.fromString("00000000-0000-4000-8000-000000000042"));
    assertThat(parse(DataType.TIMEUUID, "66bf3a00-a5e8-11f1-89d7-6b897c1bbfff"))
        .isEqualTo(UUID.fromString("66bf3a00-a5e8-11f1-89d7-6b897c1bbfff"));
    assertThat(parse(DataType.TIMESTAMP, "2026-09-01T09:00:00Z"))
        .isEqualTo(Instant.parse("2026-09-01T09:00:00Z"));
    assertThat(parse(DataType.TIMESTAMP, "2026-09-01T11:00:00.250+02:00"))
        .isEqualTo(Instant.parse("2026-09-01T09:00:00.250Z"));
    assertThat(parse(DataType.TIMESTAMP, "2026-09-01T09:00"))
        .isEqualTo(Instant.parse("2026-09-01T09:00:00Z"));
    assertThat(parse(DataType.TIMESTAMP, "2026-09-01"))
        .isEqualTo(Instant.parse("2026-09-01T00:00:00Z"));
    assertThat(parse(DataType.TIMESTAMP, "0")).isEqualTo(Instant.EPOCH);
    assertThat(parse(DataType.DATE, "2026-09-01")).isEqualTo(LocalDate.of(2026, 9, 1));
    assertThat(parse(DataType.TIME, "09:30")).isEqualTo(LocalTime.of(9, 30));
    assertThat(parse(DataType.INET, "10.0.0.1").toString()).isEqualTo("/10.0.0.1");
    assertThat(parse(DataType.INET, "::1").toString()).startsWith("/0:0:0:0:0:0:0:1");
  }

  @Test
  void refusesWhatDoesNotParseNamingTheExpectedForm() {
    assertThatThrownBy(() -> parse(DataType.INT, "4.2"))
        .isInstanceOf(CliException.class)
        .hasMessage("bad value '4.2' for column c (int): expected a 32-bit integer, e.g. 42");
    assertThatThrownBy(() -> parse(DataType.BLOB, "cafe")).hasMessageContaining("starting with 0x");
    assertThatThrownBy(() -> parse(DataType.BOOLEAN, "yes")).hasMessageContaining("true or false");
    assertThatThrownBy(() -> parse(DataType.TIMEUUID, "00000000-0000-4000-8000-000000000042"))
        .hasMessageContaining("version 1");
    assertThatThrownBy(() -> parse(DataType.TIMESTAMP, "2026-09-01T09:00:00.000001Z"))
        .hasMessageContaining("millisecond precision");
    assertThatThrownBy(() -> parse(DataType.INET, "example.com"))
        .hasMessageContaining("address literal");
    assertThatThrownBy(() -> parse(DataType.ASCII, "é")).hasMessageContaining("US-ASCII");
    assertThatThrownBy(() -> parse(DataType.UUID, "1-2-3-4-5")).hasMessageContaining("a UUID");
  }
}
