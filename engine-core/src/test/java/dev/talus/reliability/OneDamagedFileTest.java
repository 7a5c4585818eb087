package dev.talus.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.talus.CorruptDataException;
import dev.talus.DataType;
import dev.talus.DiskFailurePolicy;
import dev.talus.QuarantinedTable;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One damaged file in one table never holds the rest of the database hostage: under {@link
 * DiskFailurePolicy#QUARANTINE} the database opens with the damaged SSTable (or, for a damaged
 * manifest, the whole table) set aside and counted, and every other table serves; under FAIL the
 * open is refused with a message naming the file, the table and the way out.
 */
class OneDamagedFileTest {
  @TempDir Path tmp;

  static final int ROWS = 200;

  private static TalusOptions options(Path dir, DiskFailurePolicy policy) {
    return TalusOptions.builder(dir)
        .backgroundCompaction(false)
        .chunkCacheBytes(0)
        .diskFailurePolicy(policy)
        .build();
  }

  private static TableSchema schema(String name) {
    return TableSchema.builder(name)
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT)
        .column("v", DataType.TEXT)
        .build();
  }

  /** Tables "damaged" and "healthy", ROWS rows each in one SSTable; closed. */
  private static void build(Path dir) {
    try (TalusDb db = TalusDb.open(options(dir, DiskFailurePolicy.FAIL))) {
      for (String name : new String[] {"damaged", "healthy"}) {
        Table t = db.createTable(schema(name));
        for (int i = 0; i < ROWS; i++) {
          t.insert().value("p", i % 10).value("c", i).value("v", "value " + i).execute();
        }
        t.flush();
      }
    }
  }

  private static Path fileOf(Path dir, String table, String suffix) throws IOException {
    try (Stream<Path> s = Files.walk(dir.resolve("tables"))) {
      return s.filter(p -> p.getParent().getFileName().toString().startsWith(table + "-"))
          .filter(p -> p.getFileName().toString().endsWith(suffix))
          .findFirst()
          .orElseThrow();
    }
  }

  /** Flips one byte in the middle of {@code f}. */
  private static void flipOneByte(Path f) throws IOException {
    try (RandomAccessFile r = new RandomAccessFile(f.toFile(), "rw")) {
      long at = r.length() / 2;
      r.seek(at);
      int b = r.read();
      r.seek(at);
      r.write(b ^ 0x10);
    }
  }

  private static int rows(Table t) {
    int n = 0;
    for (int p = 0; p < 10; p++) {
      n += t.select().eq("p", p).execute().size();
    }
    return n;
  }

  private static Map<String, Long> listing(Path dir) throws IOException {
    Map<String, Long> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        out.put(dir.relativize(p).toString(), Files.size(p));
      }
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"-Index.db", "-Stats.db", "-Filter.db", "-CompressionInfo.db", "-TOC.txt"})
  void aDamagedSSTableComponentIsQuarantinedAndEveryOtherTableServes(String component)
      throws IOException {
    Path dir = tmp.resolve("db");
    build(dir);
    Path damaged = fileOf(dir, "damaged", component);
    flipOneByte(damaged);

    Throwable refused = catchThrowable(() -> TalusDb.open(options(dir, DiskFailurePolicy.FAIL)));
    assertThat(refused).isInstanceOf(CorruptDataException.class);
    assertThat(((CorruptDataException) refused).file()).isEqualTo(damaged);
    assertThat(refused.getMessage())
        .contains(damaged.toString())
        .contains("cannot open table damaged")
        .contains("diskFailurePolicy(DiskFailurePolicy.QUARANTINE)")
        .contains("restore the table directory from a backup");
    assertThat(damaged).exists();

    try (TalusDb db = TalusDb.open(options(dir, DiskFailurePolicy.QUARANTINE))) {
      assertThat(rows(db.table("healthy"))).isEqualTo(ROWS);
      Table t = db.table("damaged");
      assertThat(t.quarantinedSSTables()).isEqualTo(1);
      assertThat(t.stats().quarantinedSSTables()).isEqualTo(1);
      // the damaged generation is gone from the live set (rows the commit log still held were
      // replayed into a new SSTable)
      assertThat(t.sstables())
          .noneMatch(
              s -> damaged.getFileName().toString().startsWith("nb-" + s.generation() + "-"));
      assertThat(db.quarantinedTables()).isEmpty();
    }
    assertThat(damaged).doesNotExist();
    assertThat(damaged.resolveSibling("quarantine").resolve(damaged.getFileName())).exists();
  }

  @Test
  void messagesEscapeDamagedBytesInsteadOfPrintingThemRaw() throws IOException {
    Path dir = tmp.resolve("db");
    build(dir);
    Path stats = fileOf(dir, "damaged", "-Stats.db");
    try (RandomAccessFile r = new RandomAccessFile(stats.toFile(), "rw")) {
      r.seek(5); // the first letter of the component name in the header
      r.write(0x1b); // ESC: would start a terminal control sequence
      r.write(0xC3); // half of a UTF-8 sequence
    }
    Throwable refused = catchThrowable(() -> TalusDb.open(options(dir, DiskFailurePolicy.FAIL)));
    assertThat(refused).isInstanceOf(CorruptDataException.class);
    assertThat(refused.getMessage()).contains("\\x1b\\xc3").doesNotContain("\u001b");
    assertThat(refused.getMessage().chars()).allMatch(c -> c >= 0x20 && c < 0x7F);
  }

  @Test
  void aMissingSSTableComponentIsQuarantinedLikeADamagedOne() throws IOException {
    Path dir = tmp.resolve("db");
    build(dir);
    Path filter = fileOf(dir, "damaged", "-Filter.db");
    Files.delete(filter);
    assertThatThrownBy(() -> TalusDb.open(options(dir, DiskFailurePolicy.FAIL)))
        .isInstanceOf(CorruptDataException.class)
        .hasMessageContaining("is missing")
        .hasMessageContaining("cannot open table damaged");
    try (TalusDb db = TalusDb.open(options(dir, DiskFailurePolicy.QUARANTINE))) {
      assertThat(db.table("damaged").quarantinedSSTables()).isEqualTo(1);
      assertThat(rows(db.table("healthy"))).isEqualTo(ROWS);
    }
  }

  @Test
  void aDamagedManifestSetsItsTableAsideUntouchedAndKeepsItsCommitLog() throws IOException {
    Path dir = tmp.resolve("db");
    build(dir);
    try (TalusDb db = TalusDb.open(options(dir, DiskFailurePolicy.FAIL))) {
      Table t = db.table("damaged");
      for (int i = ROWS; i < ROWS + 50; i++) { // in the commit log only
        t.insert().value("p", i % 10).value("c", i).value("v", "unflushed " + i).execute();
      }
    }
    Path manifest = fileOf(dir, "damaged", "MANIFEST.db");
    byte[] good = Files.readAllBytes(manifest);
    flipOneByte(manifest);
    Path tableDir = manifest.getParent();

    Throwable refused = catchThrowable(() -> TalusDb.open(options(dir, DiskFailurePolicy.FAIL)));
    assertThat(refused).isInstanceOf(CorruptDataException.class);
    assertThat(((CorruptDataException) refused).file()).isEqualTo(manifest);
    assertThat(refused.getMessage())
        .contains("cannot open table damaged")
        .contains(manifest.toString())
        .contains("diskFailurePolicy(DiskFailurePolicy.QUARANTINE)")
        .contains("sets this table aside");

    Map<String, Long> before = listing(tableDir);
    try (TalusDb db = TalusDb.open(options(dir, DiskFailurePolicy.QUARANTINE))) {
      assertThat(db.quarantinedTables())
          .extracting(QuarantinedTable::name, QuarantinedTable::damagedFile)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("damaged", manifest));
      assertThat(db.tables()).extracting(Table::name).containsExactly("healthy");
      assertThat(db.findTable("damaged")).isEmpty();
      assertThatThrownBy(() -> db.table("damaged"))
          .isInstanceOf(CorruptDataException.class)
          .hasMessageContaining("set aside")
          .hasMessageContaining("restore the table directory from a backup");
      assertThatThrownBy(() -> db.createTableIfNotExists(schema("damaged")))
          .isInstanceOf(CorruptDataException.class);
      // the healthy table serves, and its flushes must not let the log drop the other's records
      Table healthy = db.table("healthy");
      assertThat(rows(healthy)).isEqualTo(ROWS);
      for (int i = 0; i < 500; i++) {
        healthy.insert().value("p", 1).value("c", 10_000 + i).value("v", "later").execute();
      }
      healthy.flush();
    }
    assertThat(listing(tableDir)).isEqualTo(before);

    Files.write(manifest, good); // the way out: restore the table's files
    try (TalusDb db = TalusDb.open(options(dir, DiskFailurePolicy.FAIL))) {
      assertThat(rows(db.table("damaged"))).isEqualTo(ROWS + 50);
      assertThat(db.quarantinedTables()).isEmpty();
    }
  }

  /**
   * The manifest's last edit cut off, with the seal intact, with the seal's last record cut off
   * too, or with the seal deleted: the SSTables' TOCs still prove the edit.
   */
  @ParameterizedTest
  @ValueSource(strings = {"seal intact", "seal cut", "seal deleted"})
  void aManifestThatLostAnAcknowledgedEditIsReportedNeverRolledBack(String seal)
      throws IOException {
    Path dir = tmp.resolve("db");
    build(dir);
    Path manifest = fileOf(dir, "damaged", "MANIFEST.db");
    Path tableDir = manifest.getParent();
    byte[] good = Files.readAllBytes(manifest);
    // Cut 3 bytes off the last record (the flush's edit): to the manifest alone this looks like
    // an append torn by a crash, but the edit was acknowledged: MANIFEST.seal says so, and the
    // flushed SSTable's TOC names the edit.
    try (RandomAccessFile r = new RandomAccessFile(manifest.toFile(), "rw")) {
      r.setLength(good.length - 3);
    }
    Path sealFile = tableDir.resolve("MANIFEST.seal");
    byte[] goodSeal = Files.readAllBytes(sealFile);
    if (seal.equals("seal cut")) {
      try (RandomAccessFile r = new RandomAccessFile(sealFile.toFile(), "rw")) {
        r.setLength(goodSeal.length - 12);
      }
    } else if (seal.equals("seal deleted")) {
      Files.delete(sealFile);
    }
    assertThat(Files.readString(fileOf(dir, "damaged", "-TOC.txt")))
        .containsPattern("manifest-edit-added=0*[1-9]");
    Map<String, Long> before = listing(tableDir);

    Throwable refused = catchThrowable(() -> TalusDb.open(options(dir, DiskFailurePolicy.FAIL)));
    assertThat(refused).isInstanceOf(CorruptDataException.class);
    assertThat(((CorruptDataException) refused).file()).isEqualTo(manifest);
    assertThat(refused.getMessage())
        .contains("cannot open table damaged")
        .contains(manifest.toString())
        .contains("lost acknowledged edits")
        .contains("offset ");
    try (TalusDb db = TalusDb.open(options(dir, DiskFailurePolicy.QUARANTINE))) {
      assertThat(db.quarantinedTables())
          .extracting(QuarantinedTable::name, QuarantinedTable::damagedFile)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("damaged", manifest));
      assertThat(rows(db.table("healthy"))).isEqualTo(ROWS);
    }
    // the SSTable the lost edit had made live is still there: nothing was deleted as a leftover
    assertThat(listing(tableDir)).isEqualTo(before);
    assertThat(TalusDb.verify(dir).damaged())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.file()).isEqualTo(manifest);
              assertThat(c.damage()).contains("lost acknowledged edits");
            });

    Files.write(manifest, good);
    Files.write(sealFile, goodSeal);
    try (TalusDb db = TalusDb.open(options(dir, DiskFailurePolicy.FAIL))) {
      assertThat(rows(db.table("damaged"))).isEqualTo(ROWS);
    }
  }

  @Test
  void aTableSetAsideInAKeyspaceIsNamedWithItsKeyspaceAndItsTwinElsewhereServes()
      throws IOException {
    Path dir = tmp.resolve("db");
    try (TalusDb db = TalusDb.open(options(dir, DiskFailurePolicy.FAIL))) {
      db.createKeyspace(dev.talus.KeyspaceSchema.builder("ks").build());
      Table damaged = db.createTable(schema("users").withKeyspace("ks"));
      Table twin = db.createTable(schema("users")); // the same name, in the default keyspace
      for (Table t : new Table[] {damaged, twin}) {
        for (int i = 0; i < ROWS; i++) {
          t.insert().value("p", i % 10).value("c", i).value("v", "value " + i).execute();
        }
        t.flush();
      }
    }
    Path manifest;
    try (Stream<Path> s = Files.walk(dir.resolve("tables"))) {
      // the keyspace's table was created first: the lower id
      manifest =
          s.filter(p -> p.getFileName().toString().equals("MANIFEST.db"))
              .sorted()
              .findFirst()
              .orElseThrow();
    }
    flipOneByte(manifest);
    try (TalusDb db = TalusDb.open(options(dir, DiskFailurePolicy.QUARANTINE))) {
      assertThat(db.quarantinedTables())
          .extracting(QuarantinedTable::name, QuarantinedTable::damagedFile)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("ks.users", manifest));
      assertThatThrownBy(() -> db.table("ks.users"))
          .isInstanceOf(CorruptDataException.class)
          .hasMessageContaining("set aside");
      assertThatThrownBy(() -> db.createTableIfNotExists(schema("users").withKeyspace("ks")))
          .isInstanceOf(CorruptDataException.class);
      assertThat(rows(db.table("users"))).isEqualTo(ROWS);
      assertThat(db.findTable("ks", "users")).isEmpty();
    }
  }
}
