package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The seek allowance: one per 16 KiB of SSTable, at least 100; the charge that uses it up is
 * reported, and then every allowance's worth of charges, exactly once each, also when threads
 * charge at the same time.
 */
class SeekAllowanceTest {
  @Test
  void theChargeThatUsesTheAllowanceUpIsReportedOnce() {
    SeekAllowance small = new SeekAllowance(1_000);
    for (int i = 1; i < SeekAllowance.MINIMUM; i++) {
      assertThat(small.charge()).as("charge %d", i).isFalse();
      assertThat(small.exhausted()).isFalse();
    }
    assertThat(small.charge()).isTrue();
    assertThat(small.exhausted()).isTrue();
    for (int i = 1; i < SeekAllowance.MINIMUM; i++) {
      assertThat(small.charge()).as("charge %d after", i).isFalse();
    }
    assertThat(small.charge()).as("another allowance's worth asks again").isTrue();
    assertThat(small.charged()).isEqualTo(2L * SeekAllowance.MINIMUM);
  }

  @Test
  void largerSSTablesAllowOneSeekPer16KiB() {
    SeekAllowance big = new SeekAllowance(1000 * SeekAllowance.BYTES_PER_SEEK);
    int charges = 1;
    while (!big.charge()) {
      charges++;
    }
    assertThat(charges).isEqualTo(1000);
  }

  @Test
  void concurrentChargesReportExactlyOnce() throws Exception {
    SeekAllowance a = new SeekAllowance(1500 * SeekAllowance.BYTES_PER_SEEK);
    AtomicInteger reported = new AtomicInteger();
    Thread[] threads = new Thread[4];
    for (int t = 0; t < threads.length; t++) {
      threads[t] =
          new Thread(
              () -> {
                for (int i = 0; i < 1_000; i++) {
                  if (a.charge()) {
                    reported.incrementAndGet();
                  }
                }
              });
      threads[t].start();
    }
    for (Thread t : threads) {
      t.join();
    }
    assertThat(reported.get()).as("4,000 charges, one report per 1,500").isEqualTo(2);
    assertThat(a.charged()).isEqualTo(4_000);
    assertThat(a.exhausted()).isTrue();
  }
}
