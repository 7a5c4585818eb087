package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The writer's row-index block size: small blocks first, growing to the configured size. */
class RowIndexBlockTargetTest {
  private static final int KIB = 1024;

  @Test
  void startsAtASixteenthAndGrowsWithThePartitionUpToTheConfiguredSize() {
    int configured = 64 * KIB;
    assertThat(SSTableWriter.blockTarget(configured, 0)).isEqualTo(4 * KIB);
    assertThat(SSTableWriter.blockTarget(configured, 64 * KIB)).isEqualTo(4 * KIB);
    assertThat(SSTableWriter.blockTarget(configured, 128 * KIB)).isEqualTo(8 * KIB);
    assertThat(SSTableWriter.blockTarget(configured, 1024 * KIB)).isEqualTo(64 * KIB);
    assertThat(SSTableWriter.blockTarget(configured, 1L << 40)).isEqualTo(64 * KIB);
  }

  @Test
  void tinyConfiguredSizesStillCloseBlocks() {
    assertThat(SSTableWriter.blockTarget(1, 0)).isZero(); // every row closes a block
    assertThat(SSTableWriter.blockTarget(1, 1_000)).isEqualTo(1);
    assertThat(SSTableWriter.blockTarget(4 * KIB, 0)).isEqualTo(256);
  }
}
