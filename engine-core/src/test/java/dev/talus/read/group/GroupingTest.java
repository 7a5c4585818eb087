package dev.talus.read.group;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.DataType;
import dev.talus.ResultRow;
import dev.talus.TableSchema;
import dev.talus.request.ReadRequest;
import dev.talus.request.ReadResult;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The page boundary of {@link Grouping} when the rows change between the read of a page and the
 * re-read that finds the state after its last group: rows deleted or inserted before the boundary
 * must neither drop the next group's first row nor return a group twice. The rows come from a list
 * read by position (its paging state is the position after the last row), so each test changes them
 * exactly between the two reads.
 */
class GroupingTest {
  private static final TableSchema SCHEMA =
      TableSchema.builder("g")
          .partitionKey("k", DataType.INT)
          .clusteringColumn("a", DataType.INT)
          .clusteringColumn("b", DataType.INT)
          .build();

  /** A row of (k, a, b). */
  private record Row(int k, int a, int b) implements ResultRow {
    @Override
    public List<String> columns() {
      return List.of("k", "a", "b");
    }

    @Override
    public Object get(String column) {
      return Map.of("k", k, "a", a, "b", b).get(column);
    }

    @Override
    public <T> T get(String column, Class<T> type) {
      return type.cast(get(column));
    }

    @Override
    public Long writeTime(String column) {
      return null;
    }

    @Override
    public Integer ttl(String column) {
      return null;
    }
  }

  /** Reads {@code rows} by position; runs {@code afterRead} once after the {@code n}th read. */
  private static final class ListRead implements Function<ReadRequest, ReadResult> {
    final List<Row> rows;
    final int n;
    final Runnable afterRead;
    int reads;

    ListRead(List<Row> rows, int n, Runnable afterRead) {
      this.rows = rows;
      this.n = n;
      this.afterRead = afterRead;
    }

    @Override
    public ReadResult apply(ReadRequest r) {
      int from = r.pagingState() == null ? 0 : ByteBuffer.wrap(r.pagingState()).getInt();
      int to = (int) Math.min(rows.size(), (long) from + r.pageSize());
      List<ResultRow> page = new ArrayList<>(rows.subList(from, to));
      byte[] state = to < rows.size() ? ByteBuffer.allocate(4).putInt(to).array() : null;
      if (++reads == n) {
        afterRead.run();
      }
      return new ReadResult(page, state, 1, 0);
    }
  }

  private static ReadRequest request(int pageSize, byte[] state) {
    return new ReadRequest(
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        false,
        Integer.MAX_VALUE,
        pageSize,
        state,
        false,
        Integer.MAX_VALUE,
        List.of(),
        List.of());
  }

  /** Every group's rows as "k:a:b" lists, paging one group at a time. */
  private static List<List<String>> groups(ListRead read) {
    List<List<String>> out = new ArrayList<>();
    byte[] state = null;
    int pages = 0;
    do {
      state =
          Grouping.run(
              SCHEMA,
              request(1, state),
              List.of("k", "a"),
              (row, first) -> {
                if (first) {
                  out.add(new ArrayList<>());
                }
                out.get(out.size() - 1).add(row.get("k") + ":" + row.get("a") + ":" + row.get("b"));
              },
              read);
      assertThat(++pages).isLessThan(100);
    } while (state != null);
    return out;
  }

  private static List<Row> rows() {
    List<Row> rows = new ArrayList<>();
    for (int a = 0; a < 3; a++) {
      for (int b = 0; b < 3; b++) {
        rows.add(new Row(1, a, b));
      }
    }
    return rows;
  }

  @Test
  void unchangedRowsPageOneGroupAtATime() {
    List<Row> rows = rows();
    assertThat(groups(new ListRead(rows, -1, () -> {})))
        .containsExactly(
            List.of("1:0:0", "1:0:1", "1:0:2"),
            List.of("1:1:0", "1:1:1", "1:1:2"),
            List.of("1:2:0", "1:2:1", "1:2:2"));
  }

  @Test
  void aRowDeletedBeforeTheBoundaryDoesNotCostTheNextGroupItsFirstRow() {
    List<Row> rows = rows();
    // after the first read (the page of group (1, 0)), a row of that group goes
    List<List<String>> groups = groups(new ListRead(rows, 1, () -> rows.remove(0)));
    assertThat(groups.get(0)).containsExactly("1:0:0", "1:0:1", "1:0:2");
    assertThat(groups.get(1)).containsExactly("1:1:0", "1:1:1", "1:1:2");
    assertThat(groups).hasSize(3);
  }

  @Test
  void aWholeGroupDeletedBeforeTheBoundaryResumesAtThePageStart() {
    List<Row> rows = rows();
    List<List<String>> groups = groups(new ListRead(rows, 1, () -> rows.subList(0, 3).clear()));
    assertThat(groups.get(0)).containsExactly("1:0:0", "1:0:1", "1:0:2");
    assertThat(groups.subList(1, groups.size()))
        .containsExactly(List.of("1:1:0", "1:1:1", "1:1:2"), List.of("1:2:0", "1:2:1", "1:2:2"));
  }

  @Test
  void aRowInsertedBeforeTheBoundaryDoesNotReturnAGroupTwice() {
    List<Row> rows = rows();
    List<List<String>> groups = groups(new ListRead(rows, 1, () -> rows.add(1, new Row(1, 0, 9))));
    assertThat(groups).hasSize(3);
    assertThat(groups.get(1)).containsExactly("1:1:0", "1:1:1", "1:1:2");
  }
}
