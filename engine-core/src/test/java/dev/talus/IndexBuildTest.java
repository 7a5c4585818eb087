package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.db.StorageHook;
import dev.talus.io.NioStorageFs;
import dev.talus.testfs.FaultInjectingFs;
import dev.talus.testfs.FaultInjectingFs.Fault;
import dev.talus.testfs.FaultInjectingFs.Op;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The background build of an index created on a table with SSTables: createIndex returns while the
 * build is held (a stalled disk write of the index's dictionaries, released by the test — no
 * sleeps), reads that need the index are refused while it builds or after it failed, the status
 * reports progress, size and reads served, and a reopen resumes an unfinished build.
 */
class IndexBuildTest {
  private static final String TERMS = "*SaiTerms_t_a.db.tmp";
  private static final Duration WAIT = Duration.ofMinutes(2);

  @TempDir Path dir;

  private TalusDb open(FaultInjectingFs fs) {
    return StorageHook.open(
        TalusDb.class, TalusOptions.builder(dir).backgroundCompaction(false).build(), fs);
  }

  private static Table load(TalusDb db) {
    Table t =
        db.createTable(
            TableSchema.builder("t")
                .partitionKey("p", DataType.INT)
                .clusteringColumn("c", DataType.INT)
                .column("a", DataType.TEXT)
                .build());
    for (int i = 0; i < 90; i++) {
      t.insert().value("p", i % 7).value("c", i).value("a", "v" + (i % 4)).execute();
      if (i % 30 == 29) {
        t.flush();
      }
    }
    return t;
  }

  private static List<String> keys(List<ResultRow> rows) {
    List<String> out = new ArrayList<>();
    rows.forEach(r -> out.add(r.getInt("p") + "/" + r.getInt("c")));
    return out;
  }

