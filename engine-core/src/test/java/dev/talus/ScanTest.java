package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scans through the public API: every partition in token order across memtables and SSTables,
 * limits, paging across flushes and compactions, token ranges, the filtering opt-in, deletions and
 * TTL reconciled as in a named read, and the tombstone thresholds.
 */
class ScanTest {
  @TempDir Path dir;
  private final ManualClock clock = ManualClock.startingAtDefault();
  private TalusDb db;
  private Table t;

  @BeforeEach
  void open() {
    db = TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
    t =
        db.createTable(
            TableSchema.builder("events")
                .partitionKey("p", DataType.INT)
                .clusteringColumn("c", DataType.INT)
                .column("v", DataType.TEXT)
                .build());
  }

  @AfterEach
  void close() {
    db.close();
  }

  private void put(int p, int c) {
    t.insert().value("p", p).value("c", c).value("v", p + ":" + c).execute();
  }

  private static String key(ResultRow r) {
    return r.getInt("p") + ":" + r.getInt("c");
  }

  private static List<String> keys(ResultSet rs) {
    return rs.rows().stream().map(ScanTest::key).toList();
  }

  /** Partitions 0..n-1 with {@code rows} rows each, in token order then clustering order. */
  private List<String> expected(int n, int rows) {
    List<Integer> ps = new ArrayList<>();
    for (int p = 0; p < n; p++) {
      ps.add(p);
    }
    ps.sort(Comparator.comparingLong((Integer p) -> t.token(p)));
    List<String> out = new ArrayList<>();
    for (int p : ps) {
      for (int c = 0; c < rows; c++) {
        out.add(p + ":" + c);
      }
    }
    return out;
  }

  /** 30 partitions of 4 rows spread over two SSTables and the memtable. */
  private void fill() {
    for (int p = 0; p < 30; p++) {
      for (int c = 0; c < 4; c++) {
        put(p, c);
        if (p == 10 && c == 3 || p == 20 && c == 1) {
          t.flush();
        }
      }
    }
  }

  private static List<String> pageThrough(Supplier<Select> query, int pageSize) {
    List<String> all = new ArrayList<>();
    PagingState state = null;
    do {
      Select s = query.get().pageSize(pageSize);
      if (state != null) {
        s.pagingState(state);
      }
      ResultSet page = s.execute();
      assertThat(page.size()).isLessThanOrEqualTo(pageSize);
      all.addAll(keys(page));
      state = page.pagingState().orElse(null);
    } while (state != null);
    return all;
  }

  @Test
  void aScanReturnsEveryPartitionInTokenOrderAcrossMemtableAndSSTables() {
    fill();
    assertThat(t.sstables()).hasSize(2);
    assertThat(keys(t.select().execute())).isEqualTo(expected(30, 4));
    assertThat(t.select().columns("v").execute().rows())
        .extracting(r -> r.getString("v"))
        .hasSize(120);
  }

  @Test
  void aScanMergesEachPartitionFromExactlyTheSSTablesThatHoldItWithoutBloomLookups() {
    // every partition in the first SSTable, the even ones rewritten in the second, every third
    // one's row 1 in the memtable: the newest value of each row must win
    for (int p = 0; p < 30; p++) {
      put(p, 0);
      put(p, 1);
    }
    t.flush();
    for (int p = 0; p < 30; p += 2) {
      t.insert().value("p", p).value("c", 0).value("v", "second").execute();
    }
    t.flush();
    for (int p = 0; p < 30; p += 3) {
      t.insert().value("p", p).value("c", 1).value("v", "memtable").execute();
    }
    assertThat(t.sstables()).hasSize(2);
    long lookups = t.stats().bloomFilterLookups();

    List<String> got = new ArrayList<>();
    for (ResultRow r : t.select().execute()) {
      got.add(key(r) + "=" + r.getString("v"));
    }

    List<String> want = new ArrayList<>();
    for (String k : expected(30, 2)) {
      int p = Integer.parseInt(k.substring(0, k.indexOf(':')));
      boolean first = k.endsWith(":0");
      String v = first ? (p % 2 == 0 ? "second" : k) : (p % 3 == 0 ? "memtable" : k);
      want.add(k + "=" + v);
    }
    assertThat(got).isEqualTo(want);
    assertThat(t.stats().bloomFilterLookups()).isEqualTo(lookups);
  }

  @Test
  void limitAndPerPartitionLimitApplyToTheScan() {
    fill();
    List<String> all = expected(30, 4);
    assertThat(keys(t.select().limit(7).execute())).isEqualTo(all.subList(0, 7));
    List<String> firstOfEach = all.stream().filter(k -> k.endsWith(":0")).toList();
    assertThat(keys(t.select().perPartitionLimit(1).execute())).isEqualTo(firstOfEach);
    assertThat(pageThrough(() -> t.select().perPartitionLimit(3).limit(50), 4))
        .isEqualTo(all.stream().filter(k -> !k.endsWith(":3")).limit(50).toList());
  }

