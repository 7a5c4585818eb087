package dev.talus.compaction;

import static dev.talus.compaction.Fixture.NOW;
import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.compaction.Parts.Part;
import dev.talus.data.DeletionTime;
import dev.talus.data.LiveRows;
import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionMerger;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import dev.talus.sstable.SSTableReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Compaction with nothing purgeable changes no read: random partitions over 2–6 SSTables, every key
 * read forwards, reversed and through a random slice, before and after.
 */
class CompactionPropertyTest {
  @TempDir Path tmp;

  static LongStream seeds() {
    return LongStream.rangeClosed(100, 124);
  }

  /** Everything a read can observe of one key, tombstones included. */
  record View(
      DeletionTime partitionDeletion,
      List<RangeTombstone> rangeTombstones,
      List<Row> merged,
      List<Row> liveForward,
      List<Row> liveReversed,
      List<Row> liveSlice) {}

  static View view(PartitionKey k, List<SSTableReader> readers, long now, Slice slice) {
    List<PartitionData> sources = new ArrayList<>();
    for (SSTableReader r : readers) {
      PartitionData d = r.partition(k);
      if (d != null) {
        sources.add(d);
      }
    }
    if (sources.isEmpty()) {
      return null;
    }
    PartitionMerger.Merged m = PartitionMerger.merge(k, sources, Slice.ALL, false);
    return new View(
        m.partitionDeletion(),
        m.rangeDeletions().intervals(),
        Parts.rows(m.rows()),
        live(k, sources, Slice.ALL, false, now),
        live(k, sources, Slice.ALL, true, now),
        live(k, sources, slice, false, now));
  }

  static List<Row> live(
      PartitionKey k, List<PartitionData> sources, Slice s, boolean reversed, long now) {
    return Parts.rows(
        new LiveRows(PartitionMerger.merge(k, sources, s, reversed).rows(), now, n -> {}));
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void readsAreIdenticalWhenNothingIsPurgeable(long seed) throws IOException {
    System.out.println("seed=" + seed);
    Random r = new Random(seed);
    List<List<Part>> tables = Fixture.randomTables(r, 2 + r.nextInt(5), 15 + r.nextInt(30), 10);
    var keys = Fixture.keys(tables);
    boolean purgeSettings = r.nextBoolean();
    long maxOutput = r.nextBoolean() ? Long.MAX_VALUE : 500 + r.nextInt(5000);
    Path dir = Files.createDirectories(tmp.resolve("t" + seed));
    try (Fixture f = new Fixture(dir)) {
      List<ReaderInfo> inputs = new ArrayList<>();
      List<SSTableReader> in = new ArrayList<>();
      for (List<Part> t : tables) {
        ReaderInfo info = f.write(t, NOW);
        inputs.add(info);
        in.add(info.reader());
      }
      CompactionPlan<ReaderInfo> plan = CompactionPlan.of(inputs, 0, maxOutput, "property");
      CompactionTask.Builder b = CompactionTask.builder(plan, f.fs, f.dir, f.manifest);
      if (purgeSettings) {
        // gc_grace far longer than anything in the data: nothing is old enough to purge
        b.purge(NOW, NOW - 1_000_000_000L, OverlapOracle.NONE);
      }
      CompactionTask.Result res = b.build().run();
      f.track(res.outputs());
      assertThat(res.tombstonesPurged()).isZero();

      for (PartitionKey k : keys) {
        int lo = r.nextInt(12);
        Slice slice = new Slice(Parts.bound(lo, false), Parts.bound(lo + r.nextInt(5), true));
        for (long now : new long[] {NOW, NOW + 700, NOW + 10_000}) {
          View before = view(k, in, now, slice);
          View after = view(k, res.outputs(), now, slice);
          if (purgeSettings) {
            // expired cells may have become tombstones: compare what reads return
            assertThat(after == null ? null : after.liveForward())
                .as("seed %s key %s now %s", seed, k, now)
                .isEqualTo(before == null ? null : before.liveForward());
            if (after != null) {
              assertThat(after.liveReversed()).isEqualTo(before.liveReversed());
              assertThat(after.liveSlice()).isEqualTo(before.liveSlice());
              assertThat(after.partitionDeletion()).isEqualTo(before.partitionDeletion());
              assertThat(after.rangeTombstones()).isEqualTo(before.rangeTombstones());
            }
          } else {
            assertThat(after).as("seed %s key %s now %s", seed, k, now).isEqualTo(before);
          }
        }
      }
    }
  }
}