  private List<Path> termFiles() {
    try (java.util.stream.Stream<Path> s = java.nio.file.Files.walk(dir)) {
      return s.filter(f -> f.getFileName().toString().contains("SaiTerms_t_a")).toList();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static List<String> filtered(Table t, String a) {
    return keys(t.select().eq("a", a).allowFiltering().execute().rows());
  }

  @Test
  void createIndexReturnsWhileTheBuildRunsAndReadsAreRefusedUntilItIsQueryable()
      throws InterruptedException {
    FaultInjectingFs fs = new FaultInjectingFs(new NioStorageFs());
    try (TalusDb db = open(fs)) {
      Table t = load(db);
      List<String> expected = filtered(t, "v1"); // the filtering read, with no index yet
      fs.stall(Op.WRITE, TERMS);
      t.createIndex(IndexDef.sai("t_a", "a")); // returns though the build cannot write
      fs.awaitStalled(1);

      IndexStatus s = t.indexStatus("t_a");
      assertThat(s.state()).isEqualTo(IndexStatus.State.BUILDING);
      assertThat(s.sstablesBuilt()).isZero();
      assertThat(s.sstablesToBuild()).isEqualTo(3);
      assertThat(s.sstablesCovered()).isZero();
      assertThat(t.stats().indexes()).containsExactly(s);
      assertThatThrownBy(() -> t.select().eq("a", "v1").execute())
          .isInstanceOf(IndexNotAvailableException.class)
          .hasMessageStartingWith(
              "The secondary index 't_a' is not yet available as it is building (0 of 3 SSTables"
                  + " done)")
          .satisfies(
              e ->
                  assertThat(((IndexNotAvailableException) e).state())
                      .isEqualTo(IndexStatus.State.BUILDING));
      // opting into filtering reads without the index
      assertThat(filtered(t, "v1")).isEqualTo(expected);
      assertThat(t.awaitIndexBuilt("t_a", Duration.ofMillis(1))).isFalse();

      fs.releaseStalls();
      assertThat(t.awaitIndexBuilt("t_a", WAIT)).isTrue();
      assertThat(keys(t.select().eq("a", "v1").execute().rows())).isEqualTo(expected);
      s = t.indexStatus("t_a");
      assertThat(s.state()).isEqualTo(IndexStatus.State.QUERYABLE);
      assertThat(s.sstablesBuilt()).isEqualTo(3);
      assertThat(s.sstablesCovered()).isEqualTo(3);
      assertThat(s.liveSSTables()).isEqualTo(3);
      assertThat(s.diskBytes()).isPositive();
      assertThat(s.rowKeyMapBytes()).isPositive();
      assertThat(s.queriesServed()).isEqualTo(1); // the refused read and the filtering ones: 0
      assertThat(s.failure()).isNull();
      assertThat(t.stats().indexes()).containsExactly(s);
    }
  }

  @Test
  void aFilteringReadOnAnAnalyzedIndexIsRefusedDuringTheBuildRatherThanCompareUnanalyzed()
      throws InterruptedException {
    FaultInjectingFs fs = new FaultInjectingFs(new NioStorageFs());
    try (TalusDb db = open(fs)) {
      Table t = load(db);
      fs.stall(Op.WRITE, TERMS);
      t.createIndex(IndexDef.sai("t_a", "a").withOption("case_sensitive", "false"));
      try {
        fs.awaitStalled(1);
        // the scan would match 'V1' exactly and find nothing; the index matches it as 'v1'
        assertThatThrownBy(() -> t.select().eq("a", "V1").allowFiltering().execute())
            .isInstanceOf(IndexNotAvailableException.class)
            .hasMessageStartingWith(
                "The secondary index 't_a' is not yet available as it is building");
      } finally {
        fs.releaseStalls(); // else a failed assertion would leave the close waiting on the build
      }
      assertThat(t.awaitIndexBuilt("t_a", WAIT)).isTrue();
      assertThat(keys(t.select().eq("a", "V1").allowFiltering().execute().rows()))
          .isEqualTo(filtered(t, "v1"))
          .isNotEmpty();
    }
  }

  @Test
  void anIndexOnATableWithoutSSTablesIsQueryableAtOnce() throws InterruptedException {
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).build())) {
      Table t =
          db.createTable(
              TableSchema.builder("t")
                  .partitionKey("p", DataType.INT)
                  .column("a", DataType.TEXT)
                  .build());
      t.insert().value("p", 1).value("a", "x").execute(); // in the memtable only
      t.createIndex(IndexDef.sai("t_a", "a"));
      IndexStatus s = t.indexStatus("t_a");
      assertThat(s.state()).isEqualTo(IndexStatus.State.QUERYABLE);
      assertThat(s.sstablesToBuild()).isZero();
      assertThat(t.select().eq("a", "x").execute().rows()).hasSize(1);
      assertThat(t.awaitIndexBuilt("t_a", Duration.ZERO)).isTrue();
      assertThatThrownBy(() -> t.indexStatus("nope"))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessage("Index 'nope' doesn't exist on table t");
      assertThatThrownBy(() -> t.awaitIndexBuilt("nope", WAIT))
          .isInstanceOf(InvalidQueryException.class);
    }
  }

  @Test
  void aFailedBuildRefusesReadsWithItsReasonAndAReopenBuildsTheIndexAgain()
      throws InterruptedException {
    FaultInjectingFs fs = new FaultInjectingFs(new NioStorageFs());
    List<String> expected;
    try (TalusDb db = open(fs)) {
      Table t = load(db);
      expected = filtered(t, "v2");
      fs.stall(Op.WRITE, TERMS);
      fs.failNext(Op.WRITE, TERMS, Fault.EIO);
      t.createIndex(IndexDef.sai("t_a", "a"));
      fs.awaitStalled(1);
      fs.releaseStalls(); // the held write now fails
      assertThatThrownBy(() -> t.awaitIndexBuilt("t_a", WAIT))
          .isInstanceOf(IndexNotAvailableException.class)
          .hasMessageStartingWith("The secondary index 't_a' is not available: its build failed (");
      IndexStatus s = t.indexStatus("t_a");
      assertThat(s.state()).isEqualTo(IndexStatus.State.FAILED);
      assertThat(s.failure()).isNotBlank();
      assertThatThrownBy(() -> t.select().eq("a", "v2").execute())
          .isInstanceOf(IndexNotAvailableException.class)
          .hasMessageContaining(s.failure());
      assertThat(filtered(t, "v2")).isEqualTo(expected);
    }
    // the restart finds the dictionaries missing and builds them again, in the background
    FaultInjectingFs again = new FaultInjectingFs(new NioStorageFs());
    again.stall(Op.WRITE, TERMS);
    try (TalusDb db = open(again)) {
      Table t = db.table("t");
      again.awaitStalled(1);
      assertThat(t.indexStatus("t_a").state()).isEqualTo(IndexStatus.State.BUILDING);
      assertThatThrownBy(() -> t.select().eq("a", "v2").execute())
          .isInstanceOf(IndexNotAvailableException.class)
          .hasMessageContaining("is not yet available as it is building");
      again.releaseStalls();
      assertThat(t.awaitIndexBuilt("t_a", WAIT)).isTrue();
      assertThat(keys(t.select().eq("a", "v2").execute().rows())).isEqualTo(expected);
      assertThat(t.indexStatus("t_a").sstablesCovered()).isEqualTo(3);
    }
  }

  @Test
  void dropAndCreateDuringABuildEndsTheOldBuildAndTheNewIndexAnswersExactly()
      throws InterruptedException {
    FaultInjectingFs fs = new FaultInjectingFs(new NioStorageFs());
    try (TalusDb db = open(fs)) {
      Table t = load(db);
      List<String> expected = filtered(t, "v3");
      fs.stall(Op.WRITE, TERMS);
      t.createIndex(IndexDef.sai("t_a", "a"));
      fs.awaitStalled(1);
      Thread dropper = new Thread(() -> t.dropIndex("t_a"));
      dropper.start(); // drops the definition, then waits for the SSTable being built
      fs.releaseStalls();
      dropper.join();
      assertThat(t.indexes()).isEmpty();
      // the files the stopped build wrote are gone: none can be taken for the new index's
      assertThat(termFiles()).isEmpty();
      t.createIndex(IndexDef.sai("t_a", "a"));
      assertThat(t.awaitIndexBuilt("t_a", WAIT)).isTrue();
      assertThat(keys(t.select().eq("a", "v3").execute().rows())).isEqualTo(expected);
    }
  }

  @Test
  void closingDuringABuildEndsTheWaitAndTheNextOpenResumesTheBuild() throws Exception {
    FaultInjectingFs fs = new FaultInjectingFs(new NioStorageFs());
    TalusDb db = open(fs);
    Table t = load(db);
    List<String> expected = filtered(t, "v0");
    fs.stall(Op.WRITE, TERMS);
    t.createIndex(IndexDef.sai("t_a", "a"));
    fs.awaitStalled(1);
    Throwable[] waited = new Throwable[1];
    Thread waiter =
        new Thread(
            () -> {
              try {
                waited[0] = new AssertionError("returned " + t.awaitIndexBuilt("t_a", WAIT));
              } catch (Throwable e) {
                waited[0] = e;
              }
            });
    waiter.start();
    Thread closer = new Thread(db::close); // waits for the build's current SSTable
    closer.start();
    while (!isClosed(t)) {
      Thread.yield(); // until the close has begun: the build then stops after this SSTable
    }
    fs.releaseStalls();
    closer.join();
    waiter.join();
    assertThat(waited[0])
        .isInstanceOf(TalusClosedException.class)
        .hasMessageContaining("the next open resumes it");
    try (TalusDb again = open(new FaultInjectingFs(new NioStorageFs()))) {
      Table u = again.table("t");
      assertThat(u.awaitIndexBuilt("t_a", WAIT)).isTrue();
      assertThat(keys(u.select().eq("a", "v0").execute().rows())).isEqualTo(expected);
      assertThat(u.indexStatus("t_a").sstablesCovered()).isEqualTo(3);
    }
  }

  private static boolean isClosed(Table t) {
    try {
      t.stats();
      return false;
    } catch (TalusClosedException e) {
      return true;
    }
  }
}