  @Test
  void pagesConcatenateToTheWholeScanAndResumeAcrossFlushAndCompaction() {
    fill();
    List<String> all = expected(30, 4);
    for (int size : new int[] {1, 3, 4, 7, 119, 120, 121}) {
      assertThat(pageThrough(() -> t.select(), size)).as("page size %s", size).isEqualTo(all);
    }
    // between pages: a flush, a compaction, and a new partition before and after the cursor
    ResultSet first = t.select().pageSize(50).execute();
    t.flush();
    t.compact();
    assertThat(t.sstables()).hasSize(1);
    List<String> rest = new ArrayList<>(keys(first));
    Select next = t.select().pageSize(1000).pagingState(first.pagingState().orElseThrow());
    rest.addAll(keys(next.execute()));
    assertThat(rest).isEqualTo(all);
  }

  @Test
  void tokenRangesSplitTheTableExactly() {
    fill();
    List<String> all = expected(30, 4);
    long[] cuts = {
      Long.MIN_VALUE, -5_000_000_000_000_000_000L, -1, 0, 42, 4_000_000_000_000_000_000L
    };
    List<String> union = new ArrayList<>();
    // (MIN, cut1], (cut1, cut2], ..., (last, MAX]; plus the MIN token itself
    union.addAll(keys(t.select().tokenLe(Long.MIN_VALUE).execute()));
    for (int i = 0; i < cuts.length; i++) {
      Select s = t.select().tokenGt(cuts[i]);
      if (i + 1 < cuts.length) {
        s.tokenLe(cuts[i + 1]);
      }
      List<String> part = keys(s.execute());
      for (String k : part) {
        long token = t.token(Integer.parseInt(k.split(":")[0]));
        assertThat(token).isGreaterThan(cuts[i]);
        if (i + 1 < cuts.length) {
          assertThat(token).isLessThanOrEqualTo(cuts[i + 1]);
        }
      }
      union.addAll(part);
    }
    assertThat(union).isEqualTo(all);
    // one partition by its token, ge/lt bounds, an empty range
    long tok = t.token(7);
    assertThat(keys(t.select().tokenGe(tok).tokenLe(tok).execute()))
        .containsExactly("7:0", "7:1", "7:2", "7:3");
    assertThat(keys(t.select().tokenGe(tok).tokenLt(tok).execute())).isEmpty();
    assertThat(keys(t.select().tokenGt(10).tokenLe(5).execute())).isEmpty();
    assertThat(keys(t.select().tokenGt(Long.MAX_VALUE).execute())).isEmpty();
    // paging inside a range
    assertThat(pageThrough(() -> t.select().tokenGt(-1).tokenLe(Long.MAX_VALUE), 5))
        .isEqualTo(keys(t.select().tokenGt(-1).execute()));
  }

