package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshots through the public API: hard links of the live SSTables plus the schema, kept when
 * compaction, truncate or drop delete the live files, listed with sizes, cleared, restored with
 * {@link Table#importSSTables}, and taken automatically before a drop or truncate with {@link
 * TalusOptions#autoSnapshot()}.
 */
class SnapshotTest {
  @TempDir Path dir;

  private TalusDb open() {
    return open(false);
  }

  private TalusDb open(boolean autoSnapshot) {
    return TalusDb.open(
        TalusOptions.builder(dir)
            .clock(ManualClock.startingAtDefault())
            .backgroundCompaction(false)
            .autoSnapshot(autoSnapshot)
            .build());
  }

  private static TableSchema schema(String name) {
    return TableSchema.builder(name)
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT)
        .column("v", DataType.TEXT)
        .build();
  }

  private static void write(Table t, int from, int to, String v) {
    for (int i = from; i < to; i++) {
      t.insert().value("p", i % 5).value("c", i).value("v", v).execute();
    }
  }

  /** Every row as "c=v", by clustering. */
  private static List<String> rows(Table t) {
    List<String> out = new ArrayList<>();
    for (ResultRow r : t.select().execute()) {
      out.add(r.getInt("c") + "=" + r.getString("v"));
    }
    out.sort(null);
    return out;
  }

  private static List<String> expected(int from, int to, String v) {
    List<String> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      out.add(i + "=" + v);
    }
    out.sort(null);
    return out;
  }

  private static List<String> names(Path d) throws IOException {
    try (Stream<Path> s = Files.list(d)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void aSnapshotHardLinksEveryLiveComponentAndKeepsThemAfterCompaction() throws IOException {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema("t"));
      write(t, 0, 50, "a");
      t.flush();
      write(t, 50, 100, "a"); // in the memtable: the snapshot flushes it first
      SnapshotDetails s = t.snapshot("before");
      Path tdir = dir.resolve("tables").resolve("t-1");
      assertThat(s.directory()).isEqualTo(tdir.resolve("snapshots").resolve("before"));
      assertThat(s.name()).isEqualTo("before");
      assertThat(s.keyspace()).isEqualTo("talus");
      assertThat(s.table()).isEqualTo("t");
      assertThat(s.createdAt()).isEqualTo(db.clock().instant());
      List<String> files = names(s.directory());
      assertThat(files).contains("schema.db", "manifest.json");
      assertThat(t.sstables()).hasSize(2);
      for (SSTableSummary sst : t.sstables()) {
        for (String c :
            List.of(
                "Data.db", "CompressionInfo.db", "Index.db", "Filter.db", "Stats.db", "TOC.txt")) {
          String name = "nb-" + sst.generation() + "-" + c;
          assertThat(files).contains(name);
          assertThat(Files.isSameFile(tdir.resolve(name), s.directory().resolve(name))).isTrue();
          assertThat(Files.getAttribute(tdir.resolve(name), "unix:nlink")).isEqualTo(2);
        }
      }
      assertThat(files).hasSize(2 * 6 + 2);
      long shared = s.sizeOnDiskBytes() - s.trueSizeBytes();
      assertThat(shared).isEqualTo(t.stats().liveDiskBytes());
      assertThat(new String(Files.readAllBytes(s.directory().resolve("manifest.json"))))
          .contains("\"files\"", "nb-1-Data.db", "\"created_at\"");

      t.compact();
      for (String f : files) {
        assertThat(s.directory().resolve(f)).exists();
      }
      SnapshotDetails after = db.snapshots().get(0);
      assertThat(after.sizeOnDiskBytes()).isEqualTo(s.sizeOnDiskBytes());
      assertThat(after.trueSizeBytes()).isEqualTo(after.sizeOnDiskBytes());
      assertThatThrownBy(() -> t.snapshot("before"))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("snapshot before of table t already exists");
      assertThatThrownBy(() -> t.snapshot("../x"))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("is not valid");
    }
  }

  @Test
  void aSnapshotRestoresTheDataATruncateRemoved() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema("t"));
      write(t, 0, 40, "old");
      SnapshotDetails s = t.snapshot("keep");
      write(t, 40, 60, "later"); // after the snapshot: not in it
      t.truncate();
      assertThat(rows(t)).isEmpty();
      write(t, 100, 110, "new");
      assertThat(t.importSSTables(s.directory())).isEqualTo(1);
      List<String> want = new ArrayList<>(expected(0, 40, "old"));
      want.addAll(expected(100, 110, "new"));
      want.sort(null);
      assertThat(rows(t)).isEqualTo(want);
      assertThat(s.directory().resolve("nb-1-Data.db")).exists(); // the source is left as it was
    }
    try (TalusDb db = open()) { // the import is in the manifest; the snapshot survives the reopen
      Table t = db.table("t");
      assertThat(rows(t)).hasSize(50);
      assertThat(db.snapshots()).extracting(SnapshotDetails::name).containsExactly("keep");
      t.compact();
      assertThat(rows(t)).hasSize(50);
    }
  }

  @Test
  void aSnapshotOfADroppedTableRestoresIntoTheTableCreatedAgain() {
    Path snapshot;
    try (TalusDb db = open()) {
      Table t = db.createTable(schema("t"));
      write(t, 0, 30, "old");
      snapshot = db.snapshot("nightly").get(0).directory();
      db.dropTable("t");
    }
    try (TalusDb db = open()) {
      assertThat(db.snapshots()).hasSize(1);
      assertThat(snapshot.resolve("schema.db")).exists();
      Table t = db.createTable(schema("t"));
      assertThat(rows(t)).isEmpty();
      t.importSSTables(snapshot);
      assertThat(rows(t)).isEqualTo(expected(0, 30, "old"));
    }
  }

  @Test
  void dbSnapshotCoversEveryTableAndClearRemovesThemAndDroppedTablesDirectories()
      throws IOException {
    try (TalusDb db = open()) {
      Table a = db.createTable(schema("a"));
      Table b = db.createTable(schema("b"));
      write(a, 0, 10, "x");
      write(b, 0, 10, "y");
      assertThat(db.snapshot("one")).extracting(SnapshotDetails::table).containsExactly("a", "b");
      b.snapshot("two");
      assertThatThrownBy(() -> db.snapshot("two"))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("snapshot two already exists");
      assertThat(names(dir.resolve("tables").resolve("a-1").resolve("snapshots")))
          .containsExactly("one"); // the refused snapshot took nothing
      db.dropTable("b");
      assertThat(db.snapshots())
          .extracting(x -> x.name() + ":" + x.table())
          .containsExactly("one:a", "one:b", "two:b");
      assertThat(db.clearSnapshot("one")).isEqualTo(2);
      assertThat(db.clearSnapshot("one")).isZero();
      assertThat(dir.resolve("tables").resolve("a-1").resolve("snapshots")).doesNotExist();
      assertThat(dir.resolve("tables").resolve("b-2")).exists(); // still holds snapshot two
      assertThat(db.clearSnapshots()).isEqualTo(1);
      assertThat(names(dir.resolve("tables"))).containsExactly("a-1");
      assertThat(db.snapshots()).isEmpty();
      assertThat(rows(a)).hasSize(10);
    }
  }

  @Test
  void autoSnapshotIsTakenBeforeDropAndTruncateOnlyWhenEnabled() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema("t"));
      write(t, 0, 10, "x");
      t.truncate();
      db.dropTable("t");
      assertThat(db.snapshots()).isEmpty();
    }
    try (TalusDb db = open(true)) {
      Table t = db.createTable(schema("t"));
      write(t, 0, 10, "x"); // in the memtable only: the snapshot flushes first
      long ms = db.clock().millis();
      t.truncate();
      write(t, 20, 25, "y");
      db.dropTable("t");
      List<SnapshotDetails> all = db.snapshots();
      assertThat(all)
          .extracting(SnapshotDetails::name)
          .containsExactly("dropped-" + ms + "-t", "truncated-" + ms + "-t");
      Table again = db.createTable(schema("t"));
      again.importSSTables(all.get(1).directory());
      again.importSSTables(all.get(0).directory());
      List<String> want = new ArrayList<>(expected(0, 10, "x"));
      want.addAll(expected(20, 25, "y"));
      want.sort(null);
      assertThat(rows(again)).isEqualTo(want);
    }
  }

  @Test
  void importRefusesAnotherTablesSnapshotAndDirectoriesWithoutASchema() throws IOException {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema("t"));
      write(t, 0, 10, "x");
      Path s = t.snapshot("s").directory();
      Table other =
          db.createTable(
              TableSchema.builder("other")
                  .partitionKey("p", DataType.INT)
                  .clusteringColumn("c", DataType.INT)
                  .column("v", DataType.INT)
                  .build());
      assertThatThrownBy(() -> other.importSSTables(s))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("column v")
          .hasMessageContaining("cannot be imported");
      Table textKey =
          db.createTable(
              TableSchema.builder("k")
                  .partitionKey("p", DataType.TEXT)
                  .clusteringColumn("c", DataType.INT)
                  .column("v", DataType.TEXT)
                  .build());
      assertThatThrownBy(() -> textKey.importSSTables(s))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("primary key");
      Path bare = dir.resolve("bare");
      Files.createDirectories(bare);
      Files.createLink(bare.resolve("nb-1-Data.db"), s.resolve("nb-1-Data.db"));
      assertThatThrownBy(() -> t.importSSTables(bare))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("no schema.db");
      assertThat(other.sstables()).isEmpty();
      assertThat(textKey.sstables()).isEmpty();
    }
  }

  @Test
  void aDamagedSnapshotSSTableIsRefusedAndNothingIsImported() throws IOException {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema("t"));
      write(t, 0, 10, "x");
      t.flush();
      write(t, 10, 20, "x");
      Path s = t.snapshot("s").directory();
      t.truncate(); // the snapshot's files are the only names now: damage them alone
      Path data = s.resolve("nb-2-Data.db");
      try (FileChannel ch =
          FileChannel.open(data, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1);
        long at = ch.size() / 2;
        ch.read(b, at);
        b.put(0, (byte) (b.get(0) ^ 0x5a));
        ch.write(b.flip(), at);
      }
      assertThatThrownBy(() -> t.importSSTables(s)).isInstanceOf(CorruptSSTableException.class);
      assertThat(t.sstables()).isEmpty();
      assertThat(rows(t)).isEmpty();
      try (Stream<Path> files = Files.list(dir.resolve("tables").resolve("t-2"))) {
        assertThat(files.filter(p -> p.getFileName().toString().startsWith("nb-"))).isEmpty();
      }
    }
  }

  @Test
  void aSnapshotOfAnotherDataDirectoryImportsAndReplayAfterwardsLosesNothing(@TempDir Path other) {
    Path snapshot;
    TalusOptions.Builder ahead =
        TalusOptions.builder(other)
            .clock(ManualClock.startingAtDefault())
            .backgroundCompaction(false);
    for (int i = 0; i < 3; i++) { // every open starts a new commit-log segment: that log is ahead
      try (TalusDb db = TalusDb.open(ahead.build())) {
        db.createTableIfNotExists(schema("t"));
      }
    }
    try (TalusDb db = TalusDb.open(ahead.build())) {
      Table t = db.table("t");
      write(t, 0, 10, "x");
      snapshot = t.snapshot("s").directory();
    }
    try (TalusDb db = open()) {
      Table t = db.createTable(schema("t"));
      write(t, 20, 30, "y"); // unflushed before the import, which flushes nothing of its own
      t.importSSTables(snapshot);
      write(t, 30, 40, "z"); // unflushed: only the commit log holds these at close
    }
    try (TalusDb db = open()) { // the replay brings back every write, none hidden by the import
      List<String> want = new ArrayList<>(expected(0, 10, "x"));
      want.addAll(expected(20, 30, "y"));
      want.addAll(expected(30, 40, "z"));
      want.sort(null);
      assertThat(rows(db.table("t"))).isEqualTo(want);
    }
  }

  @Test
  void importKeepsWriteTimesAndTtls() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema("t"));
      t.insert()
          .value("p", 1)
          .value("c", 1)
          .value("v", "ttl")
          .ttl(java.time.Duration.ofSeconds(100))
          .execute();
      t.insert().value("p", 1).value("c", 2).value("v", "old").timestamp(5).execute();
      Path s = t.snapshot("s").directory();
      t.truncate();
      t.importSSTables(s);
      t.insert().value("p", 1).value("c", 2).value("v", "older").timestamp(4).execute();
      assertThat(rows(t)).containsExactly("1=ttl", "2=old");
      ((ManualClock) db.clock()).advance(java.time.Duration.ofSeconds(101));
      assertThat(rows(t)).containsExactly("2=old");
    }
  }

  @Test
  void copyTableCopiesEveryCellWithItsWriteTimeAndTtlIntoATableOfTheSameColumns() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema("t"));
      write(t, 0, 20, "a");
      t.flush();
      t.insert()
          .value("p", 1)
          .value("c", 100)
          .value("v", "ttl")
          .ttl(java.time.Duration.ofSeconds(50))
          .execute();
      t.delete().eq("p", 2).eq("c", 2).execute(); // a tombstone: copied too
      db.createKeyspace(KeyspaceSchema.builder("backup").build());
      Table copy = db.createTable(schema("t").withKeyspace("backup"));
      Table empty = db.createTable(schema("e"));
      assertThat(db.copyTable("e", "backup.t")).isZero(); // nothing stored yet
      assertThat(db.copyTable("t", "backup.t")).isEqualTo(2);
      assertThat(rows(copy)).isEqualTo(rows(t)).hasSize(20);
      assertThat(copy.dump(2).get(0).rows()).isNotEmpty(); // the row tombstone came along
      ResultRow r = copy.select().eq("p", 1).eq("c", 100).execute().first().orElseThrow();
      ResultRow o = t.select().eq("p", 1).eq("c", 100).execute().first().orElseThrow();
      assertThat(r.writeTime("v")).isEqualTo(o.writeTime("v"));
      assertThat(r.ttl("v")).isEqualTo(50);
      assertThat(db.snapshots()).isEmpty(); // the temporary snapshot is gone
      write(t, 0, 1, "after"); // the copy is independent of the source
      assertThat(rows(copy)).contains("0=a");

      Table renamed =
          db.createTable(
              TableSchema.builder("renamed")
                  .partitionKey("p", DataType.INT)
                  .clusteringColumn("c", DataType.INT)
                  .column("w", DataType.TEXT)
                  .build());
      assertThatThrownBy(() -> db.copyTable("t", "renamed"))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("column v")
          .hasMessageContaining("stored as w text");
      assertThatThrownBy(() -> db.copyTable("t", "t"))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("into itself");
      assertThat(renamed.sstables()).isEmpty();
      assertThat(empty.sstables()).isEmpty();
    }
  }
}
