package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Select#groupBy}: groups of the partition key or of a clustering prefix, as Cassandra's
 * GROUP BY makes them — the first row of each group, or all its rows for per-group aggregates —
 * with limit, per-partition limit and page size counting groups and pages ending after whole
 * groups; groups bigger than the internal page; Cassandra's errors for invalid groupings. A seeded
 * random test compares grouped reads (paged, limited, across flushes and deletions) with a naive
 * grouping of the whole ungrouped result; replay a seed with {@code -Dtalus.groupby.seed=N}.
 */
class GroupByTest {
  @TempDir Path dir;
  private final ManualClock clock = ManualClock.startingAtDefault();
  private TalusDb db;
  private Table t;

  @BeforeEach
  void open() {
    db = TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
    t =
        db.createTable(
            TableSchema.builder("g")
                .partitionKey("k", DataType.INT)
                .clusteringColumn("a", DataType.INT)
                .clusteringColumn("b", DataType.TEXT)
                .column("v", DataType.INT)
                .build());
  }

  @AfterEach
  void close() {
    db.close();
  }

  private void put(int k, int a, String b, Integer v) {
    t.insert().value("k", k).value("a", a).value("b", b).value("v", v).execute();
  }

  private static String row(ResultRow r) {
    return r.get("k") + ":" + r.get("a") + ":" + r.get("b");
  }

  @Test
  void firstRowOfEachGroupByPartitionAndByClusteringPrefix() {
    for (int a = 0; a < 3; a++) {
      for (String b : List.of("x", "y")) {
        put(1, a, b, a);
        put(2, a, b, a);
      }
    }
    assertThat(t.select().eq("k", 1).groupBy("k").execute().rows())
        .extracting(GroupByTest::row)
        .containsExactly("1:0:x");
    assertThat(t.select().eq("k", 1).groupBy("k", "a").execute().rows())
        .extracting(GroupByTest::row)
        .containsExactly("1:0:x", "1:1:x", "1:2:x");
    // k fixed by equality may be left out, as in Cassandra
    assertThat(t.select().eq("k", 2).groupBy("a").execute().rows()).hasSize(3);
    // a scan groups every partition, in token order
    List<ResultRow> all = t.select().groupBy("k").execute().rows();
    assertThat(all).hasSize(2);
    assertThat(t.select().eq("k", 1).reversed().groupBy("k", "a").execute().rows())
        .extracting(GroupByTest::row)
        .containsExactly("1:2:y", "1:1:y", "1:0:y");
  }

  @Test
  void aggregatesPerGroupWithForEachGroupedRow() {
    for (int a = 0; a < 4; a++) {
      for (int i = 0; i < a + 1; i++) {
        put(7, a, "b" + i, 10 * a + i);
      }
    }
    Map<Integer, Long> counts = new LinkedHashMap<>();
    Map<Integer, Object> sums = new LinkedHashMap<>();
    Aggregator[] count = new Aggregator[1];
    Aggregator[] sum = new Aggregator[1];
    Optional<PagingState> next =
        t.select()
            .eq("k", 7)
            .groupBy("a")
            .columns("v")
            .forEachGroupedRow(
                (r, first) -> {
                  if (first) {
                    count[0] = Aggregator.of(Aggregator.Function.COUNT, DataType.INT, "v");
                    sum[0] = Aggregator.of(Aggregator.Function.SUM, DataType.INT, "v");
                  }
                  count[0].add(r.get("v"));
                  sum[0].add(r.get("v"));
                  counts.put(r.getInt("a"), (Long) count[0].result());
                  sums.put(r.getInt("a"), sum[0].result());
                });
    assertThat(next).isEmpty();
    assertThat(counts)
        .containsExactly(Map.entry(0, 1L), Map.entry(1, 2L), Map.entry(2, 3L), Map.entry(3, 4L));
    assertThat(sums)
        .containsExactly(Map.entry(0, 0), Map.entry(1, 21), Map.entry(2, 63), Map.entry(3, 126));
    assertThatThrownBy(() -> t.select().eq("k", 7).groupBy("a").count())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("forEachGroupedRow");
  }

  @Test
  void groupsBiggerThanTheInternalPagePageByWholeGroups() {
    int perGroup = 4_001; // internal pages of 5 000 rows end inside groups
    for (int a = 0; a < 3; a++) {
      for (int i = 0; i < perGroup; i++) {
        put(1, a, String.format("%05d", i), i);
      }
    }
    t.flush();
    List<Integer> sizes = new ArrayList<>();
    List<String> firsts = new ArrayList<>();
    PagingState state = null;
    int pages = 0;
    do {
      Select s = t.select().eq("k", 1).groupBy("k", "a").pageSize(1);
      if (state != null) {
        s.pagingState(state);
      }
      state =
          s.forEachGroupedRow(
                  (r, first) -> {
                    if (first) {
                      sizes.add(0);
                      firsts.add(row(r));
                    }
                    sizes.set(sizes.size() - 1, sizes.get(sizes.size() - 1) + 1);
                  })
              .orElse(null);
      pages++;
    } while (state != null);
    assertThat(firsts).containsExactly("1:0:00000", "1:1:00000", "1:2:00000");
    assertThat(sizes).containsExactly(perGroup, perGroup, perGroup);
    assertThat(pages).isEqualTo(3);
  }