  @Test
  void filteringAcrossPartitionsNeedsTheOptIn() {
    fill();
    assertThatThrownBy(() -> t.select().eq("v", "3:1").execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("restricts [v] but not the partition key [p]")
        .hasMessageContaining("one table per query")
        .hasMessageContaining("allowFiltering()");
    assertThatThrownBy(() -> t.select().eq("c", 1).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("restricts [c] but not the partition key [p]");
    assertThatThrownBy(() -> t.select().tokenGt(0).gt("c", 1).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("allowFiltering()");
    assertThat(keys(t.select().eq("v", "3:1").allowFiltering().execute())).containsExactly("3:1");
    List<String> c2 = expected(30, 4).stream().filter(k -> k.endsWith(":2")).toList();
    assertThat(keys(t.select().eq("c", 2).allowFiltering().execute())).isEqualTo(c2);
    assertThat(pageThrough(() -> t.select().eq("c", 2).allowFiltering(), 4)).isEqualTo(c2);
    assertThat(keys(t.select().ge("c", 3).allowFiltering().execute()))
        .isEqualTo(expected(30, 4).stream().filter(k -> k.endsWith(":3")).toList());
  }

  @Test
  void aScanCannotBeOrderedNorMixTokensWithKeyValues() {
    fill();
    assertThatThrownBy(() -> t.select().reversed().execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("cannot be ordered");
    assertThatThrownBy(() -> t.select().orderBy("c", ClusteringOrder.DESC).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("token order");
    assertThatThrownBy(() -> t.select().eq("p", 1).tokenGt(0).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("both by eq/in and by a token range");
    assertThatThrownBy(() -> t.token(1, 2))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("needs 1 partition key value(s), got 2");
    PagingState named = t.select().eq("p", 1).pageSize(1).execute().pagingState().orElseThrow();
    assertThatThrownBy(() -> t.select().pageSize(1).pagingState(named).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("different query");
    PagingState scan = t.select().pageSize(1).execute().pagingState().orElseThrow();
    assertThatThrownBy(() -> t.select().tokenGt(0).pageSize(1).pagingState(scan).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("different query");
  }

  @Test
  void deletionsAndTtlAreReconciledAsInANamedRead() {
    fill();
    t.flush();
    t.delete().eq("p", 1).execute(); // partition deletion over flushed data
    t.delete().eq("p", 2).eq("c", 0).execute(); // row deletion
    t.delete().eq("p", 3).ge("c", 2).execute(); // range deletion
    t.delete().eq("p", 4).eq("c", 1).columns("v").execute(); // cell deletion: row stays
    t.insert()
        .value("p", 5)
        .value("c", 9)
        .value("v", "short")
        .ttl(Duration.ofSeconds(60))
        .execute();
    t.flush();
    t.insert().value("p", 1).value("c", 7).value("v", "after").execute(); // newer than the deletion
    List<String> want = new ArrayList<>(expected(30, 4));
    want.removeIf(k -> k.startsWith("1:") || k.equals("2:0") || k.equals("3:2") || k.equals("3:3"));
    want.add(want.indexOf("5:3") + 1, "5:9");
    int at1 = expected(30, 4).indexOf("1:0");
    List<String> order = expected(30, 4);
    // "1:7" sits where partition 1 sits in token order
    String before1 = at1 == 0 ? null : order.get(at1 - 1);
    want.add(before1 == null ? 0 : want.indexOf(before1) + 1, "1:7");
    assertThat(keys(t.select().execute())).isEqualTo(want);
    assertThat(t.select().execute().rows().stream().filter(r -> key(r).equals("4:1")).findFirst())
        .hasValueSatisfying(r -> assertThat(r.getString("v")).isNull());
    clock.advance(Duration.ofSeconds(61));
    want.remove("5:9");
    assertThat(keys(t.select().execute())).isEqualTo(want);
    assertThat(pageThrough(() -> t.select(), 3)).isEqualTo(want);
  }

  @Test
  void tombstonesAcrossPartitionsCountAgainstTheThresholds() {
    Table thin =
        db.createTable(
            TableSchema.builder("thin")
                .partitionKey("p", DataType.INT)
                .clusteringColumn("c", DataType.INT)
                .column("v", DataType.INT)
                .tombstoneThresholds(5, 20)
                .build());
    for (int p = 0; p < 30; p++) {
      thin.delete().eq("p", p).eq("c", 0).execute();
      thin.insert().value("p", p).value("c", 1).value("v", p).execute();
    }
    assertThatThrownBy(() -> thin.select().execute())
        .isInstanceOf(TombstoneOverwhelmingException.class)
        .hasMessageContaining("tombstone_failure_threshold");
    // each page is one read, as in Cassandra: pages of 5 rows scan 6 partitions' tombstones each
    List<Integer> values = new ArrayList<>();
    PagingState state = null;
    do {
      Select s = thin.select().pageSize(5);
      ResultSet page = (state == null ? s : s.pagingState(state)).execute();
      assertThat(thin.lastReadTombstoneCount()).isBetween(1, 6);
      page.forEach(r -> values.add(r.getInt("v")));
      state = page.pagingState().orElse(null);
    } while (state != null);
    assertThat(values).hasSize(30).doesNotHaveDuplicates();
  }

  @Test
  void aPageCanEndOnTheSingleRowOfAStaticOnlyPartition() {
    Table st =
        db.createTable(
            TableSchema.builder("with_statics")
                .partitionKey("p", DataType.INT)
                .clusteringColumn("c", DataType.INT)
                .staticColumn("s", DataType.INT)
                .build());
    List<Integer> ps = new ArrayList<>(List.of(0, 1, 2, 3, 4, 5));
    for (int p : ps) {
      if (p % 2 == 0) {
        st.insert().value("p", p).value("s", p).execute(); // static data, no rows
      } else {
        st.insert().value("p", p).value("c", 1).value("s", p).execute();
        st.insert().value("p", p).value("c", 2).execute();
      }
    }
    ps.sort(Comparator.comparingLong((Integer p) -> st.token(p)));
    List<String> expected = new ArrayList<>();
    for (int p : ps) {
      if (p % 2 == 0) {
        expected.add(p + ":null");
      } else {
        expected.add(p + ":1");
        expected.add(p + ":2");
      }
    }
    for (int pageSize = 1; pageSize <= 4; pageSize++) {
      List<String> all = new ArrayList<>();
      PagingState state = null;
      do {
        Select s = st.select().pageSize(pageSize);
        if (state != null) {
          s.pagingState(state);
        }
        ResultSet page = s.execute();
        page.forEach(r -> all.add(r.getInt("p") + ":" + r.get("c")));
        state = page.pagingState().orElse(null);
      } while (state != null);
      assertThat(all).as("page size " + pageSize).isEqualTo(expected);
    }
  }
}
