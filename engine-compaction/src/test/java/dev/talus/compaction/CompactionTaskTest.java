package dev.talus.compaction;

import static dev.talus.compaction.Fixture.NOW;
import static dev.talus.compaction.Parts.ck;
import static dev.talus.compaction.Parts.key;
import static dev.talus.compaction.Parts.part;
import static dev.talus.compaction.Parts.row;
import static dev.talus.compaction.Parts.val;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.compaction.Parts.Part;
import dev.talus.data.Cell;
import dev.talus.data.DeletionTime;
import dev.talus.data.PartitionKey;
import dev.talus.data.Row;
import dev.talus.sstable.SSTableReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CompactionTaskTest {
  static final long GC_GRACE = 1000;
  static final long GC_BEFORE = NOW - GC_GRACE;

  @TempDir Path dir;

  private static List<SSTableReader> readers(List<ReaderInfo> infos) {
    return infos.stream().map(ReaderInfo::reader).toList();
  }

  private CompactionTask.Result compact(
      Fixture f, List<ReaderInfo> inputs, long maxOutputBytes, OverlapOracle oracle)
      throws IOException {
    CompactionPlan<ReaderInfo> plan =
        CompactionPlan.of(new ArrayList<>(inputs), 0, maxOutputBytes, "test");
    CompactionTask.Result res =
        CompactionTask.builder(plan, f.fs, f.dir, f.manifest)
            .purge(NOW, GC_BEFORE, oracle)
            .build()
            .run();
    f.track(res.outputs());
    return res;
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6})
  void mergingRandomSSTablesKeepsTheLiveContent(long seed) throws IOException {
    System.out.println("seed=" + seed);
    Random r = new Random(seed);
    try (Fixture f = new Fixture(dir)) {
      List<List<Part>> tables = Fixture.randomTables(r, 2 + r.nextInt(5), 40, 12);
      List<ReaderInfo> inputs = new ArrayList<>();
      for (List<Part> t : tables) {
        inputs.add(f.write(t, NOW));
      }
      var keys = Fixture.keys(tables);
      Map<PartitionKey, List<Row>> before = Fixture.liveOfReaders(readers(inputs), keys, NOW);
      assertThat(before).isEqualTo(Fixture.liveOfParts(tables, NOW));

      CompactionTask.Result res = compact(f, inputs, Long.MAX_VALUE, OverlapOracle.NONE);
      f.swap(res);

      assertThat(res.outputs()).hasSizeLessThanOrEqualTo(1);
      for (long later : new long[] {NOW, NOW + 5_000}) {
        assertThat(Fixture.liveOfReaders(res.outputs(), keys, later))
            .as("seed %s, now %s", seed, later)
            .isEqualTo(Fixture.liveOfParts(tables, later));
      }
      assertThat(res.tombstonesPurged()).as("seed %s", seed).isPositive();
      assertThat(res.cellsShadowedOrSuperseded()).isNotNegative();
      assertThat(res.cellsRead())
          .isEqualTo(res.cellsWritten() + res.cellsPurged() + res.cellsShadowedOrSuperseded());
      // Nothing left that the purge rules allowed to go.
      for (SSTableReader out : res.outputs()) {
        assertThat(out.stats().estimatedDroppableTombstones(GC_BEFORE - 60)).isZero();
      }
      assertThat(f.manifest.liveGenerations()).containsExactlyElementsOf(res.outputGenerations());
      for (ReaderInfo in : inputs) {
        assertThat(in.reader().refCount()).isEqualTo(1);
        assertThat(in.reader().isObsolete()).isTrue();
      }
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {11, 12, 13})
  void smallMaxOutputBytesSplitsIntoSortedDisjointOutputs(long seed) throws IOException {
    System.out.println("seed=" + seed);
    Random r = new Random(seed);
    try (Fixture f = new Fixture(dir)) {
      List<List<Part>> tables = Fixture.randomTables(r, 3, 120, 10);
      List<ReaderInfo> inputs = new ArrayList<>();
      for (List<Part> t : tables) {
        inputs.add(f.write(t, NOW));
      }
      var keys = Fixture.keys(tables);
      CompactionTask.Result res = compact(f, inputs, 2_000, OverlapOracle.NONE);
      assertThat(res.outputs()).as("seed %s", seed).hasSizeGreaterThan(2);
      long partitions = 0;
      for (int i = 0; i < res.outputs().size(); i++) {
        SSTableReader o = res.outputs().get(i);
        partitions += o.stats().partitionCount();
        assertThat(o.firstKey().compareTo(o.lastKey())).isLessThanOrEqualTo(0);
        if (i > 0) {
          assertThat(res.outputs().get(i - 1).lastKey().compareTo(o.firstKey())).isNegative();
        }
        // Split only between partitions, once past the limit: no output is far beyond it
        // except by its last partition.
        assertThat(o.stats().partitionCount()).isPositive();
      }
      assertThat(partitions).isEqualTo(res.partitionsWritten());
      assertThat(Fixture.liveOfReaders(res.outputs(), keys, NOW))
          .isEqualTo(Fixture.liveOfParts(tables, NOW));
    }
  }

  /**
   * A row deletion at Long.MAX_VALUE (Cassandra accepts it as a timestamp) is purged when nothing
   * outside holds the key (CompactionsPurgeTest.testMajorCompactionPurgeTombstonesWithMaxTimestamp)
   * and kept while another SSTable holds the key, even one whose data is all at Long.MAX_VALUE: the
   * deletion shadows it (ties go to the deletion), so dropping it would resurrect the row.
   */
  @Test
  void tombstoneAtLongMaxValueIsPurgedOnlyWhenNothingOutsideHoldsTheKey() throws IOException {
    PartitionKey k = key("max");
    try (Fixture f = new Fixture(dir)) {
      ReaderInfo a = f.write(part(k, row(1, Cell.live(1, Long.MAX_VALUE, val("x")))));
      ReaderInfo b =
          f.write(part(k, Row.deletion(ck(1), new DeletionTime(Long.MAX_VALUE, GC_BEFORE - 10))));
      List<SSTableReader> live = List.of(a.reader(), b.reader());
      OverlapOracle oracle =
          OverlapOracle.forCompaction(live, List.of(b.reader()), key2 -> Long.MAX_VALUE);
      assertThat(oracle.maxPurgeableTimestamp(k)).isEqualTo(Long.MAX_VALUE - 1);
      assertThat(compact(f, List.of(b), Long.MAX_VALUE, oracle).tombstonesPurged()).isZero();

      CompactionTask.Result both = compact(f, List.of(a, b), Long.MAX_VALUE, OverlapOracle.NONE);
      assertThat(both.outputs()).isEmpty();
      assertThat(both.tombstonesPurged()).isEqualTo(1);
    }
  }

  /** Row in old SSTable A, its deletion in newer SSTable B, B compacted alone after gc_grace. */
  @Test
  void zombiePrevention() throws IOException {
    PartitionKey k = key("zombie");
    long deletedAt = GC_BEFORE - 10; // gc_grace has passed
    try (Fixture f = new Fixture(dir)) {
      ReaderInfo a = f.write(part(k, row(1, Cell.live(1, 100, val("brains")))));
      ReaderInfo b = f.write(part(k, Row.deletion(ck(1), new DeletionTime(200, deletedAt))));
      List<SSTableReader> live = List.of(a.reader(), b.reader());

      OverlapOracle oracle =
          OverlapOracle.forCompaction(live, List.of(b.reader()), key2 -> Long.MAX_VALUE);
      assertThat(oracle.maxPurgeableTimestamp(k)).isEqualTo(100);
      CompactionTask.Result onlyB = compact(f, List.of(b), Long.MAX_VALUE, oracle);
      assertThat(onlyB.tombstonesPurged()).isZero();
      assertThat(onlyB.outputs()).hasSize(1);
      assertThat(
              Fixture.liveOfReaders(List.of(a.reader(), onlyB.outputs().get(0)), List.of(k), NOW))
          .as("the deletion still hides the old row")
          .isEmpty();

      // What the oracle prevents: without it the tombstone goes and the row comes back.
      CompactionTask.Result unsafe = compact(f, List.of(b), Long.MAX_VALUE, OverlapOracle.NONE);
      assertThat(unsafe.outputs()).isEmpty();
      assertThat(Fixture.liveOfReaders(List.of(a.reader()), List.of(k), NOW)).hasSize(1);

      // A memtable holding older data for the key blocks the purge just the same.
      OverlapOracle memtable =
          OverlapOracle.of(List.of(), key2 -> key2.equals(k) ? 150 : Long.MAX_VALUE);
      assertThat(compact(f, List.of(b), Long.MAX_VALUE, memtable).tombstonesPurged()).isZero();

      // Both together: the row is shadowed in the merge and the tombstone purged.
      CompactionTask.Result both = compact(f, List.of(a, b), Long.MAX_VALUE, OverlapOracle.NONE);
      assertThat(both.outputs()).isEmpty();
      assertThat(both.tombstonesPurged()).isEqualTo(1);
      assertThat(both.cellsShadowedOrSuperseded()).isEqualTo(1);
      assertThat(both.partitionsRead()).isEqualTo(1);
      assertThat(both.partitionsWritten()).isZero();
    }
  }

  @Test
  void oracleSkipsSSTablesOutsideTheKeyOrFilter() throws IOException {
    try (Fixture f = new Fixture(dir)) {
      List<Part> many = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        many.add(part(key("k" + i), row(1, Cell.live(1, 10 + i, val("v")))));
      }
      ReaderInfo big = f.write(many, NOW);
      ReaderInfo other = f.write(part(key("k3"), row(1, Cell.tombstone(1, 500, 0))));
      OverlapOracle o =
          OverlapOracle.forCompaction(
              List.of(big.reader(), other.reader()), List.of(other.reader()), k -> Long.MAX_VALUE);
      assertThat(o.maxPurgeableTimestamp(key("k3"))).isEqualTo(10);
      int absent = 0;
      for (int i = 0; i < 200; i++) {
        if (o.maxPurgeableTimestamp(key("absent" + i)) == Long.MAX_VALUE) {
          absent++;
        }
      }
      assertThat(absent).as("Bloom filter rules out most absent keys").isGreaterThan(150);
    }
  }

  @Test
  void fullyExpiredInputsAreNeverOpenedOrRead() throws IOException {
    try (Fixture f = new Fixture(dir)) {
      ReaderInfo live = f.write(part(key("a"), row(1, Cell.live(1, 10, val("x")))));
      ReaderInfo expired = f.write(part(key("b"), row(1, Cell.tombstone(1, 5, 0))));
      SSTableReader er = expired.reader();
      er.release(); // no reference left: reading it would throw
      CompactionPlan<ReaderInfo> plan =
          new CompactionPlan<>(List.of(live), List.of(expired), 0, Long.MAX_VALUE, "expired");
      CompactionTask.Result res =
          CompactionTask.builder(plan, f.fs, f.dir, f.manifest).build().run();
      f.track(res.outputs());
      assertThat(res.removedGenerations())
          .containsExactlyInAnyOrder(live.generation(), expired.generation());
      f.swap(res);
      assertThat(f.manifest.liveGenerations()).containsExactlyElementsOf(res.outputGenerations());
      assertThat(f.fs.exists(er.descriptor().path(dev.talus.sstable.Component.DATA))).isFalse();
    }
  }

  @Test
  void withoutPurgeSettingsNothingIsPurged() throws IOException {
    try (Fixture f = new Fixture(dir)) {
      ReaderInfo in = f.write(part(key("a"), row(1, Cell.tombstone(1, 5, 0))));
      CompactionPlan<ReaderInfo> plan =
          CompactionPlan.of(List.of(in), 0, Long.MAX_VALUE, "rewrite");
      CompactionTask.Result res =
          CompactionTask.builder(plan, f.fs, f.dir, f.manifest).build().run();
      f.track(res.outputs());
      assertThat(res.outputs()).hasSize(1);
      assertThat(res.tombstonesPurged()).isZero();
    }
  }

  @Test
  void cancellationLeavesNoFiles() throws IOException {
    Random r = new Random(21);
    try (Fixture f = new Fixture(dir)) {
      List<ReaderInfo> inputs = new ArrayList<>();
      List<List<Part>> tables = Fixture.randomTables(r, 3, 60, 8);
      for (List<Part> t : tables) {
        inputs.add(f.write(t, NOW));
      }
      int lastCheck = Fixture.keys(tables).size() + 1; // one per partition, one before commit
      List<Path> before = f.fs.list(dir);
      for (int stopAt : new int[] {1, 5, 30, lastCheck}) {
        AtomicInteger calls = new AtomicInteger();
        CompactionPlan<ReaderInfo> plan =
            CompactionPlan.of(new ArrayList<>(inputs), 0, 1_500, "cancel");
        CompactionTask task =
            CompactionTask.builder(plan, f.fs, f.dir, f.manifest)
                .purge(NOW, GC_BEFORE, OverlapOracle.NONE)
                .checkpoint(
                    () -> {
                      if (calls.incrementAndGet() == stopAt) {
                        throw new CompactionInterruptedException("stop");
                      }
                    })
                .build();
        assertThatThrownBy(task::run)
            .as("stop at %s", stopAt)
            .isInstanceOf(CompactionInterruptedException.class);
        assertThat(f.fs.list(dir)).as("stop at %s", stopAt).isEqualTo(before);
        for (ReaderInfo in : inputs) {
          assertThat(in.reader().refCount()).isEqualTo(1);
        }
      }
    }
  }

  @Test
  void interruptedThrottleLeavesNoFiles() throws IOException {
    try (Fixture f = new Fixture(dir)) {
      List<ReaderInfo> inputs = new ArrayList<>();
      for (List<Part> t : Fixture.randomTables(new Random(5), 2, 30, 5)) {
        inputs.add(f.write(t, NOW));
      }
      List<Path> before = f.fs.list(dir);
      long[] clock = {0};
      AtomicInteger parks = new AtomicInteger();
      Throttle throttle =
          new Throttle(
              1,
              () -> clock[0],
              nanos -> {
                if (parks.incrementAndGet() == 10) {
                  Thread.currentThread().interrupt(); // parkNanos returns early on interrupt
                } else {
                  clock[0] += nanos;
                }
              });
      CompactionPlan<ReaderInfo> plan =
          CompactionPlan.of(new ArrayList<>(inputs), 0, 1_000, "throttled");
      CompactionTask task =
          CompactionTask.builder(plan, f.fs, f.dir, f.manifest).throttle(throttle).build();
      try {
        assertThatThrownBy(task::run).isInstanceOf(CompactionInterruptedException.class);
      } finally {
        assertThat(Thread.interrupted()).isTrue();
      }
      assertThat(f.fs.list(dir)).isEqualTo(before);
    }
  }

  /** A failure at every I/O operation in turn: each leaves exactly the files that were there. */
  @Test
  void ioFailureAtAnyPointLeavesNoFiles() throws IOException {
    FailingFs fs = new FailingFs();
    try (Fixture f = new Fixture(fs, dir)) {
      List<ReaderInfo> inputs = new ArrayList<>();
      for (List<Part> t : Fixture.randomTables(new Random(8), 3, 25, 6)) {
        inputs.add(f.write(t, NOW));
      }
      List<Path> before = f.fs.list(dir);
      int failures = 0;
      for (int n = 1; ; n++) {
        fs.failAfter(n);
        CompactionPlan<ReaderInfo> plan =
            CompactionPlan.of(new ArrayList<>(inputs), 0, 1_200, "fail");
        CompactionTask task =
            CompactionTask.builder(plan, f.fs, f.dir, f.manifest)
                .purge(NOW, GC_BEFORE, OverlapOracle.NONE)
                .build();
        try {
          CompactionTask.Result res = task.run();
          fs.failAfter(-1);
          f.track(res.outputs());
          assertThat(res.outputs()).hasSizeGreaterThan(1);
          break;
        } catch (IOException e) {
          failures++;
          fs.failAfter(-1);
          assertThat(f.fs.list(dir)).as("failure at operation %s", n).isEqualTo(before);
        }
        for (ReaderInfo in : inputs) {
          assertThat(in.reader().refCount()).isEqualTo(1);
        }
      }
      System.out.println("I/O failure points tested: " + failures);
      assertThat(failures).isGreaterThan(20);
    }
  }

  @Test
  void rejectsInputsThatAreNotReaders() throws IOException {
    try (Fixture f = new Fixture(dir)) {
      SSTableInfo fake = SyntheticSSTable.builder(1).build();
      // only an unchecked conversion can smuggle one in; the task still refuses it
      @SuppressWarnings("unchecked")
      CompactionPlan<ReaderInfo> plan =
          (CompactionPlan<ReaderInfo>)
              (CompactionPlan<?>) CompactionPlan.of(List.of(fake), 0, Long.MAX_VALUE, "bad");
      assertThatThrownBy(() -> CompactionTask.builder(plan, f.fs, f.dir, f.manifest).build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("ReaderInfo");
    }
  }
}
