package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Leveled compaction through the public API: after random workloads no two SSTables of a level ≥ 1
 * overlap, level sizes stay within bounds, a flooded L0 is brought back down, compressed L0
 * SSTables are compacted once, and switching a table between strategies on live data loses nothing.
 */
class LeveledCompactionTest {
  @TempDir Path dir;

  static final long SSTABLE_SIZE = 64 << 10;
  static final int FANOUT = 4;

  private static TableSchema schema(CompactionOptions compaction) {
    return TableSchema.builder("lcs")
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT)
        .column("v", DataType.TEXT)
        .compression(Compression.NONE)
        .compaction(compaction)
        .build();
  }

  private static CompactionOptions leveled() {
    return CompactionOptions.leveled().sstableSizeBytes(SSTABLE_SIZE).fanout(FANOUT).build();
  }

  private static void checkLevels(Table t, String when) {
    Map<Integer, List<SSTableSummary>> byLevel = new HashMap<>();
    for (SSTableSummary s : t.sstables()) {
      byLevel.computeIfAbsent(s.level(), k -> new ArrayList<>()).add(s);
    }
    for (Map.Entry<Integer, List<SSTableSummary>> e : byLevel.entrySet()) {
      if (e.getKey() == 0) {
        continue;
      }
      List<SSTableSummary> level = e.getValue();
      for (int i = 0; i < level.size(); i++) {
        for (int j = i + 1; j < level.size(); j++) {
          assertThat(level.get(i).overlaps(level.get(j)))
              .as(
                  "%s: L%d SSTables %d and %d overlap",
                  when, e.getKey(), level.get(i).generation(), level.get(j).generation())
              .isFalse();
        }
      }
      long bytes = level.stream().mapToLong(SSTableSummary::sizeBytes).sum();
      long capacity = (long) Math.pow(FANOUT, e.getKey()) * SSTABLE_SIZE;
      // on-disk sizes include index and filter components: allow them some room
      assertThat(bytes)
          .as("%s: L%d holds %d bytes for a capacity of %d", when, e.getKey(), bytes, capacity)
          .isLessThanOrEqualTo((long) (capacity * 1.5));
    }
  }

  private static Map<Long, String> contents(Table t, int partitions) {
    Map<Long, String> out = new HashMap<>();
    for (int p = 0; p < partitions; p++) {
      for (ResultRow r : t.select().eq("p", p).execute()) {
        out.put(((long) p << 32) | r.getInt("c"), r.getString("v"));
      }
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void levelsNeverOverlapAndRespectTheFanoutAfterRandomWorkloads(long seed) {
    Random rnd = new Random(seed);
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build())) {
      Table t = db.createTable(schema(leveled()));
      Map<Long, String> expected = new HashMap<>();
      for (int round = 0; round < 30; round++) {
        for (int i = 0; i < 300; i++) {
          int p = rnd.nextInt(200);
          int c = rnd.nextInt(20);
          String v = "v" + round + "-" + i + "-" + "x".repeat(rnd.nextInt(100));
          if (rnd.nextInt(10) == 0) {
            t.delete().eq("p", p).eq("c", c).execute();
            expected.remove(((long) p << 32) | c);
          } else {
            t.insert().value("p", p).value("c", c).value("v", v).execute();
            expected.put(((long) p << 32) | c, v);
          }
        }
        t.flush();
        t.awaitCompactions();
        checkLevels(t, "seed " + seed + " round " + round);
      }
      assertThat(t.stats().sstablesPerLevel().keySet())
          .as("data reached level 1+")
          .anyMatch(l -> l >= 1);
      assertThat(contents(t, 200)).isEqualTo(expected);
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {7})
  void aFloodedLevelZeroIsBroughtBackDown(long seed) {
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build())) {
      Table t = db.createTable(schema(leveled()));
      Random rnd = new Random(seed);
      for (int f = 0; f < 40; f++) {
        for (int i = 0; i < 50; i++) {
          t.insert()
              .value("p", rnd.nextInt(500))
              .value("c", i)
              .value("v", "x".repeat(50))
              .execute();
        }
        t.flush();
      }
      assertThat(t.stats().sstablesPerLevel().get(0)).isEqualTo(40);
      t.awaitCompactions();
      assertThat(t.stats().sstablesPerLevel().getOrDefault(0, 0)).isLessThanOrEqualTo(4);
      checkLevels(t, "after the flood");
    }
  }

  /**
   * Compaction outputs are split by uncompressed bytes while levels are sized by bytes on disk, so
   * with compression the merge of small L0 SSTables can come out as several outputs that are each
   * small on disk. Cassandra's rule of keeping a merge smaller than one SSTable in L0 then merged
   * those outputs again on every later L0 compaction; now L0 goes down to the base level (the
   * bottom level while the data is small) in one compaction.
   */
  @Test
  void compressedL0SSTablesAreCompactedOnceAndLeaveL0() {
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build())) {
      Table t =
          db.createTable(
              TableSchema.builder("lcs")
                  .partitionKey("p", DataType.INT)
                  .clusteringColumn("c", DataType.INT)
                  .column("v", DataType.TEXT)
                  .compression(Compression.LZ4)
                  .compaction(leveled())
                  .build());
      for (int f = 0; f < 4; f++) {
        for (int i = 0; i < 100; i++) {
          t.insert().value("p", i).value("c", f).value("v", "x".repeat(500)).execute();
        }
        t.flush();
      }
      long onDisk = t.stats().liveDiskBytes();
      assertThat(onDisk).as("small on disk").isLessThan(SSTABLE_SIZE);
      t.awaitCompactions();
      assertThat(t.stats().completedCompactions()).isEqualTo(1);
      assertThat(t.sstables())
          .as("split by uncompressed size, all in the bottom level")
          .hasSizeGreaterThan(1)
          .allMatch(s -> s.level() == 8);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0})
  void switchingStrategiesOnLiveDataLosesNothing(int ignored) {
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build())) {
      Table t = db.createTable(schema(CompactionOptions.sizeTiered().minThreshold(2).build()));
      Random rnd = new Random(11);
      for (int f = 0; f < 12; f++) {
        for (int i = 0; i < 200; i++) {
          t.insert()
              .value("p", rnd.nextInt(100))
              .value("c", rnd.nextInt(10))
              .value("v", "v" + f + i)
              .execute();
        }
        t.flush();
      }
      t.awaitCompactions();
      Map<Long, String> before = contents(t, 100);
      t.setCompaction(leveled());
      t.awaitCompactions();
      assertThat(contents(t, 100)).isEqualTo(before);
      checkLevels(t, "after switching to leveled");
      t.setCompaction(
          CompactionOptions.timeWindow().windowUnit(ChronoUnit.HOURS).minThreshold(2).build());
      t.awaitCompactions();
      t.compact();
      assertThat(contents(t, 100)).isEqualTo(before);
      t.setCompaction(CompactionOptions.sizeTiered().build());
      t.compact();
      assertThat(contents(t, 100)).isEqualTo(before);
      assertThat(t.sstables()).hasSize(1);
    }
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).build())) {
      assertThat(db.table("lcs").schema().compaction().strategy())
          .isEqualTo(CompactionOptions.Strategy.SIZE_TIERED);
    }
  }
}
