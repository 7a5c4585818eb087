package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Open, close, lock and reopen. Data durability across reopen is out of scope (no commit log). */
class LifecycleTest {
  @TempDir Path dir;

  private TalusDb open(Path d) {
    return TalusDb.open(TalusOptions.builder(d).clock(ManualClock.startingAtDefault()).build());
  }

  private static TableSchema schema(String name) {
    return TableSchema.builder(name)
        .partitionKey("k", DataType.TEXT)
        .clusteringColumn("c", DataType.INT)
        .column("v", DataType.TEXT)
        .build();
  }

  @Test
  void closeIsIdempotent() {
    TalusDb db = open(dir);
    db.createTable(schema("t"));
    db.close();
    assertThatCode(db::close).doesNotThrowAnyException();
    assertThatCode(db::close).doesNotThrowAnyException();
  }

  @Test
  void everyUseAfterCloseThrowsTalusClosedException() {
    TalusDb db = open(dir);
    Table t = db.createTable(schema("t"));
    t.insert().value("k", "a").value("c", 1).value("v", "x").execute();
    Insert pendingInsert = t.insert().value("k", "a").value("c", 2);
    Select pendingSelect = t.select().eq("k", "a");
    db.close();
    List<ThrowingCallable> uses =
        List.of(
            () -> t.insert().value("k", "a").value("c", 1).execute(),
            () -> t.update().where("k", "a").where("c", 1).set("v", "y").execute(),
            () -> t.delete().eq("k", "a").execute(),
            () -> t.select().eq("k", "a").execute(),
            () -> t.select().eq("k", "a").one(),
            pendingInsert::execute,
            pendingSelect::execute,
            () -> db.table("t"),
            () -> db.findTable("t"),
            () -> db.tables(),
            () -> db.createTable(schema("u")),
            () -> db.createTableIfNotExists(schema("t")),
            () -> db.timeUuids());
    for (ThrowingCallable use : uses) {
      assertThatThrownBy(use)
          .isInstanceOf(TalusClosedException.class)
          .hasMessageContaining("closed");
    }
    // Invalid queries on a closed database report the closing, not the query.
    assertThatThrownBy(() -> t.select().execute()).isInstanceOf(TalusClosedException.class);
  }

  @Test
  void secondOpenOfTheSameDirectoryIsRefusedAndLeavesTheFirstUsable() throws Exception {
    Files.createDirectories(dir.resolve("sub"));
    try (TalusDb first = open(dir)) {
      Table t = first.createTable(schema("t"));
      assertThatThrownBy(() -> open(dir))
          .isInstanceOf(DirectoryLockedException.class)
          .hasMessageContaining(dir.toString());
      // The same directory named differently is still the same directory.
      assertThatThrownBy(() -> open(dir.resolve("sub").resolve("..")))
          .isInstanceOf(DirectoryLockedException.class);
      assertThatThrownBy(() -> open(dir.resolve("."))).isInstanceOf(DirectoryLockedException.class);
      t.insert().value("k", "a").value("c", 1).value("v", "x").execute();
      assertThat(t.select().eq("k", "a").one())
          .get()
          .extracting(r -> r.getString("v"))
          .isEqualTo("x");
      assertThat(first.createTable(schema("u")).name()).isEqualTo("u");
    }
    // Once closed, the directory opens again.
    try (TalusDb again = open(dir)) {
      assertThat(again.tables()).extracting(Table::name).containsExactly("t", "u");
    }
  }

  @Test
  void secondOpenThroughASymlinkIsRefused() throws Exception {
    Path real = Files.createDirectories(dir.resolve("real"));
    Path link = Files.createSymbolicLink(dir.resolve("link"), real);
    try (TalusDb first = open(real)) {
      Table t = first.createTable(schema("t"));
      assertThatThrownBy(() -> open(link)).isInstanceOf(DirectoryLockedException.class);
      t.insert().value("k", "a").value("c", 1).value("v", "x").execute();
      assertThat(t.select().eq("k", "a").execute().size()).isEqualTo(1);
    }
  }

  @Test
  void refusedOpenThroughASymlinkKeepsTheLockAgainstOtherProcesses() throws Exception {
    Path real = Files.createDirectories(dir.resolve("real"));
    Path link = Files.createSymbolicLink(dir.resolve("link"), real);
    Path probe = dir.resolve("Probe.java");
    Files.writeString(
        probe,
        "import java.nio.channels.*; import java.nio.file.*;\n"
            + "public class Probe { public static void main(String[] a) throws Exception {\n"
            + "  try (FileChannel ch = FileChannel.open(Path.of(a[0]), StandardOpenOption.WRITE)) {\n"
            + "    System.out.print(ch.tryLock() == null ? \"refused\" : \"acquired\"); } } }\n");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    try (TalusDb first = open(real)) {
      assertThatThrownBy(() -> open(link)).isInstanceOf(DirectoryLockedException.class);
      Process p =
          new ProcessBuilder(java, probe.toString(), real.resolve("LOCK").toString())
              .redirectErrorStream(true)
              .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(out).as("another process trying the lock").isEqualTo("refused");
      assertThat(first.tables()).isEmpty();
    }
  }

  @Test
  @SuppressWarnings("try") // one of the two is closed early on purpose
  void differentDirectoriesOpenIndependentlyInOneJvm() {
    try (TalusDb a = open(dir.resolve("a"));
        TalusDb b = open(dir.resolve("b"))) {
      a.createTable(schema("t")).insert().value("k", "x").value("c", 1).value("v", "a").execute();
      b.createTable(schema("t")).insert().value("k", "x").value("c", 1).value("v", "b").execute();
      assertThat(a.table("t").select().eq("k", "x").one().orElseThrow().getString("v"))
          .isEqualTo("a");
      assertThat(b.table("t").select().eq("k", "x").one().orElseThrow().getString("v"))
          .isEqualTo("b");
      a.close();
      assertThat(b.table("t").select().eq("k", "x").execute().size()).isEqualTo(1);
    }
  }

  @Test
  void reopenAfterCloseRestoresTables() {
    try (TalusDb db = open(dir)) {
      db.createTable(schema("first"));
      db.createTable(schema("second"));
    }
    try (TalusDb db = open(dir)) {
      assertThat(db.tables()).extracting(Table::name).containsExactly("first", "second");
      assertThat(db.table("first").schema()).isEqualTo(schema("first"));
      // Restored tables accept writes and reads, and new tables can be added.
      Table t = db.table("second");
      t.insert().value("k", "a").value("c", 1).value("v", "x").execute();
      assertThat(t.select().eq("k", "a").execute().size()).isEqualTo(1);
      db.createTable(schema("third"));
    }
    try (TalusDb db = open(dir)) {
      assertThat(db.tables()).extracting(Table::name).containsExactly("first", "second", "third");
    }
  }

  @Test
  @org.junit.jupiter.api.Timeout(120)
  void closeStopsTheReadThreads() throws Exception {
    Path d = dir.resolve("threads_db");
    TalusDb db = open(d);
    Table t = db.createTable(schema("t"));
    t.select().in("k", "a", "b", "c").execute();
    List<Thread> readThreads =
        Thread.getAllStackTraces().keySet().stream()
            .filter(th -> th.getName().startsWith("talus-threads_db-read"))
            .toList();
    assertThat(readThreads).isNotEmpty();
    db.close();
    for (Thread th : readThreads) {
      // no time limit: a loaded machine may take long to end a thread (the test's timeout ends a
      // hung run); a thread close did not stop would hang here
      th.join();
      assertThat(th.isAlive()).as(th.getName()).isFalse();
    }
  }
}
