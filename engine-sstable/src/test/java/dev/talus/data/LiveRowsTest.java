package dev.talus.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * LiveRows reports, with every tombstone it scans, whether it is already past gc_grace, judged as a
 * compaction would judge it (Cassandra's ReadCommand.withoutPurgeableTombstones runs its purge
 * function before counting, so such tombstones never reach the thresholds).
 */
class LiveRowsTest {
  private static final byte[] C1 = TestData.row(1);
  private static final byte[] C2 = TestData.row(2);
  private static final byte[] C3 = TestData.row(3);

  private record Report(int tombstones, int purgeable) {}

  private static List<Report> scan(List<Row> rows, long now, long gcBefore) {
    List<Report> reports = new ArrayList<>();
    LiveRows live =
        new LiveRows(
            rows.iterator(),
            now,
            gcBefore,
            new LiveRows.TombstoneCounter() {
              @Override
              public void add(int tombstones) {
                throw new AssertionError("the two-argument form is used");
              }

              @Override
              public void add(int tombstones, int purgeable) {
                reports.add(new Report(tombstones, purgeable));
              }
            });
    while (live.hasNext()) {
      live.next();
    }
    return reports;
  }

  @Test
  void deletionsBeforeGcBeforeArePurgeable() {
    List<Row> rows =
        List.of(
            Row.deletion(C1, new DeletionTime(4, 99)),
            Row.deletion(C2, new DeletionTime(4, 100)),
            new Row(
                C3,
                LivenessInfo.of(1),
                DeletionTime.LIVE,
                new Cell[] {Cell.tombstone(0, 2, 99), Cell.tombstone(1, 2, 100)}));
    // strictly before gcBefore, as the purge rule; reported together before the live row
    assertThat(scan(rows, 200, 100)).containsExactly(new Report(4, 2));
  }

  @Test
  void tombstonesAreReportedInBatchesWithExactTotals() {
    List<Row> rows = new java.util.ArrayList<>();
    for (int i = 0; i < 150; i++) {
      rows.add(
          Row.deletion(
              ClusteringBytes.row(List.of(new byte[] {(byte) (i >> 8), (byte) i})),
              new DeletionTime(4, i % 2 == 0 ? 99 : 100)));
    }
    List<Report> reports = scan(rows, 200, 100);
    assertThat(reports)
        .containsExactly(
            new Report(LiveRows.BATCH, LiveRows.BATCH / 2),
            new Report(LiveRows.BATCH, LiveRows.BATCH / 2),
            new Report(150 - 2 * LiveRows.BATCH, (150 - 2 * LiveRows.BATCH) / 2));
  }

  /**
   * An expired cell stands for the tombstone a compaction would turn it into, deleted at expiry −
   * ttl (Cell.asTombstone): purgeable gc_grace after it was written, not after it expired.
   */
  @Test
  void anExpiredCellIsPurgeableGcGraceAfterItWasWritten() {
    Cell longTtl = Cell.expiring(0, 1, 50, 60, new byte[] {1}); // written at 60, expires at 110
    Cell written90 = Cell.expiring(1, 1, 20, 90, new byte[] {2}); // written at 90, expires at 110
    List<Row> rows =
        List.of(
            new Row(C1, LivenessInfo.EMPTY, DeletionTime.LIVE, new Cell[] {longTtl, written90}));
    assertThat(scan(rows, 120, 80)).containsExactly(new Report(2, 1));
    assertThat(scan(rows, 120, 60)).containsExactly(new Report(2, 0));
  }

  @Test
  void withoutGcBeforeNothingIsPurgeable() {
    List<Row> rows = List.of(Row.deletion(C1, new DeletionTime(4, 0)));
    List<Integer> counts = new ArrayList<>();
    LiveRows live = new LiveRows(rows.iterator(), 200, counts::add);
    assertThat(live.hasNext()).isFalse();
    assertThat(counts).containsExactly(1);
  }
}
