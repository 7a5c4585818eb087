package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Paged reads: pages concatenate to the unpaged result, and paging states are checked. */
class PagingTest {
  private static final int ROWS = 1_000;
  private static final int PAGE = 37;

  @TempDir Path dir;
  private TalusDb db;
  private Table t;

  @BeforeEach
  void open() {
    db = TalusDb.open(TalusOptions.builder(dir).clock(ManualClock.startingAtDefault()).build());
    t =
        db.createTable(
            TableSchema.builder("paged")
                .partitionKey("p", DataType.INT)
                .clusteringColumn("c", DataType.INT, ClusteringOrder.DESC)
                .clusteringColumn("d", DataType.TEXT)
                .column("v", DataType.INT)
                .build());
    // Partition 0 holds 1,000 rows; partitions 1..4 hold 250 each (1,000 together).
    for (int i = 0; i < ROWS; i++) {
      insert(0, i);
      insert(1 + i % 4, i / 4);
    }
  }

  private void insert(int p, int i) {
    t.insert().value("p", p).value("c", i / 3).value("d", "d" + (i % 3)).value("v", i).execute();
  }

  @AfterEach
  void close() {
    db.close();
  }

  private static String key(ResultRow r) {
    return r.getInt("p") + "/" + r.getInt("c") + "/" + r.getString("d") + "=" + r.getInt("v");
  }

  /** Pages through {@code query} (re-created for each page), checking every page's size. */
  private static List<String> pageThrough(Supplier<Select> query, int pageSize, int expectedRows) {
    List<String> all = new ArrayList<>();
    PagingState state = null;
    int pages = 0;
    do {
      Select s = query.get().pageSize(pageSize);
      if (state != null) {
        s.pagingState(state);
      }
      ResultSet page = s.execute();
      pages++;
      page.forEach(r -> all.add(key(r)));
      state = page.pagingState().orElse(null);
      if (state != null) {
        assertThat(page.size()).as("a page followed by another is full").isEqualTo(pageSize);
      }
      assertThat(pages).as("runaway paging").isLessThanOrEqualTo(expectedRows / pageSize + 2);
    } while (state != null);
    assertThat(all).hasSize(expectedRows);
    assertThat(pages).isEqualTo(Math.max(1, (expectedRows + pageSize - 1) / pageSize));
    return all;
  }

  private static List<String> unpaged(Select s) {
    return s.execute().rows().stream().map(PagingTest::key).toList();
  }

  @ParameterizedTest(name = "reversed={0} limit={1}")
  @CsvSource({
    "false, 0",
    "true, 0",
    "false, 500",
    "true, 500",
    "false, 37",
    "true, 74",
    "false, 1"
  })
  void pagesOfOnePartitionConcatenateToTheUnpagedResult(boolean reversed, int limit) {
    Supplier<Select> q =
        () -> {
          Select s = t.select().eq("p", 0);
          if (reversed) {
            s.reversed();
          }
          if (limit > 0) {
            s.limit(limit);
          }
          return s;
        };
    List<String> whole = unpaged(q.get());
    int expected = limit > 0 ? limit : ROWS;
    assertThat(whole).hasSize(expected);
    assertThat(pageThrough(q, PAGE, expected)).isEqualTo(whole);
  }

  @ParameterizedTest(name = "reversed={0} limit={1}")
  @CsvSource({"false, 0", "true, 0", "false, 600", "true, 251", "false, 250"})
  void pagesAcrossPartitionsReadWithInConcatenateToTheUnpagedResult(boolean reversed, int limit) {
    Supplier<Select> q =
        () -> {
          Select s = t.select().in("p", 3, 1, 4, 2);
          if (reversed) {
            s.reversed();
          }
          if (limit > 0) {
            s.limit(limit);
          }
          return s;
        };
    List<String> whole = unpaged(q.get());
    int expected = limit > 0 ? limit : ROWS;
    assertThat(whole).hasSize(expected);
    // Partitions come back in partition key order, each in clustering order; reversed, the rows
    // of all four are merged into reversed clustering order (c ascending, d descending), ties in
    // partition key order: c = 0, d = d2 of partitions 1, 2, 3 and 4 first.
    if (reversed) {
      assertThat(whole.subList(0, 4))
          .containsExactly("1/0/d2=2", "2/0/d2=2", "3/0/d2=2", "4/0/d2=2");
    } else {
      assertThat(whole.get(0)).startsWith("1/");
      if (limit == 0) {
        assertThat(whole.get(whole.size() - 1)).startsWith("4/");
      }
    }
    assertThat(pageThrough(q, PAGE, expected)).isEqualTo(whole);
  }

  @Test
  void pageSizeDividingThePartitionsExactlyEndsWithoutAnEmptyPage() {
    List<String> whole = unpaged(t.select().in("p", 1, 2));
    assertThat(pageThrough(() -> t.select().in("p", 1, 2), 250, 500)).isEqualTo(whole);
    assertThat(pageThrough(() -> t.select().in("p", 1, 2), 500, 500)).isEqualTo(whole);
  }

  @Test
  void pagesOfASliceConcatenateToTheUnpagedSlice() {
    Supplier<Select> q = () -> t.select().eq("p", 0).ge("c", 100).lt("c", 200);
    List<String> whole = unpaged(q.get());
    assertThat(whole).hasSize(300);
    assertThat(pageThrough(q, PAGE, 300)).isEqualTo(whole);
  }

  @Test
  void pagesWithFilteringConcatenateToTheUnpagedResult() {
    // Partition 0 has v = 0..999, partition 2 has v = 0..249.
    Supplier<Select> q = () -> t.select().in("p", 0, 2).ge("v", 100).allowFiltering();
    List<String> whole = unpaged(q.get());
    assertThat(whole).hasSize(900 + 150);
    assertThat(pageThrough(q, PAGE, 1050)).isEqualTo(whole);
  }

