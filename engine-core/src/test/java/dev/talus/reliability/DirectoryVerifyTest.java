package dev.talus.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.talus.CommitLogSync;
import dev.talus.CorruptDataException;
import dev.talus.CorruptSSTableException;
import dev.talus.DataType;
import dev.talus.DirectoryLockedException;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.VerifyReport;
import dev.talus.db.StorageHook;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TalusDb#verify(Path)} checks every file of a closed directory and reports every damage
 * without stopping at the first and without changing a byte; {@link Table#verify()} checks every
 * SSTable of a table and reports each damaged one.
 */
class DirectoryVerifyTest {
  @TempDir Path tmp;

  private static TalusOptions options(Path dir) {
    return TalusOptions.builder(dir).backgroundCompaction(false).chunkCacheBytes(0).build();
  }

  /** Tables a, b, c with two SSTables each. */
  private static void build(Path dir) {
    try (TalusDb db = TalusDb.open(options(dir))) {
      for (String name : List.of("a", "b", "c")) {
        Table t =
            db.createTable(
                TableSchema.builder(name)
                    .partitionKey("p", DataType.INT)
                    .clusteringColumn("c", DataType.INT)
                    .column("v", DataType.TEXT)
                    .build());
        for (int round = 0; round < 2; round++) {
          for (int i = 0; i < 100; i++) {
            t.insert().value("p", i % 7).value("c", i).value("v", "r" + round + "-" + i).execute();
          }
          t.flush();
        }
      }
    }
  }

  private static List<Path> files(Path dir, String table, String suffix) throws IOException {
    try (Stream<Path> s = Files.walk(dir.resolve("tables"))) {
      return s.filter(p -> p.getParent().getFileName().toString().startsWith(table + "-"))
          .filter(p -> p.getFileName().toString().endsWith(suffix))
          .sorted()
          .toList();
    }
  }

  private static void flip(Path f) throws IOException {
    try (RandomAccessFile r = new RandomAccessFile(f.toFile(), "rw")) {
      long at = r.length() / 2;
      r.seek(at);
      int b = r.read();
      r.seek(at);
      r.write(b ^ 0x20);
    }
  }

  private static Map<String, String> contents(Path dir) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        out.put(dir.relativize(p).toString(), Arrays.toString(Files.readAllBytes(p)));
      }
    }
    return out;
  }

  @Test
  void aCleanDirectoryChecksEverythingAndFindsNothing() {
    Path dir = tmp.resolve("db");
    build(dir);
    List<VerifyReport.Checked> seen = new ArrayList<>();
    VerifyReport report = TalusDb.verify(dir, seen::add);
    assertThat(report.clean()).isTrue();
    assertThat(report.intactSSTables()).isEqualTo(6);
    assertThat(seen).isEqualTo(report.checked());
    assertThat(report.checked())
        .extracting(VerifyReport.Checked::what)
        .contains("schema", "manifest")
        .anyMatch(w -> w.startsWith("commit-log segment"));
  }

  @Test
  void everyDamageIsReportedAndNothingIsChanged() throws IOException {
    Path dir = tmp.resolve("db");
    build(dir);
    List<Path> aData = files(dir, "a", "-Data.db");
    Path aStats = files(dir, "a", "-Stats.db").get(1);
    Path bManifest = files(dir, "b", "MANIFEST.db").get(0);
    flip(aData.get(0));
    flip(aStats);
    flip(bManifest);
    Map<String, String> before = contents(dir);

    VerifyReport report = TalusDb.verify(dir);

    assertThat(report.clean()).isFalse();
    assertThat(report.damaged())
        .extracting(VerifyReport.Checked::table, VerifyReport.Checked::file)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("a", aData.get(0)),
            org.assertj.core.groups.Tuple.tuple("a", aStats),
            org.assertj.core.groups.Tuple.tuple("b", bManifest));
    assertThat(report.damaged()).allSatisfy(d -> assertThat(d.damage()).isNotBlank());
    // table c and the commit log are checked although a and b came first
    assertThat(report.checked())
        .filteredOn(c -> "c".equals(c.table()) && c.what().startsWith("SSTable"))
        .hasSize(2)
        .allMatch(VerifyReport.Checked::intact);
    assertThat(report.intactSSTables()).isEqualTo(2);
    assertThat(contents(dir)).isEqualTo(before);
  }

  @Test
  void aDamagedSchemaIsReportedAndEveryTableDirectoryIsStillChecked() throws IOException {
    Path dir = tmp.resolve("schema");
    build(dir);
    Path schema = dir.resolve("schema.db");
    flip(schema);

    VerifyReport report = TalusDb.verify(dir);

    assertThat(report.damaged()).extracting(VerifyReport.Checked::file).containsExactly(schema);
    // without the schema the tables are found by their directories, and still checked
    assertThat(report.checked())
        .filteredOn(c -> c.what().equals("manifest"))
        .extracting(VerifyReport.Checked::table)
        .containsExactlyInAnyOrder("a", "b", "c");
    assertThat(report.intactSSTables()).isEqualTo(6);
  }

  @Test
  void aDamagedCommitLogIsReportedAndTheSSTablesAreStillChecked() throws IOException {
    Path dir = tmp.resolve("log");
    build(dir);
    TalusOptions batch = TalusOptions.builder(dir).commitLogSync(CommitLogSync.BATCH).build();
    TalusDb db = TalusDb.open(batch);
    Table t = db.table("a");
    for (int i = 0; i < 200; i++) {
      t.insert().value("p", 99).value("c", i).value("v", "logged-" + i).execute();
    }
    StorageHook.crash(TalusDb.class, db);
    Path segment;
    try (Stream<Path> s = Files.list(dir.resolve("commitlog"))) {
      // the segment holding the records (the newest may hold only its header)
      segment = s.filter(p -> p.toString().endsWith(".log")).max(DirectoryVerifyTest::bySize).get();
    }
    try (Stream<Path> s = Files.list(dir.resolve("commitlog"))) {
      s.forEach(
          p -> {
            try {
              System.out.println(p + " " + Files.size(p));
            } catch (IOException e) {
            }
          });
    }
    flip(segment);
    VerifyReport report = TalusDb.verify(dir);
    System.out.println(report);
    assertThat(report.damaged()).extracting(VerifyReport.Checked::file).containsExactly(segment);
    assertThat(report.intactSSTables()).isEqualTo(6);
  }

  private static int bySize(Path x, Path y) {
    try {
      return Long.compare(Files.size(x), Files.size(y));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  @SuppressWarnings("try") // the database is held open, not used
  void verifyRefusesAnOpenDirectory() {
    Path dir = tmp.resolve("db");
    build(dir);
    try (TalusDb db = TalusDb.open(options(dir))) {
      assertThatThrownBy(() -> TalusDb.verify(dir)).isInstanceOf(DirectoryLockedException.class);
    }
  }

  @Test
  void tableVerifyReportsEveryDamagedSSTable() throws IOException {
    Path dir = tmp.resolve("db");
    build(dir);
    List<Path> data = files(dir, "a", "-Data.db");
    flip(data.get(0));
    flip(data.get(1));
    try (TalusDb db = TalusDb.open(options(dir))) {
      Throwable e = catchThrowable(() -> db.table("a").verify());
      assertThat(e).isInstanceOf(CorruptSSTableException.class).hasMessageContaining("2 damaged");
      assertThat(e.getSuppressed()).hasSize(1);
      assertThat(e.getSuppressed()[0]).isInstanceOf(CorruptSSTableException.class);
      List<Path> reported =
          List.of(
              ((CorruptDataException) e).file(),
              ((CorruptDataException) e.getSuppressed()[0]).file());
      assertThat(reported).containsExactlyInAnyOrderElementsOf(data);
    }
  }
}
