package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class DataTypeTest {

  @Test
  void namesAndJavaTypes() {
    assertThat(DataType.TIMEUUID.cqlName()).isEqualTo("timeuuid");
    assertThat(DataType.BIGINT.cqlName()).isEqualTo("bigint");
    assertThat(DataType.TIMEUUID.javaType()).isEqualTo(UUID.class);
    assertThat(DataType.TIMESTAMP.javaType()).isEqualTo(Instant.class);
    assertThat(DataType.BLOB.javaType()).isEqualTo(byte[].class);
    assertThat(DataType.DURATION.javaType()).isEqualTo(DurationValue.class);
    assertThat(DataType.values()).hasSize(20);
  }

  @Test
  void onlyDurationAndCounterCannotBeKeys() {
    for (DataType type : DataType.values()) {
      assertThat(type.canBeKey())
          .as(type.name())
          .isEqualTo(type != DataType.DURATION && type != DataType.COUNTER);
    }
  }
}