  @Test
  void pageSizeLargerThanTheResultGivesOnePageWithoutState() {
    ResultSet rs = t.select().eq("p", 1).pageSize(10_000).execute();
    assertThat(rs.size()).isEqualTo(250);
    assertThat(rs.pagingState()).isEmpty();
  }

  @Test
  void pagingStateFromAnotherQueryIsRefused() {
    PagingState state = t.select().eq("p", 0).pageSize(PAGE).execute().pagingState().orElseThrow();
    assertThatThrownBy(() -> t.select().eq("p", 1).pageSize(PAGE).pagingState(state).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("different query");
    assertThatThrownBy(
            () -> t.select().eq("p", 0).reversed().pageSize(PAGE).pagingState(state).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("different query");
    assertThatThrownBy(
            () -> t.select().eq("p", 0).limit(100).pageSize(PAGE).pagingState(state).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("different query");
    assertThatThrownBy(
            () -> t.select().eq("p", 0).columns("v").pageSize(PAGE).pagingState(state).execute())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("different query");
  }

  @Test
  void pagingStateFromAnotherTableIsRefused() {
    Table other =
        db.createTable(
            TableSchema.builder("other")
                .partitionKey("p", DataType.INT)
                .clusteringColumn("c", DataType.INT)
                .build());
    for (int i = 0; i < 10; i++) {
      other.insert().value("p", 0).value("c", i).execute();
    }
    PagingState state = other.select().eq("p", 0).pageSize(3).execute().pagingState().orElseThrow();
    assertThatThrownBy(() -> t.select().eq("p", 0).pageSize(3).pagingState(state).execute())
        .isInstanceOf(InvalidQueryException.class);
  }

  @Test
  void pagingStateRoundTripsThroughText() {
    ResultSet first = t.select().in("p", 1, 2).pageSize(PAGE).execute();
    PagingState state = first.pagingState().orElseThrow();
    String text = state.toString();
    assertThat(text).matches("[A-Za-z0-9_-]+");
    PagingState parsed = PagingState.fromString(text);
    assertThat(parsed).isEqualTo(state).hasSameHashCodeAs(state);
    assertThat(parsed.toString()).isEqualTo(text);
    List<String> viaState = unpaged(t.select().in("p", 1, 2).pageSize(PAGE).pagingState(state));
    List<String> viaText = unpaged(t.select().in("p", 1, 2).pageSize(PAGE).pagingState(parsed));
    assertThat(viaText).isEqualTo(viaState).hasSize(PAGE);
    assertThat(viaText.get(0)).isNotEqualTo(key(first.rows().get(0)));
  }

  @Test
  void garbagePagingStatesAreRefused() {
    assertThatThrownBy(() -> PagingState.fromString("not base64!"))
        .isInstanceOf(InvalidQueryException.class);
    PagingState junk = PagingState.fromString("AAAA");
    assertThatThrownBy(() -> t.select().eq("p", 0).pageSize(3).pagingState(junk).execute())
        .isInstanceOf(InvalidQueryException.class);
  }

  /**
   * Every byte of a real paging state (of a named read and of a scan), overwritten with random
   * values, and every truncation of it: the read either resumes somewhere or is refused with an
   * {@link InvalidQueryException}, never another exception. Replay a run with {@code -Dtalus.seed}.
   */
  @Test
  void mutatedPagingStatesResumeOrAreRefusedAsInvalid() {
    long seed = Long.getLong("talus.seed", new java.util.Random().nextLong());
    System.out.println("PagingTest.mutatedPagingStates seed=" + seed);
    java.util.Random random = new java.util.Random(seed);
    List<Supplier<Select>> queries =
        List.of(() -> t.select().in("p", 1, 2).pageSize(PAGE), () -> t.select().pageSize(PAGE));
    for (Supplier<Select> query : queries) {
      byte[] state = query.get().execute().pagingState().orElseThrow().bytes();
      List<byte[]> variants = new ArrayList<>();
      for (int len = 0; len < state.length; len++) {
        variants.add(java.util.Arrays.copyOf(state, len));
      }
      for (int i = 0; i < state.length; i++) {
        for (int round = 0; round < 8; round++) {
          byte[] v = state.clone();
          v[i] = (byte) random.nextInt(256);
          variants.add(v);
        }
      }
      for (byte[] v : variants) {
        PagingState bad = new PagingState(v);
        try {
          query.get().pagingState(bad).execute();
        } catch (InvalidQueryException expected) {
          // refused: the only acceptable failure
        } catch (RuntimeException e) {
          throw new AssertionError(
              "seed " + seed + ": state " + java.util.HexFormat.of().formatHex(v) + " threw " + e,
              e);
        }
      }
    }
  }

  @Test
  void writesBetweenPagesAreSeenOnlyAfterTheResumePoint() {
    ResultSet first = t.select().eq("p", 1).pageSize(10).execute();
    // Rows are c DESC: a new row with a larger c sorts before the resume point, one with a
    // smaller c after it.
    t.insert().value("p", 1).value("c", 10_000).value("d", "new").value("v", -1).execute();
    t.insert().value("p", 1).value("c", -1).value("d", "new").value("v", -2).execute();
    List<String> rest = new ArrayList<>();
    PagingState s = first.pagingState().orElseThrow();
    while (s != null) {
      ResultSet page = t.select().eq("p", 1).pageSize(10).pagingState(s).execute();
      page.forEach(r -> rest.add(key(r)));
      s = page.pagingState().orElse(null);
    }
    assertThat(rest).hasSize(240 + 1).last().isEqualTo("1/-1/new=-2");
  }
}