  @Test
  void invalidGroupingsAreRefusedAsCassandraRefusesThem() {
    put(1, 1, "x", 1);
    assertThatThrownBy(() -> t.select().eq("k", 1).groupBy("v").execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("only supported on the columns of the PRIMARY KEY, got v");
    assertThatThrownBy(() -> t.select().eq("k", 1).groupBy("k", "b").execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("following their declared order in the PRIMARY KEY");
    assertThatThrownBy(() -> t.select().groupBy("a").execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("following their declared order in the PRIMARY KEY");
    assertThatThrownBy(() -> t.select().groupBy("nope").execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("Undefined column name nope");
    assertThatThrownBy(() -> t.select().in("k", 1, 2).reversed().groupBy("k").execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("cannot be ordered");
  }

  /** Grouped reads against a naive grouping of the whole ungrouped result, on random data. */
  @Test
  void groupedReadsMatchANaiveGroupingOfTheWholeResult() {
    long seed = Long.getLong("talus.groupby.seed", System.nanoTime());
    System.out.println(
        "GroupByTest seed: " + seed + " (replay with -Dtalus.groupby.seed=" + seed + ")");
    Random rnd = new Random(seed);
    for (int round = 0; round < 30; round++) {
      for (int i = 0, n = rnd.nextInt(60); i < n; i++) {
        int k = rnd.nextInt(6);
        int a = rnd.nextInt(4);
        String b = "b" + rnd.nextInt(5);
        if (rnd.nextInt(6) == 0) {
          t.delete().eq("k", k).eq("a", a).execute();
        } else {
          put(k, a, b, rnd.nextInt(100));
        }
      }
      if (rnd.nextInt(4) == 0) {
        t.flush();
      }
      boolean byPrefix = rnd.nextBoolean();
      int limit = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(8) : Integer.MAX_VALUE;
      int perPartition = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(3) : Integer.MAX_VALUE;
      int pageSize = 1 + rnd.nextInt(5);
      boolean onePartition = rnd.nextBoolean();
      int k = rnd.nextInt(6);
      String what =
          "seed "
              + seed
              + " round "
              + round
              + " prefix "
              + byPrefix
              + " limit "
              + limit
              + " ppl "
              + perPartition
              + " page "
              + pageSize
              + " k "
              + (onePartition ? k : "all");
      // the naive answer: every row, grouped by hand
      Select plain = t.select();
      if (onePartition) {
        plain.eq("k", k);
      }
      List<List<String>> expected = new ArrayList<>();
      String last = null;
      String lastPartition = null;
      int inPartition = 0;
      for (ResultRow r : plain.execute()) {
        String key = byPrefix ? r.get("k") + ":" + r.get("a") : String.valueOf(r.get("k"));
        if (!key.equals(last)) {
          last = key;
          if (!String.valueOf(r.get("k")).equals(lastPartition)) {
            lastPartition = String.valueOf(r.get("k"));
            inPartition = 0;
          }
          if (++inPartition <= perPartition) {
            expected.add(new ArrayList<>());
          } else {
            last = key;
            expected.add(null); // a group past the per-partition limit: skipped
          }
        }
        if (expected.get(expected.size() - 1) != null) {
          expected.get(expected.size() - 1).add(row(r) + "=" + r.get("v"));
        }
      }
      expected.removeIf(g -> g == null);
      if (expected.size() > limit) {
        expected = new ArrayList<>(expected.subList(0, limit));
      }
      List<List<String>> actual = new ArrayList<>();
      PagingState state = null;
      int pages = 0;
      do {
        Select s = t.select().pageSize(pageSize);
        if (onePartition) {
          s.eq("k", k);
        }
        s = byPrefix ? s.groupBy("k", "a") : s.groupBy("k");
        if (limit != Integer.MAX_VALUE) {
          s.limit(limit);
        }
        if (perPartition != Integer.MAX_VALUE) {
          s.perPartitionLimit(perPartition);
        }
        if (state != null) {
          s.pagingState(state);
        }
        int[] groups = {0};
        state =
            s.forEachGroupedRow(
                    (r, first) -> {
                      if (first) {
                        actual.add(new ArrayList<>());
                        groups[0]++;
                      }
                      actual.get(actual.size() - 1).add(row(r) + "=" + r.get("v"));
                    })
                .orElse(null);
        assertThat(groups[0]).as(what).isLessThanOrEqualTo(pageSize);
        if (rnd.nextInt(5) == 0) {
          t.flush(); // a page resumes across a flush
        }
        assertThat(++pages).as(what).isLessThan(1000);
      } while (state != null);
      assertThat(actual).as(what).isEqualTo(expected);
    }
  }
}
