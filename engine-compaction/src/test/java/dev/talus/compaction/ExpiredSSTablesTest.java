package dev.talus.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ExpiredSSTablesTest {
  private static final long GC_BEFORE = 10_000;
  private static final long NO_MEMTABLE = Long.MAX_VALUE;

  /** Everything in it expired before gcBefore; data written at timestamps 100..200. */
  private static FakeSSTable expired(long gen, long first, long last) {
    return FakeSSTable.builder(gen)
        .tokens(first, last)
        .timestamps(100, 200)
        .maxLocalDeletionTime(GC_BEFORE - 1)
        .build();
  }

  private static FakeSSTable live(long gen, long first, long last, long minTs, long maxTs) {
    return FakeSSTable.builder(gen).tokens(first, last).timestamps(minTs, maxTs).build();
  }

  @Test
  void aloneFullyExpiredSSTableIsDropped() {
    FakeSSTable e = expired(1, 0, 100);
    assertThat(ExpiredSSTables.find(List.of(e), List.of(), GC_BEFORE, NO_MEMTABLE))
        .containsExactly(e);
  }

  @Test
  void deletionTimeAtGcBeforeIsNotExpired() {
    FakeSSTable atGc =
        FakeSSTable.builder(1).timestamps(100, 200).maxLocalDeletionTime(GC_BEFORE).build();
    FakeSSTable liveData = FakeSSTable.builder(2).timestamps(100, 200).build();
    assertThat(ExpiredSSTables.find(List.of(atGc, liveData), List.of(), GC_BEFORE, NO_MEMTABLE))
        .isEmpty();
  }

  @Test
  void overlappingOlderLiveDataBlocksTheDropSoNothingResurrects() {
    FakeSSTable e = expired(1, 0, 100);
    FakeSSTable older = live(2, 50, 150, 50, 60); // tombstones in e may shadow this data
    assertThat(ExpiredSSTables.find(List.of(e, older), List.of(), GC_BEFORE, NO_MEMTABLE))
        .isEmpty();
    // the same when the blocker is live elsewhere (compacting in another task)
    assertThat(ExpiredSSTables.find(List.of(e), List.of(older), GC_BEFORE, NO_MEMTABLE)).isEmpty();
    assertThat(ExpiredSSTables.blockers(e, List.of(e), List.of(older), GC_BEFORE))
        .containsExactly(older);
  }

  @Test
  void equalTimestampBlocksBecauseTombstonesWinTies() {
    FakeSSTable e = expired(1, 0, 100);
    FakeSSTable sameTs = live(2, 0, 100, 200, 300);
    assertThat(ExpiredSSTables.find(List.of(e, sameTs), List.of(), GC_BEFORE, NO_MEMTABLE))
        .isEmpty();
  }

  @Test
  void nonOverlappingOlderLiveDataDoesNotBlock() {
    FakeSSTable e = expired(1, 0, 100);
    FakeSSTable elsewhere = live(2, 101, 500, 1, 5);
    assertThat(ExpiredSSTables.find(List.of(e, elsewhere), List.of(), GC_BEFORE, NO_MEMTABLE))
        .containsExactly(e);
    assertThat(ExpiredSSTables.find(List.of(e), List.of(elsewhere), GC_BEFORE, NO_MEMTABLE))
        .containsExactly(e);
  }

  @Test
  void newerOverlappingLiveDataDoesNotBlock() {
    FakeSSTable e = expired(1, 0, 100);
    FakeSSTable newer = live(2, 0, 100, 201, 900);
    assertThat(ExpiredSSTables.find(List.of(e, newer), List.of(), GC_BEFORE, NO_MEMTABLE))
        .containsExactly(e);
  }

  @Test
  void otherFullyExpiredSSTablesNeverBlock() {
    FakeSSTable e1 = expired(1, 0, 100);
    FakeSSTable e2 =
        FakeSSTable.builder(2)
            .tokens(0, 100)
            .timestamps(10, 500)
            .maxLocalDeletionTime(GC_BEFORE - 5)
            .build();
    FakeSSTable outsideExpired =
        FakeSSTable.builder(3)
            .tokens(0, 100)
            .timestamps(1, 2)
            .maxLocalDeletionTime(GC_BEFORE - 5)
            .build();
    assertThat(
            ExpiredSSTables.find(List.of(e1, e2), List.of(outsideExpired), GC_BEFORE, NO_MEMTABLE))
        .containsExactly(e1, e2);
  }

  @Test
  void memtableDataOlderThanTheCandidateBlocksIt() {
    FakeSSTable e = expired(1, 0, 100);
    assertThat(ExpiredSSTables.find(List.of(e), List.of(), GC_BEFORE, 150)).isEmpty();
    assertThat(ExpiredSSTables.find(List.of(e), List.of(), GC_BEFORE, 200)).isEmpty();
    assertThat(ExpiredSSTables.find(List.of(e), List.of(), GC_BEFORE, 201)).containsExactly(e);
  }

  @Test
  void eachCandidateIsJudgedByWhatOverlapsIt() {
    FakeSSTable left = expired(1, 0, 100);
    FakeSSTable right = expired(2, 200, 300);
    FakeSSTable olderRight = live(3, 250, 400, 50, 60);
    assertThat(
            ExpiredSSTables.find(
                List.of(left, right, olderRight), List.of(), GC_BEFORE, NO_MEMTABLE))
        .containsExactly(left);
  }

  @Test
  void contextFormUsesCandidatesAndCompacting() {
    FakeSSTable e = expired(1, 0, 100);
    FakeSSTable compactingOlder = live(2, 0, 100, 10, 20);
    StrategyContext<SSTableInfo> blocked =
        new StrategyContext<>(List.of(e), List.of(compactingOlder), 20_000, GC_BEFORE, NO_MEMTABLE);
    assertThat(ExpiredSSTables.find(blocked)).isEmpty();
    StrategyContext<SSTableInfo> free =
        new StrategyContext<>(List.of(e), List.of(), 20_000, GC_BEFORE, NO_MEMTABLE);
    assertThat(ExpiredSSTables.find(free)).containsExactly(e);
  }
}
