package dev.talus.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.DataType;
import dev.talus.IndexDef;
import dev.talus.TableSchema;
import dev.talus.data.Cell;
import dev.talus.data.DeletionTime;
import dev.talus.data.LivenessInfo;
import dev.talus.data.Row;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import dev.talus.memtable.RetainedHeap;
import dev.talus.schema.KeyCodec;
import dev.talus.sstable.IndexTermsWriter;
import dev.talus.sstable.SSTableDescriptor;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bound on the heap of the index term collector ({@link IndexCollector}, {@code
 * indexWriteBufferBytes}): fed seeded random rows for four indexes (a nearly unique {@code bigint},
 * a low-cardinality text, a set's values, a map's keys), the terms it holds never exceed the budget
 * after a term is added; what it counts is the heap its term maps hold, walked object by object
 * with the running JVM's layout ({@link RetainedHeap}); and the dictionaries it writes with spills
 * are byte for byte those written without a bound. Prints its seeds.
 */
class IndexWriteBufferTest {
  private static final long BUDGET = 64 << 10;
  @TempDir Path dir;

  private static TableSchema schema() {
    return TableSchema.builder("t")
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT)
        .column("k", DataType.BIGINT)
        .column("a", DataType.TEXT)
        .column("tags", DataType.set(DataType.TEXT))
        .column("m", DataType.map(DataType.TEXT, DataType.INT))
        .build();
  }

  private static List<IndexDef> indexes() {
    return List.of(
        IndexDef.sai("i_k", "k"),
        IndexDef.sai("i_a", "a"),
        IndexDef.sai("i_tags", "tags").withTarget(IndexDef.Target.VALUES),
        IndexDef.sai("i_m", "m").withTarget(IndexDef.Target.KEYS));
  }

  /** One random row of partition {@code p}: a near-unique k, a of 50 values, a few elements. */
  private static Row row(KeyCodec keys, Random rnd, int c) {
    long ts = 1_000 + c;
    List<Cell> cells = new ArrayList<>();
    int k = keys.regularId("k");
    cells.add(Cell.live(k, ts, keys.regularCodec(k).serialize(rnd.nextLong())));
    int a = keys.regularId("a");
    cells.add(Cell.live(a, ts, keys.regularCodec(a).serialize("a" + rnd.nextInt(50))));
    int tags = keys.regularId("tags");
    java.util.TreeSet<byte[]> paths = new java.util.TreeSet<>(Arrays::compareUnsigned);
    for (int i = rnd.nextInt(4); i > 0; i--) {
      paths.add(
          IndexTerms.of(
              IndexTerms.elementCodec(DataType.set(DataType.TEXT), false),
              "t" + rnd.nextInt(2_000)));
    }
    paths.forEach(path -> cells.add(Cell.element(tags, path, ts, 0, 0, new byte[0])));
    int m = keys.regularId("m");
    byte[] key =
        IndexTerms.of(
            IndexTerms.elementCodec(DataType.map(DataType.TEXT, DataType.INT), true),
            "key" + rnd.nextInt(500));
    cells.add(Cell.element(m, key, ts, 0, 0, intBytes(c)));
    return new Row(
        keys.row(List.of(c)), LivenessInfo.of(ts), DeletionTime.LIVE, cells.toArray(Cell[]::new));
  }

  private static byte[] intBytes(int v) {
    return java.nio.ByteBuffer.allocate(4).putInt(v).array();
  }

  @Test
  void theTermsHeldStayWithinTheBudgetAndTheCountIsTheHeapTheyHold() throws Exception {
    StorageFs fs = new NioStorageFs();
    KeyCodec keys = new KeyCodec(schema());
    for (long seed : new long[] {3, 77}) {
      System.out.println("IndexWriteBufferTest seed " + seed);
      Path bounded = Files.createDirectories(dir.resolve("bounded" + seed));
      Path unbounded = Files.createDirectories(dir.resolve("unbounded" + seed));
      int spilled = 0;
      try (IndexCollector small =
              new IndexCollector(
                  fs, new SSTableDescriptor(bounded, 7), keys, indexes(), true, BUDGET);
          IndexCollector large =
              new IndexCollector(
                  fs, new SSTableDescriptor(unbounded, 7), keys, indexes(), true, Long.MAX_VALUE)) {
        Random rnd = new Random(seed);
        Random same = new Random(seed);
        for (int p = 0; p < 600; p++) {
          byte[] pk = keys.partitionKey(new Object[] {p}).bytes();
          small.startPartition(pk);
          large.startPartition(pk);
          for (int c = 0; c < 20; c++) {
            small.row(row(keys, rnd, c));
            large.row(row(keys, same, c));
            assertThat(small.heldBytes())
                .as("seed %d, row %d/%d", seed, p, c)
                .isLessThanOrEqualTo(BUDGET);
          }
          if (p % 50 == 0) {
            assertThat(walked(small))
                .as("seed %d, after partition %d", seed, p)
                .isEqualTo(small.heldBytes());
            spilled = Math.max(spilled, runs(small));
          }
        }
        assertThat(walked(large)).isEqualTo(large.heldBytes());
        assertThat(large.heldBytes())
            .as("the unbounded collector holds more")
            .isGreaterThan(8 * BUDGET);
        assertThat(spilled).as("seed %d: the bounded collector spilled runs", seed).isPositive();
        small.finish();
        large.finish();
      }
      assertThat(names(bounded)).as("no run or scratch file is left").isEqualTo(names(unbounded));
      for (String name : names(unbounded)) {
        assertThat(Files.readAllBytes(bounded.resolve(name)))
            .as("seed %d: %s", seed, name)
            .isEqualTo(Files.readAllBytes(unbounded.resolve(name)));
      }
    }
  }

  /** The heap the collector's term maps hold, walked: every map less an empty map. */
  private static long walked(IndexCollector c) throws ReflectiveOperationException {
    RetainedHeap heap = new RetainedHeap();
    long empty = heap.measure(new TreeMap<byte[], int[]>(Arrays::compareUnsigned)).bytes();
    long total = 0;
    for (IndexTermsWriter w : writers(c)) {
      Field f = IndexTermsWriter.class.getDeclaredField("terms");
      f.setAccessible(true);
      total += heap.measure(f.get(w)).bytes() - empty;
    }
    return total;
  }

  private static int runs(IndexCollector c) throws ReflectiveOperationException {
    int runs = 0;
    for (IndexTermsWriter w : writers(c)) {
      runs += w.runCount();
    }
    return runs;
  }

  private static IndexTermsWriter[] writers(IndexCollector c) throws ReflectiveOperationException {
    Field f = IndexCollector.class.getDeclaredField("writers");
    f.setAccessible(true);
    return (IndexTermsWriter[]) f.get(c);
  }

  private static List<String> names(Path d) throws IOException {
    try (Stream<Path> files = Files.list(d)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void aTermInEveryRowIsSpilledAsItGrowsAndMergedWhole() throws Exception {
    StorageFs fs = new NioStorageFs();
    TableSchema s =
        TableSchema.builder("one")
            .partitionKey("p", DataType.INT)
            .clusteringColumn("c", DataType.INT)
            .column("a", DataType.TEXT)
            .build();
    KeyCodec keys = new KeyCodec(s);
    int a = keys.regularId("a");
    Path d = Files.createDirectories(dir.resolve("one"));
    try (IndexCollector c =
        new IndexCollector(
            fs, new SSTableDescriptor(d, 9), keys, List.of(IndexDef.sai("i_a", "a")), true, 4096)) {
      c.startPartition(keys.partitionKey(new Object[] {1}).bytes());
      for (int i = 0; i < 20_000; i++) {
        Row r =
            new Row(
                keys.row(List.of(i)),
                LivenessInfo.of(1),
                DeletionTime.LIVE,
                new Cell[] {Cell.live(a, 1, keys.regularCodec(a).serialize("same"))});
        c.row(r);
        assertThat(c.heldBytes()).isLessThanOrEqualTo(4096);
      }
      c.finish();
    }
    try (var reader =
        dev.talus.sstable.IndexTermsReader.open(
            fs, SaiFiles.tmp(SaiFiles.terms(new SSTableDescriptor(d, 9), "i_a")), 9)) {
      assertThat(reader.termCount()).isEqualTo(1);
      assertThat(reader.range(null, true, null, true).getCardinality()).isEqualTo(20_000);
    }
    assertThat(names(d)).noneMatch(n -> n.contains(".run") || n.contains(".blocks"));
  }

  @Test
  void aBufferBelowOneKibibyteIsRefused() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> dev.talus.TalusOptions.builder(dir).indexWriteBufferBytes(1023).build())
        .isInstanceOf(dev.talus.InvalidSchemaException.class)
        .hasMessage("indexWriteBufferBytes must be at least 1024 (1 KiB), got 1023");
    assertThat(dev.talus.TalusOptions.builder(dir).build().indexWriteBufferBytes())
        .isEqualTo(32L << 20);
  }
}
