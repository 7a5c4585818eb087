package dev.talus.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.talus.CommitLogSync;
import dev.talus.CompactionOptions;
import dev.talus.CorruptCommitLogException;
import dev.talus.CorruptDataException;
import dev.talus.CorruptSSTableException;
import dev.talus.DataType;
import dev.talus.SSTableSummary;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.db.StorageHook;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every public call that reaches damaged stored bytes throws a public {@link CorruptDataException}
 * subclass naming the damaged file and an offset inside it — never the file layer's internal
 * exception: select (single partition, IN, reversed, sliced and paged, one()), dump, verify, every
 * kind of compaction, open (SSTable components, the manifest, the schema, the commit log), while
 * stats and SSTable inspection, which read no data, keep working; the offline {@link
 * TalusDb#verify(Path)} reports the damage.
 */
class PublicCallsMapCorruptionTest {
  @TempDir Path tmp;

  private static TableSchema schema() {
    return TableSchema.builder("t")
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT)
        .column("v", DataType.TEXT)
        .compaction(CompactionOptions.sizeTiered().minThreshold(2).build())
        .build();
  }

  private static TalusOptions options(Path dir) {
    return TalusOptions.builder(dir).backgroundCompaction(false).chunkCacheBytes(0).build();
  }

  /** Two SSTables of one partition each holding 300 rows; the database is closed. */
  private static Path build(Path dir) {
    try (TalusDb db = TalusDb.open(options(dir))) {
      Table t = db.createTable(schema());
      for (int round = 0; round < 2; round++) {
        for (int c = 0; c < 300; c++) {
          t.insert().value("p", 1).value("c", c).value("v", "v-" + round + "-" + c).execute();
        }
        t.flush();
      }
    }
    return dir;
  }

  private static Path file(Path dir, String suffix) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().findFirst().get();
    }
  }

  /** Flips 8 bytes in the middle of {@code f}: inside a chunk, never its header or footer. */
  private static void damage(Path f) throws IOException {
    try (RandomAccessFile r = new RandomAccessFile(f.toFile(), "rw")) {
      long mid = r.length() / 2;
      for (int i = 0; i < 8; i++) {
        r.seek(mid + i);
        int b = r.read();
        r.seek(mid + i);
        r.write(b ^ 0x5A);
      }
    }
  }

  private static void assertNames(
      Throwable thrown, Class<? extends CorruptDataException> type, Path damaged)
      throws IOException {
    assertThat(thrown).isInstanceOf(type);
    CorruptDataException e = (CorruptDataException) thrown;
    assertThat(e.file()).isEqualTo(damaged);
    assertThat(e.offset()).isBetween(0L, Files.size(damaged));
    assertThat(e.getMessage()).contains(damaged.getFileName().toString());
  }

  @Test
  void everyCallOnATableWithADamagedDataFileThrowsCorruptSSTableException() throws IOException {
    Path dir = build(tmp.resolve("data"));
    Path data = file(dir, "-Data.db");
    damage(data);
    List<Consumer<Table>> calls =
        List.of(
            t -> t.select().eq("p", 1).execute(),
            t -> t.select().in("p", 1, 2).execute(),
            t -> t.select().eq("p", 1).reversed().limit(5).execute(),
            t -> t.select().eq("p", 1).ge("c", 150).pageSize(10).execute(),
            // a slice: a named row complete in the newer SSTable would not read the older one
            t -> t.select().eq("p", 1).ge("c", 150).one(),
            t -> t.dump(1),
            Table::verify,
            Table::compact,
            t -> t.compact(t.sstables().stream().map(SSTableSummary::generation).toList()),
            Table::runNextCompaction,
            Table::awaitCompactions);
    for (Consumer<Table> call : calls) {
      try (TalusDb db = TalusDb.open(options(dir))) {
        Table t = db.table("t");
        assertNames(catchThrowable(() -> call.accept(t)), CorruptSSTableException.class, data);
        // reading no data, these keep working
        assertThatCode(t::stats).doesNotThrowAnyException();
        assertThatCode(t::sstables).doesNotThrowAnyException();
        assertThatCode(t::histograms).doesNotThrowAnyException();
      }
    }
  }

  @Test
  void openingWithADamagedSSTableComponentThrowsCorruptSSTableException() throws IOException {
    Path dir = build(tmp.resolve("stats"));
    Path stats = file(dir, "-Stats.db");
    damage(stats);
    assertNames(
        catchThrowable(() -> TalusDb.open(options(dir))), CorruptSSTableException.class, stats);
  }

  @Test
  void openingWithADamagedManifestOrSchemaThrowsCorruptDataException() throws IOException {
    Path dir = build(tmp.resolve("manifest"));
    Path manifest = file(dir, "MANIFEST.db");
    try (RandomAccessFile r = new RandomAccessFile(manifest.toFile(), "rw")) {
      r.seek(0);
      r.write(r.read() ^ 0xFF); // the header's magic
    }
    Throwable e = catchThrowable(() -> TalusDb.open(options(dir)));
    assertNames(e, CorruptDataException.class, manifest);
    assertThat(e).isNotInstanceOf(CorruptSSTableException.class);

    Path dir2 = build(tmp.resolve("schema"));
    Path schemaFile = dir2.resolve("schema.db");
    damage(schemaFile);
    e = catchThrowable(() -> TalusDb.open(options(dir2)));
    assertNames(e, CorruptDataException.class, schemaFile);
    assertThat(e).isNotInstanceOf(CorruptSSTableException.class);
  }

  @Test
  void openingWithADamagedCommitLogThrowsCorruptCommitLogException() throws IOException {
    Path dir = tmp.resolve("log");
    // BATCH: every acknowledged record is followed by a sync marker, so damage in the middle of
    // the segment lies before its last marker: corruption, not a torn tail
    TalusOptions batch = TalusOptions.builder(dir).commitLogSync(CommitLogSync.BATCH).build();
    TalusDb db = TalusDb.open(batch);
    Table t = db.createTable(schema());
    for (int c = 0; c < 200; c++) {
      t.insert().value("p", 2).value("c", c).value("v", "logged-" + c).execute();
    }
    StorageHook.crash(TalusDb.class, db); // unflushed: the rows live in the commit log only
    Path segment = file(dir.resolve("commitlog"), ".log");
    damage(segment);
    Throwable e = catchThrowable(() -> TalusDb.open(batch));
    assertNames(e, CorruptCommitLogException.class, segment);
    // the way out is named once, by its public option
    assertThat(e.getMessage().split("skipCorruptCommitLogRecords", -1)).hasSize(2);
    assertThat(e.getMessage()).doesNotContain("skipCorruptRecords");
  }

  @Test
  void offlineVerifyReportsDamageInsteadOfThrowingInternalTypes() throws IOException {
    Path dir = build(tmp.resolve("offline"));
    Path data = file(dir, "-Data.db");
    damage(data);
    var report = TalusDb.verify(dir);
    assertThat(report.damaged()).extracting(c -> c.file()).containsExactly(data);
  }
}
