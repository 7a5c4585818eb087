package dev.talus.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CellReconcileTest {
  private static final byte[] A = {1};
  private static final byte[] B = {2};

  /** Asserts that {@code winner} wins against {@code loser} in both argument orders. */
  private static void assertWins(Cell winner, Cell loser) {
    assertThat(Cell.reconcile(winner, loser)).isSameAs(winner);
    assertThat(Cell.reconcile(loser, winner)).isSameAs(winner);
  }

  @Test
  void higherTimestampWins() {
    assertWins(Cell.live(0, 11, A), Cell.live(0, 10, B));
    assertWins(Cell.live(0, 11, A), Cell.tombstone(0, 10, 1_000));
    assertWins(Cell.tombstone(0, 11, 1), Cell.expiring(0, 10, 60, 1_000, B));
    assertWins(Cell.expiring(0, 11, 60, 1, A), Cell.tombstone(0, 10, 1_000));
    assertWins(Cell.live(0, -1, A), Cell.live(0, Long.MIN_VALUE, B));
  }

  @Test
  void sameTimestampCellWithDeletionTimeBeatsPlainLiveCell() {
    // a tombstone beats a live cell whatever the value
    assertWins(Cell.tombstone(0, 10, 1), Cell.live(0, 10, new byte[] {(byte) 0xFF}));
    // an expiring cell beats a live cell whatever the value
    assertWins(Cell.expiring(0, 10, 60, 1, A), Cell.live(0, 10, new byte[] {(byte) 0xFF}));
  }

  @Test
  void sameTimestampTombstoneBeatsExpiringCell() {
    // even if the expiring cell expires later
    assertWins(Cell.tombstone(0, 10, 5), Cell.expiring(0, 10, 60, 1_000, B));
    assertWins(Cell.tombstone(0, 10, 5_000), Cell.expiring(0, 10, 60, 1, B));
  }

  @Test
  void sameKindLaterLocalDeletionTimeWins() {
    assertWins(Cell.tombstone(0, 10, 101), Cell.tombstone(0, 10, 100));
    // expiring: the later expiry wins even with a larger TTL and a smaller value
    assertWins(Cell.expiring(0, 10, 90, 20, A), Cell.expiring(0, 10, 10, 99, B));
  }

  @Test
  void sameKindSameLocalDeletionTimeSmallerTtlWins() {
    // both expire at 100; the smaller TTL wins even with the smaller value
    Cell shortTtl = new Cell(0, 10, 5, 100, A);
    Cell longTtl = new Cell(0, 10, 50, 100, B);
    assertWins(shortTtl, longTtl);
  }

  @Test
  void sameEverythingGreaterValueBytesWinsUnsigned() {
    // 0x80 is greater than 0x7F unsigned (smaller signed)
    assertWins(Cell.live(0, 10, new byte[] {(byte) 0x80}), Cell.live(0, 10, new byte[] {0x7F}));
    // a longer value wins over its prefix
    assertWins(Cell.live(0, 10, new byte[] {1, 0}), Cell.live(0, 10, new byte[] {1}));
    assertWins(Cell.live(0, 10, new byte[] {0}), Cell.live(0, 10, Cell.EMPTY));
    // same for expiring cells with the same expiry and TTL
    assertWins(
        Cell.expiring(0, 10, 5, 100, new byte[] {(byte) 0xFE}),
        Cell.expiring(0, 10, 5, 100, new byte[] {0x01, 0x02}));
  }

  @Test
  void identicalCellsReconcileToAnEqualCell() {
    Cell a = Cell.live(0, 10, new byte[] {3});
    Cell b = Cell.live(0, 10, new byte[] {3});
    assertThat(Cell.reconcile(a, b)).isEqualTo(a);
  }

  @Test
  void expiringCellIsLiveUntilExactlyItsExpiry() {
    Cell c = Cell.expiring(0, 10, 60, 1_000, A);
    assertThat(c.localDeletionTime()).isEqualTo(1_060);
    assertThat(c.isExpiring()).isTrue();
    assertThat(c.isTombstone()).isFalse();
    assertThat(c.isLive(1_059)).isTrue();
    assertThat(c.isLive(1_060)).isFalse();
    assertThat(Cell.live(0, 1, A).isLive(Long.MAX_VALUE - 1)).isTrue();
    assertThat(Cell.tombstone(0, 1, 5).isLive(0)).isFalse();
    assertThat(Cell.tombstone(0, 1, 5).isTombstone()).isTrue();

    Cell t = c.asTombstone();
    assertThat(t.isTombstone()).isTrue();
    assertThat(t.timestamp()).isEqualTo(10);
    assertThat(t.localDeletionTime()).isEqualTo(1_000);
    assertThat(t.value()).isEmpty();
  }

  // ---- property: the result never depends on merge order ----

  /** Cells with colliding timestamps, deletion times, TTLs and values, to hit every tie-break. */
  private static Cell randomCell(Random rnd) {
    long ts = rnd.nextInt(3);
    byte[] value = new byte[rnd.nextInt(3)];
    for (int i = 0; i < value.length; i++) {
      value[i] = (byte) (rnd.nextBoolean() ? 0x7F + rnd.nextInt(3) : rnd.nextInt(2));
    }
    switch (rnd.nextInt(3)) {
      case 0:
        return Cell.live(0, ts, value);
      case 1:
        return Cell.tombstone(0, ts, 100 + rnd.nextInt(3));
      default:
        return new Cell(0, ts, 1 + rnd.nextInt(3), 100 + rnd.nextInt(3), value);
    }
  }

  private static String describe(Cell c) {
    return c + "[value=" + HexFormat.of().formatHex(c.value()) + "]";
  }

  @ParameterizedTest(name = "seed={0}")
  @ValueSource(longs = {1L, 2L, 3L, 4L, 5L, 987654321L})
  void reconcileIsCommutativeAndAssociative(long seed) {
    Random rnd = new Random(seed);
    for (int i = 0; i < 20_000; i++) {
      Cell a = randomCell(rnd);
      Cell b = randomCell(rnd);
      Cell c = randomCell(rnd);
      Cell ab = Cell.reconcile(a, b);
      assertThat(ab)
          .as("seed=%d commutativity of %s and %s", seed, describe(a), describe(b))
          .isEqualTo(Cell.reconcile(b, a));
      assertThat(ab == a || ab == b).as("seed=%d result is one of the inputs", seed).isTrue();
      assertThat(Cell.reconcile(ab, c))
          .as("seed=%d associativity of %s, %s, %s", seed, describe(a), describe(b), describe(c))
          .isEqualTo(Cell.reconcile(a, Cell.reconcile(b, c)));
    }
  }

  @ParameterizedTest(name = "seed={0}")
  @ValueSource(longs = {7L, 8L, 9L})
  void foldingInAnyOrderGivesTheSameCell(long seed) {
    Random rnd = new Random(seed);
    for (int i = 0; i < 2_000; i++) {
      List<Cell> cells = new ArrayList<>();
      int n = 2 + rnd.nextInt(6);
      for (int j = 0; j < n; j++) {
        cells.add(randomCell(rnd));
      }
      Cell expected = fold(cells);
      for (int k = 0; k < 5; k++) {
        List<Cell> shuffled = new ArrayList<>(cells);
        Collections.shuffle(shuffled, rnd);
        Cell actual = fold(shuffled);
        if (!actual.equals(expected)) {
          throw new AssertionError(
              "seed="
                  + seed
                  + ": order matters; "
                  + cells.stream().map(CellReconcileTest::describe).toList()
                  + " -> "
                  + describe(expected)
                  + " but "
                  + shuffled.stream().map(CellReconcileTest::describe).toList()
                  + " -> "
                  + describe(actual));
        }
      }
    }
  }

  private static Cell fold(List<Cell> cells) {
    Cell r = cells.get(0);
    for (int i = 1; i < cells.size(); i++) {
      r = Cell.reconcile(r, cells.get(i));
    }
    return r;
  }
}
