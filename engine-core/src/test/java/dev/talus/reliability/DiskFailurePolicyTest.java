package dev.talus.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.CorruptDataException;
import dev.talus.CorruptSSTableException;
import dev.talus.DataType;
import dev.talus.DiskFailurePolicy;
import dev.talus.ResultRow;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The disk failure policy: by default a corrupt SSTable makes every read touching it (and verify)
 * fail loudly; with {@link DiskFailurePolicy#QUARANTINE} it leaves the live set, its files move to
 * {@code quarantine/}, and reads go on without it — also across a reopen.
 */
class DiskFailurePolicyTest {
  @TempDir Path tmp;

  static TalusOptions options(Path dir, DiskFailurePolicy policy) {
    return TalusOptions.builder(dir)
        .backgroundCompaction(false)
        .chunkCacheBytes(0)
        .diskFailurePolicy(policy)
        .build();
  }

  /** Rows 0..49 in the older SSTable, 50..99 in the newer one; returns the newer generation. */
  private static long build(Path dir) {
    try (TalusDb db = TalusDb.open(options(dir, DiskFailurePolicy.FAIL))) {
      Table t =
          db.createTable(
              TableSchema.builder("q")
                  .partitionKey("p", DataType.INT)
                  .clusteringColumn("c", DataType.INT)
                  .column("v", DataType.TEXT)
                  .build());
      for (int i = 0; i < 100; i++) {
        t.insert().value("p", 1).value("c", i).value("v", "value-" + i + "-".repeat(200)).execute();
        if (i == 49 || i == 99) {
          t.flush();
        }
      }
      assertThat(t.sstables()).hasSize(2);
      return t.sstables().stream().mapToLong(s -> s.generation()).max().orElseThrow();
    }
  }

  private static Path file(Path dir, long gen, String component) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.getFileName().toString().equals("nb-" + gen + "-" + component))
          .filter(p -> !p.getParent().getFileName().toString().equals("quarantine"))
          .findFirst()
          .orElseThrow();
    }
  }

  /** Flips bytes in the middle of a file: past its header, inside its checksummed body. */
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

  private static List<Integer> rows(Table t) {
    List<Integer> out = new ArrayList<>();
    for (ResultRow r : t.select().eq("p", 1).execute()) {
      out.add(r.getInt("c"));
    }
    return out;
  }

  @Test
  void byDefaultACorruptDataFileFailsReadsAndVerifyLoudly() throws IOException {
    Path dir = tmp.resolve("fail");
    long newer = build(dir);
    Path data = file(dir, newer, "Data.db");
    damage(data);
    try (TalusDb db = TalusDb.open(options(dir, DiskFailurePolicy.FAIL))) {
      Table t = db.table("q");
      assertThatThrownBy(() -> rows(t))
          .isInstanceOf(CorruptSSTableException.class)
          .satisfies(e -> assertThat(((CorruptDataException) e).file()).isEqualTo(data));
      assertThatThrownBy(t::verify)
          .isInstanceOf(CorruptSSTableException.class)
          .hasMessageContaining(data.getFileName().toString());
      assertThat(t.quarantinedSSTables()).isZero();
      assertThat(t.sstables()).hasSize(2);
    }
    assertThat(Files.exists(data)).isTrue();
  }

  @Test
  void quarantineRemovesTheCorruptSSTableFoundByAReadAndReadsGoOn() throws IOException {
    Path dir = tmp.resolve("read");
    long newer = build(dir);
    Path data = file(dir, newer, "Data.db");
    damage(data);
    try (TalusDb db = TalusDb.open(options(dir, DiskFailurePolicy.QUARANTINE))) {
      Table t = db.table("q");
      List<Integer> expectedOlder = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        expectedOlder.add(i);
      }
      long readsBefore = t.stats().reads();
      assertThat(rows(t)).isEqualTo(expectedOlder); // the newer SSTable's rows are gone
      assertThat(t.stats().reads())
          .as("the read retried without the quarantined SSTable counts once")
          .isEqualTo(readsBefore + 1);
      assertThat(t.quarantinedSSTables()).isEqualTo(1);
      assertThat(t.sstables()).hasSize(1);
      assertThat(t.verify()).isEqualTo(1);
      writesAndFlushesGoOn(t);
    }
    Path quarantine = data.getParent().resolve("quarantine");
    assertThat(quarantine.resolve(data.getFileName())).exists();
    assertThat(data).doesNotExist();
    try (TalusDb db = TalusDb.open(options(dir, DiskFailurePolicy.FAIL))) {
      Table t = db.table("q");
      assertThat(t.verify()).isEqualTo(1); // the older one compacted with the one written later
      assertThat(rows(t)).hasSize(51);
    }
  }

  @Test
  void quarantineByVerifyChecksTheRestAndCountsWhatItChecked() throws IOException {
    Path dir = tmp.resolve("verify");
    long newer = build(dir);
    damage(file(dir, newer, "Data.db"));
    try (TalusDb db = TalusDb.open(options(dir, DiskFailurePolicy.QUARANTINE))) {
      Table t = db.table("q");
      assertThat(t.verify()).isEqualTo(1);
      assertThat(t.quarantinedSSTables()).isEqualTo(1);
      assertThat(rows(t)).hasSize(50);
    }
  }

  @Test
  void aComponentFoundCorruptAtOpenIsQuarantinedInsteadOfFailingTheOpen() throws IOException {
    Path dir = tmp.resolve("open");
    long newer = build(dir);
    damage(file(dir, newer, "Stats.db"));
    assertThatThrownBy(() -> TalusDb.open(options(dir, DiskFailurePolicy.FAIL)).close())
        .isInstanceOf(CorruptDataException.class)
        .hasMessageContaining("nb-" + newer + "-Stats.db");
    try (TalusDb db = TalusDb.open(options(dir, DiskFailurePolicy.QUARANTINE))) {
      Table t = db.table("q");
      assertThat(t.quarantinedSSTables()).isEqualTo(1);
      // Quarantined before replay: the commit log still holds the newer SSTable's rows, and
      // replay now starts after the older SSTable, so they come back from the log.
      assertThat(rows(t)).hasSize(100);
      assertThat(t.verify()).isPositive(); // the older SSTable, and any flush of the replay
    }
    try (TalusDb db = TalusDb.open(options(dir, DiskFailurePolicy.FAIL))) {
      assertThat(rows(db.table("q"))).hasSize(100);
    }
  }

  private static void writesAndFlushesGoOn(Table t) {
    t.insert().value("p", 1).value("c", 1000).value("v", "after").execute();
    t.flush();
    t.compact();
    assertThat(rows(t)).hasSize(51).contains(1000);
  }
}
