package dev.talus.testkit;

import static dev.talus.testkit.TalusAssertions.assertThatPartition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.CommitLogSync;
import dev.talus.DataType;
import dev.talus.SSTableSummary;
import dev.talus.Table;
import dev.talus.TableSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TalusTestDbTest {
  static TableSchema schema(Duration gcGrace) {
    return TableSchema.builder("t")
        .partitionKey("k", DataType.TEXT)
        .clusteringColumn("c", DataType.INT)
        .column("v", DataType.TEXT)
        .gcGrace(gcGrace)
        .build();
  }

  @Test
  void freshDatabaseHasTestDefaultsAndIsDeletedOnClose() {
    TalusTestDb db = TalusTestDb.create();
    Path dir = db.directory();
    assertThat(db.now()).isEqualTo(TalusTestDb.DEFAULT_START);
    assertThat(db.options().backgroundCompaction()).isFalse();
    assertThat(db.options().commitLogSync()).isEqualTo(CommitLogSync.PERIODIC);
    assertThat(db.db().clock()).isSameAs(db.clock());
    assertThat(Files.isDirectory(dir)).isTrue();
    db.close();
    db.close(); // idempotent
    assertThat(Files.exists(dir)).isFalse();
    assertThatThrownBy(db::db).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aGivenDirectoryIsKeptAndTheOptionsCanBeAdjusted() throws Exception {
    Path dir = Files.createTempDirectory("talus-kept-");
    try (TalusTestDb db =
        TalusTestDb.builder()
            .directory(dir)
            .clockAt(Instant.parse("2030-05-01T12:00:00Z"))
            .options(b -> b.backgroundCompaction(true))
            .open()) {
      assertThat(db.now()).isEqualTo(Instant.parse("2030-05-01T12:00:00Z"));
      assertThat(db.options().backgroundCompaction()).isTrue();
      assertThat(db.options().clock()).isSameAs(db.clock());
    }
    assertThat(Files.isDirectory(dir)).isTrue();
    TalusTestDb.deleteRecursively(dir);
  }

  @Test
  void gcGraceBoundaryIsStrict_keptAtTheEndOfGcGraceAndPurgedOneSecondLater() {
    try (TalusTestDb db = TalusTestDb.create()) {
      Table t = db.createTable(schema(Duration.ofHours(1)));
      t.delete().eq("k", "a").eq("c", 1).execute();
      db.flush(t);
      Instant deletedAt = db.now();

      assertThat(db.advanceToEndOfGcGrace(t)).isEqualTo(deletedAt.plus(Duration.ofHours(1)));
      assertThat(db.gcBefore(t)).isEqualTo(deletedAt); // ldt == gcBefore: kept
      db.compactAll(t);
      assertThatPartition(t, "a").hasTombstones(1);

      db.clock().set(deletedAt); // back, then the other helper from the same start
      assertThat(db.advancePastGcGrace(t)).isEqualTo(deletedAt.plus(Duration.ofSeconds(3601)));
      db.compactAll(t);
      assertThatPartition(t, "a").isNotStored();
    }
  }

  @Test
  void advancePastTtlIsTheFirstExpiredSecond() {
    try (TalusTestDb db = TalusTestDb.create()) {
      Table t = db.createTable(schema(Duration.ofDays(1)));
      t.insert().value("k", "a").value("c", 1).value("v", "x").ttl(Duration.ofMinutes(5)).execute();
      db.advance(Duration.ofMinutes(5).minusSeconds(1));
      assertThatPartition(t, "a").hasRows(1);
      db.clock().set(TalusTestDb.DEFAULT_START);
      db.advancePastTtl(Duration.ofMinutes(5));
      assertThatPartition(t, "a").hasRows(0).hasTombstones(2); // the cell and the row marker
    }
  }

  @Test
  void flushReturnsTheNewSSTableAndCompactReportsWhatChanged() {
    try (TalusTestDb db = TalusTestDb.create()) {
      Table t = db.createTable(schema(Duration.ofDays(1)));
      assertThat(db.flush(t)).isNull(); // nothing to flush
      t.insert().value("k", "a").value("c", 1).value("v", "x").execute();
      SSTableSummary first = db.flush(t);
      t.insert().value("k", "a").value("c", 2).value("v", "y").execute();
      SSTableSummary second = db.flush(t);
      assertThat(second.generation()).isGreaterThan(first.generation());

      CompactionReport one = db.compact(t, second);
      assertThat(one.removedGenerations()).containsExactly(second.generation());
      assertThat(one.created()).hasSize(1);
      assertThat(one.droppedWhole()).isEmpty();

      CompactionReport all = db.compactAll(t);
      assertThat(all.before()).hasSize(2);
      assertThat(all.after()).hasSize(1);
      assertThat(db.history(t)).containsExactly(one, all);
      assertThat(all.toString()).contains("compactAll").contains("dropped whole []");
      assertThatThrownBy(() -> db.compact(t)).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void runNextCompactionAndSettleFollowTheStrategy() {
    try (TalusTestDb db = TalusTestDb.create()) {
      Table t = db.createTable(schema(Duration.ofDays(1)));
      assertThat(db.runNextCompaction(t).ran()).isFalse();
      for (int i = 0; i < 4; i++) { // size-tiered: four similar SSTables make a bucket
        t.insert().value("k", "a").value("c", i).value("v", "x").execute();
        db.flush(t);
      }
      CompactionReport r = db.runNextCompaction(t);
      assertThat(r.ran()).isTrue();
      assertThat(r.removed()).hasSize(4);
      assertThat(t.sstables()).hasSize(1);

      t.insert().value("k", "b").value("c", 1).value("v", "x").execute();
      CompactionReport s = db.settle(t); // flushes, then nothing more to do
      assertThat(s.after()).hasSize(2);
      assertThatPartition(t, "b").isStoredOnlyIn(s.after().get(1).generation());
    }
  }

  @Test
  void faultsCrashAndReopenKeepTheDirectoryAndClock() {
    try (TalusTestDb db = TalusTestDb.withFaults(7)) {
      Table t = db.createTable(schema(Duration.ofDays(1)));
      t.insert().value("k", "a").value("c", 1).value("v", "flushed").execute();
      db.flush(t);
      t.insert().value("k", "a").value("c", 2).value("v", "maybe lost").execute();
      db.advance(Duration.ofHours(3));
      Instant before = db.now();
      db.crashAndLoseAllUnsynced(); // PERIODIC: the unsynced commit-log tail is gone
      db.reopen();
      Table again = db.table("t");
      assertThat(db.now()).isEqualTo(before);
      assertThat(again.select().eq("k", "a").eq("c", 1).one()).isPresent();
      assertThat(again.select().eq("k", "a").eq("c", 2).one()).isEmpty();
      assertThat(db.faults().syncs()).isPositive();
    }
  }

  @Test
  void crashWithoutPowerLossKeepsAcknowledgedWrites() {
    try (TalusTestDb db = TalusTestDb.create()) {
      Table t = db.createTable(schema(Duration.ofDays(1)));
      t.insert().value("k", "a").value("c", 1).value("v", "x").execute();
      db.crash();
      db.reopen();
      assertThatPartition(db.table("t"), "a").hasRows(1);
      assertThatThrownBy(db::faults)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("withFaults");
    }
  }
}
