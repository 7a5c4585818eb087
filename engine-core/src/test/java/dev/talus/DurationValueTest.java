package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DurationValueTest {

  @Test
  void componentsMustShareTheirSign() {
    assertThat(DurationValue.of(1, 2, 3).isNegative()).isFalse();
    assertThat(DurationValue.of(-1, -2, -3).isNegative()).isTrue();
    assertThat(DurationValue.of(0, -2, 0).isNegative()).isTrue();
    assertThat(DurationValue.of(0, 0, 0).isNegative()).isFalse();
    assertThatThrownBy(() -> DurationValue.of(1, -1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("same sign");
    assertThatThrownBy(() -> DurationValue.of(-1, 0, 5))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> DurationValue.of(0, 1, -5))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void equalityIsComponentWise() {
    DurationValue d = DurationValue.of(1, 2, 3);
    assertThat(d).isEqualTo(DurationValue.of(1, 2, 3)).hasSameHashCodeAs(DurationValue.of(1, 2, 3));
    assertThat(d).isNotEqualTo(DurationValue.of(1, 2, 4));
    assertThat(DurationValue.of(1, 0, 0)).isNotEqualTo(DurationValue.of(0, 30, 0));
    assertThat(d.months()).isEqualTo(1);
    assertThat(d.days()).isEqualTo(2);
    assertThat(d.nanoseconds()).isEqualTo(3);
  }

  @Test
  void toStringUsesCqlUnits() {
    long nanos = ((4L * 60 + 5) * 60 + 6) * 1_000_000_000L + 7_008_009L;
    assertThat(DurationValue.of(14, 3, nanos)).hasToString("1y2mo3d4h5m6s7ms8us9ns");
    assertThat(DurationValue.of(0, -3, 0)).hasToString("-3d");
    assertThat(DurationValue.of(0, 0, 0)).hasToString("0s");
    assertThat(DurationValue.of(Integer.MIN_VALUE, 0, Long.MIN_VALUE).toString())
        .startsWith("-178956970y8mo2562047h");
  }
}
