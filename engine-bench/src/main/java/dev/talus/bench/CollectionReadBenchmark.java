package dev.talus.bench;

import dev.talus.CollectionThresholds;
import dev.talus.DataType;
import dev.talus.ResultRow;
import dev.talus.ResultSet;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The same 100 tags per video, 1,000 videos, read from SSTables (flushed, compacted) two ways: one
 * row holding a non-frozen {@code set<text>} of 100 elements ({@code setOf100}), and 100 clustering
 * rows {@code (video_id, tag)} of one partition ({@code clusteringRows100}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class CollectionReadBenchmark {
  static final int VIDEOS = 1_000;
  static final int TAGS = 100;

  private Path dir;
  private TalusDb db;
  private Table asSet;
  private Table asRows;

  @Setup(Level.Trial)
  public void open() {
    dir = BenchDirs.create("collection-read-");
    db =
        TalusDb.open(
            TalusOptions.builder(dir)
                .memtableSpaceBytes(256L << 20)
                .collectionThresholds(CollectionThresholds.OFF)
                .build());
    asSet =
        db.createTable(
            TableSchema.builder("tags_as_set")
                .partitionKey("video_id", DataType.INT)
                .column("tags", DataType.set(DataType.TEXT))
                .build());
    asRows =
        db.createTable(
            TableSchema.builder("tags_as_rows")
                .partitionKey("video_id", DataType.INT)
                .clusteringColumn("tag", DataType.TEXT)
                .build());
    for (int v = 0; v < VIDEOS; v++) {
      Set<String> tags = new LinkedHashSet<>();
      for (int i = 0; i < TAGS; i++) {
        tags.add("tag-" + v + "-" + i);
        asRows.insert().value("video_id", v).value("tag", "tag-" + v + "-" + i).execute();
      }
      asSet.update().where("video_id", v).add("tags", tags).execute();
    }
    for (Table t : new Table[] {asSet, asRows}) {
      t.flush();
      t.compact();
    }
    if (((Set<?>) setOf100().get("tags")).size() != TAGS || clusteringRows100().size() != TAGS) {
      throw new IllegalStateException("the fixture does not hold 100 tags per video");
    }
  }

  @TearDown(Level.Trial)
  public void close() {
    try {
      db.close();
    } finally {
      BenchDirs.delete(dir);
    }
  }

  @Benchmark
  public ResultRow setOf100() {
    int v = ThreadLocalRandom.current().nextInt(VIDEOS);
    return asSet.select().eq("video_id", v).one().orElseThrow();
  }

  @Benchmark
  public ResultSet clusteringRows100() {
    int v = ThreadLocalRandom.current().nextInt(VIDEOS);
    return asRows.select().eq("video_id", v).execute();
  }
}
