package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ValueOrder compares values in the order sets and clustering keys store them. */
class ValueOrderTest {
  @Test
  void ordersValuesAsTheTypeStoresThem() {
    assertThat(ValueOrder.of(DataType.INT).compare(-5, 3)).isNegative();
    assertThat(ValueOrder.of(DataType.INT).compare(7, 7)).isZero();
    assertThat(ValueOrder.of(DataType.TEXT).compare("b", "a")).isPositive();
    // blobs compare as unsigned bytes: 0xff sorts after 0x01
    assertThat(ValueOrder.of(DataType.BLOB).compare(new byte[] {(byte) 0xff}, new byte[] {1}))
        .isPositive();
    List<Object> sorted = new ArrayList<>(List.of(3L, -1L, 2L));
    sorted.sort(ValueOrder.of(DataType.BIGINT));
    assertThat(sorted).containsExactly(-1L, 2L, 3L);
  }
}
