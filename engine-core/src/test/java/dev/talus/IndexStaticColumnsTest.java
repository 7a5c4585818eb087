package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Indexes on static columns, and on a partition key component of a table with static columns: a
 * read on an indexed static column returns every row of the matching partitions (Cassandra 5.0's
 * {@code StaticColumnIndexTest}), and a partition holding nothing but static values as its one row
 * with null clustering and regular columns (Cassandra returns it: a static column's restriction is
 * not a regular column's, so the read still names whole partitions). Each read is checked against a
 * full scan filtered here, from memtables, SSTables and after compaction, with overwritten, deleted
 * and expired static values.
 */
class IndexStaticColumnsTest {
  @TempDir Path dir;
  private final ManualClock clock = ManualClock.startingAtDefault();

  private TalusDb open() {
    return TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
  }

  /** {@code PRIMARY KEY (pk, ck)}, static {@code s}, regular {@code v}. */
  private static Table table(TalusDb db) {
    Table t =
        db.createTable(
            TableSchema.builder("t")
                .partitionKey("pk", DataType.INT)
                .clusteringColumn("ck", DataType.INT)
                .staticColumn("s", DataType.INT)
                .column("v", DataType.INT)
                .build());
    t.createIndex(IndexDef.sai("t_s", "s"));
    t.createIndex(IndexDef.sai("t_v", "v"));
    return t;
  }

  private static String row(ResultRow r) {
    return r.getInt("pk") + "/" + r.getInt("ck") + "/" + r.getInt("s") + "/" + r.getInt("v");
  }

  private static List<String> rows(ResultSet rs) {
    List<String> out = new ArrayList<>();
    rs.rows().forEach(r -> out.add(row(r)));
    return out;
  }

  /** A full scan (which no index serves) filtered here. */
  private static List<String> filtered(Table t, Predicate<ResultRow> match) {
    List<String> out = new ArrayList<>();
    for (ResultRow r : t.select().execute().rows()) {
      if (match.test(r)) {
        out.add(row(r));
      }
    }
    return out;
  }

  private static boolean is(Integer value, int wanted) {
    return value != null && value == wanted;
  }

  /** The indexed read {@code q} equals the filtered scan, whole, limited and paged. */
  private static void check(Table t, UnaryOperator<Select> q, Predicate<ResultRow> match) {
    List<String> expected = filtered(t, match);
    assertThat(rows(q.apply(t.select()).execute())).isEqualTo(expected);
    assertThat(rows(q.apply(t.select()).limit(2).execute()))
        .isEqualTo(expected.subList(0, Math.min(2, expected.size())));
    List<String> paged = new ArrayList<>();
    PagingState state = null;
    do {
      Select s = q.apply(t.select()).pageSize(1);
      ResultSet rs = (state == null ? s : s.pagingState(state)).execute();
      paged.addAll(rows(rs));
      state = rs.pagingState().orElse(null);
    } while (state != null);
    assertThat(paged).isEqualTo(expected);
  }

  @Test
  void aStaticIndexReturnsEveryRowOfTheMatchingPartitions() {
    try (TalusDb db = open()) {
      Table t = table(db);
      t.insert().value("pk", 1).value("ck", 1).value("s", 2).value("v", 1).execute();
      t.insert().value("pk", 1).value("ck", 2).value("v", 2).execute();
      t.insert().value("pk", 1).value("ck", 3).value("v", 3).execute();
      t.insert().value("pk", 2).value("ck", 1).value("s", 3).value("v", 1).execute();
      for (int pass = 0; pass < 3; pass++) {
        assertThat(rows(t.select().eq("s", 2).execute()))
            .containsExactly("1/1/2/1", "1/2/2/2", "1/3/2/3");
        check(t, s -> s.eq("s", 2), r -> is(r.getInt("s"), 2));
        check(t, s -> s.gt("s", 2), r -> r.getInt("s") != null && r.getInt("s") > 2);
        if (pass == 0) {
          t.flush();
        } else {
          t.compact();
        }
      }
    }
  }

  @Test
  void aStaticAndARegularIndexAreAnded() {
    try (TalusDb db = open()) {
      Table t = table(db);
      t.insert().value("pk", 1).value("ck", 1).value("s", 20).value("v", 1000).execute();
      t.insert().value("pk", 1).value("ck", 2).value("v", 2000).execute();
      t.flush();
      t.insert().value("pk", 2).value("ck", 1).value("s", 40).value("v", 2000).execute();
      for (int pass = 0; pass < 2; pass++) {
        assertThat(rows(t.select().eq("s", 20).eq("v", 2000).execute()))
            .containsExactly("1/2/20/2000");
        check(
            t,
            s -> s.eq("s", 20).eq("v", 2000),
            r -> is(r.getInt("s"), 20) && is(r.getInt("v"), 2000));
        t.flush();
      }
    }
  }

  @Test
  void aPartitionHoldingOnlyStaticValuesReturnsItsStaticRow() {
    try (TalusDb db = open()) {
      Table t = table(db);
      t.insert().value("pk", 1).value("s", 7).execute(); // static only
      t.insert().value("pk", 2).value("ck", 1).value("s", 7).value("v", 1).execute();
      for (int pass = 0; pass < 3; pass++) {
        assertThat(rows(t.select().eq("s", 7).execute()))
            .containsExactlyInAnyOrder("1/null/7/null", "2/1/7/1");
        // with the partition key; with filtering instead of the index
        assertThat(rows(t.select().eq("pk", 1).eq("s", 7).execute()))
            .containsExactly("1/null/7/null");
        assertThat(rows(t.select().eq("pk", 1).eq("s", 8).execute())).isEmpty();
        // a regular column's restriction names rows: a partition without rows has none
        assertThat(rows(t.select().eq("s", 7).eq("v", 1).execute())).containsExactly("2/1/7/1");
        check(t, s -> s.eq("s", 7), r -> is(r.getInt("s"), 7));
        if (pass == 0) {
          t.flush();
        } else {
          t.compact();
        }
      }
    }
  }

  @Test
  void overwrittenDeletedAndExpiredStaticValuesNeverReturnTheirPartition() {
    try (TalusDb db = open()) {
      Table t = table(db);
      for (int p = 0; p < 6; p++) {
        t.insert().value("pk", p).value("ck", 1).value("s", 5).value("v", p).execute();
        t.insert().value("pk", p).value("ck", 2).value("v", p + 10).execute();
      }
      t.insert().value("pk", 9).value("s", 5).execute();
      t.flush();
      t.update().set("s", 6).where("pk", 0).execute(); // overwritten in the memtable
      t.delete().columns("s").eq("pk", 1).execute(); // static cell deleted
      t.delete().eq("pk", 2).execute(); // partition deleted
      t.update().set("s", 5).where("pk", 3).ttl(Duration.ofSeconds(10)).execute(); // will expire
      t.delete().eq("pk", 4).eq("ck", 1).execute(); // a row gone, the static value stays
      t.update().set("s", 6).where("pk", 9).execute(); // static-only partition overwritten
      for (int pass = 0; pass < 4; pass++) {
        check(t, s -> s.eq("s", 5), r -> is(r.getInt("s"), 5));
        check(t, s -> s.eq("s", 6), r -> is(r.getInt("s"), 6));
        check(t, s -> s.le("s", 6), r -> r.getInt("s") != null && r.getInt("s") <= 6);
        switch (pass) {
          case 0 -> t.flush();
          case 1 -> clock.advance(Duration.ofSeconds(11));
          default -> t.compact();
        }
      }
      assertThat(rows(t.select().eq("s", 5).execute()))
          .containsExactlyInAnyOrder("4/2/5/14", "5/1/5/5", "5/2/5/15")
          .isEqualTo(filtered(t, r -> is(r.getInt("s"), 5)));
    }
  }

  @Test
  void aPartitionKeyComponentIndexFindsPartitionsHoldingOnlyStaticValues()
      throws InterruptedException {
    try (TalusDb db = open()) {
      Table t =
          db.createTable(
              TableSchema.builder("k")
                  .partitionKey("pk", DataType.INT)
                  .partitionKey("q", DataType.INT)
                  .clusteringColumn("ck", DataType.INT)
                  .column("v", DataType.INT)
                  .build());
      t.createIndex(IndexDef.sai("k_q", "q"));
      t.insert().value("pk", 1).value("q", 1).value("ck", 1).value("v", 1).execute();
      t.flush();
      // a static column can join a table whose partition key components are indexed
      t.alter().addStaticColumn("s", DataType.INT).apply();
      t.createIndex(IndexDef.sai("k_s", "s")); // built in the background over the SSTable
      assertThat(t.awaitIndexBuilt("k_s", Duration.ofMinutes(2))).isTrue();
      t.insert().value("pk", 2).value("q", 1).value("s", 3).execute(); // static only
      t.insert().value("pk", 3).value("q", 2).value("s", 3).execute(); // static only
      UnaryOperator<Select> q1 = s -> s.eq("q", 1);
      Predicate<ResultRow> inQ1 = r -> is(r.getInt("q"), 1);
      for (int pass = 0; pass < 3; pass++) {
        assertThat(t.select().eq("q", 1).execute().rows())
            .extracting(r -> r.getInt("pk") + "/" + r.getInt("ck") + "/" + r.getInt("s"))
            .containsExactlyInAnyOrder("1/1/null", "2/null/3");
        List<String> expected = new ArrayList<>();
        for (ResultRow r : t.select().execute().rows()) {
          if (inQ1.test(r)) {
            expected.add(r.getInt("pk") + "/" + r.getInt("ck") + "/" + r.getInt("s"));
          }
        }
        assertThat(q1.apply(t.select()).execute().rows())
            .extracting(r -> r.getInt("pk") + "/" + r.getInt("ck") + "/" + r.getInt("s"))
            .isEqualTo(expected);
        assertThat(t.select().eq("q", 2).eq("s", 3).execute().rows())
            .extracting(r -> r.getInt("pk"))
            .containsExactly(3);
        if (pass == 0) {
          t.flush();
        } else {
          t.compact();
        }
      }
    }
  }

  @Test
  void aRowKeyMapOfTheLayoutWithoutStaticRowsIsRebuilt() throws IOException {
    try (TalusDb db = open()) {
      Table t = table(db);
      t.insert().value("pk", 1).value("s", 7).execute();
      t.insert().value("pk", 2).value("ck", 1).value("s", 7).value("v", 1).execute();
      t.flush();
    }
    // make the SSTable's row-key map claim layout version 1 (static rows without row ids)
    Path keys;
    try (Stream<Path> files = Files.walk(dir)) {
      keys = files.filter(f -> f.toString().endsWith("-SaiKeys.db")).findFirst().orElseThrow();
    }
    setVersion(keys, 1);
    try (TalusDb db = open()) {
      Table t = db.table("t");
      assertThat(rows(t.select().eq("s", 7).execute()))
          .containsExactlyInAnyOrder("1/null/7/null", "2/1/7/1");
    }
    assertThat(ByteBuffer.wrap(Files.readAllBytes(keys)).getInt(12)).isEqualTo(2);
  }

  /** Rewrites the version of {@code file}'s header (name "SaiKeys") and its footer checksum. */
  private static void setVersion(Path file, int version) throws IOException {
    byte[] b = Files.readAllBytes(file);
    ByteBuffer.wrap(b).putInt(12, version); // magic 4, name length 1, "SaiKeys" 7
    CRC32C crc = new CRC32C();
    crc.update(b, 0, b.length - 8);
    ByteBuffer.wrap(b).putLong(b.length - 8, crc.getValue());
    Files.write(file, b);
  }
}
