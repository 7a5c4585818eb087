package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlRow;
import dev.talus.cql.PreparedCql;
import dev.talus.cql.TalusSession;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read restrictions of Cassandra 5.0's SELECT through CQL: IN on clustering columns,
 * multi-column relations, filtering on clustering columns with ALLOW FILTERING, and ORDER BY with
 * IN on the partition key. Each expectation follows Cassandra's documented semantics: clustering IN
 * values are read in clustering order, once each; a multi-column slice compares tuples column by
 * column in each type's natural order whatever the clustering order; an ORDER BY over several
 * partitions orders the whole result.
 */
class SelectRestrictionsTest {
  @TempDir Path dir;
  private CqlDb t;
  private TalusSession cql;

  @BeforeEach
  void schema() {
    t = new CqlDb(dir);
    cql = t.cql;
    cql.execute("CREATE TABLE t (k int, b int, c int, v text, PRIMARY KEY (k, b, c))");
    cql.execute(
        "CREATE TABLE d (k int, b int, c int, v text, PRIMARY KEY (k, b, c))"
            + " WITH CLUSTERING ORDER BY (b DESC, c ASC)");
    PreparedCql insT = cql.prepare("INSERT INTO t (k, b, c, v) VALUES (?, ?, ?, ?)");
    PreparedCql insD = cql.prepare("INSERT INTO d (k, b, c, v) VALUES (?, ?, ?, ?)");
    for (int k = 0; k < 2; k++) {
      for (int b = 0; b < 3; b++) {
        for (int c = 0; c < 3; c++) {
          insT.execute(k, b, c, k + ":" + b + "" + c);
          insD.execute(k, b, c, k + ":" + b + "" + c);
        }
      }
    }
  }

  @AfterEach
  void close() {
    t.close();
  }

  /** The rows as {@code k:bc}, in the order they came. */
  private List<String> rows(String query, Object... values) {
    return keys(cql.execute(query, values));
  }

  private static List<String> keys(CqlResult r) {
    List<String> out = new ArrayList<>();
    for (CqlRow row : r) {
      out.add(row.getString("v"));
    }
    return out;
  }

  @Test
  void inOnClusteringColumnsReadsEachValueOnceInClusteringOrder() {
    assertThat(rows("SELECT v FROM t WHERE k = 0 AND b IN (2, 0, 2)"))
        .containsExactly("0:00", "0:01", "0:02", "0:20", "0:21", "0:22");
    assertThat(rows("SELECT v FROM t WHERE k = 0 AND b = 1 AND c IN (2, 0)"))
        .containsExactly("0:10", "0:12");
    // the cartesian product of two INs
    assertThat(rows("SELECT v FROM t WHERE k = 0 AND b IN (1, 0) AND c IN (2, 1)"))
        .containsExactly("0:01", "0:02", "0:11", "0:12");
    // IN followed by a range on the next column
    assertThat(rows("SELECT v FROM t WHERE k = 0 AND b IN (0, 2) AND c > 0"))
        .containsExactly("0:01", "0:02", "0:21", "0:22");
    // a DESC clustering column: its IN values come back descending
    assertThat(rows("SELECT v FROM d WHERE k = 0 AND b IN (0, 2) AND c = 1"))
        .containsExactly("0:21", "0:01");
    assertThat(rows("SELECT v FROM t WHERE k = 0 AND b IN (0, 2) AND c = 1 ORDER BY b DESC"))
        .containsExactly("0:21", "0:01");
    // bound as a list, and an empty list that selects nothing
    PreparedCql in = cql.prepare("SELECT v FROM t WHERE k = ? AND b = 1 AND c IN ?");
    assertThat(keys(in.execute(1, List.of(2, 1)))).containsExactly("1:11", "1:12");
    assertThat(keys(in.execute(1, List.of()))).isEmpty();
    assertThat(in.variables().get(1).type().cql()).isEqualTo("list<int>");
  }

  @Test
  void multiColumnRelationsCompareTuples() {
    assertThat(rows("SELECT v FROM t WHERE k = 0 AND (b, c) = (1, 2)")).containsExactly("0:12");
    assertThat(rows("SELECT v FROM t WHERE k = 0 AND (b, c) > (1, 1)"))
        .containsExactly("0:12", "0:20", "0:21", "0:22");
    assertThat(rows("SELECT v FROM t WHERE k = 0 AND (b, c) >= (0, 2) AND (b, c) < (1, 1)"))
        .containsExactly("0:02", "0:10");
    // a bound on a prefix of the columns, together with a bound on all of them
    assertThat(rows("SELECT v FROM t WHERE k = 0 AND (b, c) > (0, 1) AND (b) < (1)"))
        .containsExactly("0:02");
    assertThat(rows("SELECT v FROM t WHERE k = 0 AND (b, c) IN ((2, 0), (0, 1), (2, 0))"))
        .containsExactly("0:01", "0:20");
    assertThat(rows("SELECT v FROM t WHERE k = 0 AND b = 2 AND (c) IN ((1), (0))"))
        .containsExactly("0:20", "0:21");
    // the same comparisons on b DESC, c ASC: tuple order by value, rows in clustering order
    assertThat(rows("SELECT v FROM d WHERE k = 0 AND (b, c) > (1, 1)"))
        .containsExactly("0:20", "0:21", "0:22", "0:12");
    assertThat(rows("SELECT v FROM d WHERE k = 0 AND (b, c) <= (0, 1)"))
        .containsExactly("0:00", "0:01");
    // one marker per element, typed by its column
    PreparedCql p =
        cql.prepare("SELECT v FROM t WHERE k = ? AND (b, c) > (?, ?) AND (b, c) < (:hb, :hc)");
    assertThat(p.variables()).extracting(v -> v.name()).containsExactly("k", "b", "c", "hb", "hc");
    assertThat(keys(p.execute(1, 0, 2, 1, 1))).containsExactly("1:10");
    PreparedCql pin = cql.prepare("SELECT v FROM t WHERE k = 1 AND (b, c) IN ((?, ?), (2, ?))");
    assertThat(keys(pin.execute(0, 0, 2))).containsExactly("1:00", "1:22");
  }

  @Test
  void multiColumnRelationsAreRefusedAsCassandraRefusesThem() {
    expectInvalid(
        "SELECT v FROM t WHERE k = 0 AND (k, b) = (0, 1)",
        "Multi-column relations can only be applied to clustering columns but was applied to: k");
    expectInvalid(
        "SELECT v FROM t WHERE k = 0 AND (c, b) = (1, 2)",
        "Clustering columns must appear in the PRIMARY KEY order in multi-column relations");
    expectInvalid("SELECT v FROM t WHERE k = 0 AND (b, b) = (1, 2)", "Column \"b\" appeared twice");
    cql.execute("CREATE TABLE w (k int, a int, b int, c int, PRIMARY KEY (k, a, b, c))");
    expectInvalid(
        "SELECT * FROM w WHERE k = 0 AND (a, c) = (1, 2)",
        "Clustering columns may not be skipped in multi-column relations");
    expectInvalid(
        "SELECT v FROM t WHERE k = 0 AND (b, c) = (1, 2, 3)",
        "Expected 2 elements in value tuple, but got 3");
    expectInvalid("SELECT v FROM t WHERE k = 0 AND (b, c) = ('x', 2)", "Invalid STRING constant");
    expectInvalid(
        "SELECT v FROM t WHERE k = 0 AND (b, c) != (1, 2)", "Unsupported \"!=\" relation");
    // the engine's rules: a range not on the first open column, and two relations on one column
    expectInvalid(
        "SELECT v FROM t WHERE k = 0 AND (c) > (1) ALLOW FILTERING",
        "Multi-column slice restrictions cannot be used for filtering");
    expectInvalid(
        "SELECT v FROM t WHERE k = 0 AND b = 1 AND (b, c) = (1, 2)", "is restricted twice");
    // writes take no multi-column relation, as in Cassandra
    expectInvalid(
        "UPDATE t SET v = 'x' WHERE k = 0 AND (b, c) = (1, 2)",
        "Multi-column relations cannot be used in WHERE clauses for UPDATE and DELETE statements");
    expectInvalid(
        "DELETE FROM t WHERE k = 0 AND (b, c) = (1, 2)",
        "Multi-column relations cannot be used in WHERE clauses for UPDATE and DELETE statements");
  }

  @Test
  void filteringOnClusteringColumnsNeedsAllowFiltering() {
    // c restricted while b is not: refused without the opt-in, filtered with it
    assertThatThrownBy(() -> cql.execute("SELECT v FROM t WHERE k = 0 AND c = 1"))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("skips b")
        .hasMessageContaining("ALLOW FILTERING")
        .hasMessageNotContaining("allowFiltering()");
    assertThat(rows("SELECT v FROM t WHERE k = 0 AND c = 1 ALLOW FILTERING"))
        .containsExactly("0:01", "0:11", "0:21");
    // a restriction after a range
    assertThatThrownBy(() -> cql.execute("SELECT v FROM t WHERE k = 0 AND b > 0 AND c = 1"))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("after a range on b")
        .hasMessageContaining("ALLOW FILTERING");
    assertThat(rows("SELECT v FROM t WHERE k = 0 AND b > 0 AND c = 1 ALLOW FILTERING"))
        .containsExactly("0:11", "0:21");
    assertThat(rows("SELECT v FROM t WHERE k = 1 AND b < 2 AND c >= 1 ALLOW FILTERING"))
        .containsExactly("1:01", "1:02", "1:11", "1:12");
    // with a filter on a regular column, in several partitions, in the reverse of b DESC
    assertThat(
            rows(
                "SELECT v FROM d WHERE k IN (1, 0) AND c = 2 AND v > '0:1' ORDER BY b ASC"
                    + " ALLOW FILTERING"))
        .containsExactly("1:02", "0:12", "1:12", "0:22", "1:22");
  }

  @Test
  void orderByWithInOrdersTheWholeResult() {
    // without ORDER BY: partition by partition, in partition key order
    assertThat(rows("SELECT v FROM t WHERE k IN (1, 0) AND b = 2"))
        .containsExactly("0:20", "0:21", "0:22", "1:20", "1:21", "1:22");
    // with it: one order over both partitions (ties in partition key order)
    assertThat(rows("SELECT v FROM t WHERE k IN (1, 0) AND b = 2 ORDER BY c DESC"))
        .containsExactly("0:22", "1:22", "0:21", "1:21", "0:20", "1:20");
    assertThat(rows("SELECT v FROM t WHERE k IN (0, 1) ORDER BY b DESC, c DESC LIMIT 3"))
        .containsExactly("0:22", "1:22", "0:21");
    // ORDER BY b ASC on b DESC, c ASC is the reverse order: c descending within b
    assertThat(rows("SELECT v FROM d WHERE k IN (0, 1) AND b IN (0, 1) ORDER BY b ASC LIMIT 4"))
        .containsExactly("0:02", "1:02", "0:01", "1:01");
    // the ordering column need not be selected
    CqlResult r = cql.execute("SELECT v FROM t WHERE k IN (0, 1) AND b = 0 ORDER BY c DESC");
    assertThat(r.columns()).extracting(c -> c.name()).containsExactly("v");
    assertThat(keys(r)).containsExactly("0:02", "1:02", "0:01", "1:01", "0:00", "1:00");
    assertThatThrownBy(() -> cql.execute("SELECT v FROM t WHERE k IN (0, 1) ORDER BY c DESC"))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("ORDER BY");
  }

  @Test
  void orderedInQueriesPageToTheUnpagedResult() {
    String q = "SELECT v FROM t WHERE k IN (1, 0) ORDER BY b DESC, c DESC";
    List<String> unpaged = keys(cql.prepare(q).bind().fetchSize(0).execute());
    assertThat(unpaged).hasSize(18).startsWith("0:22", "1:22", "0:21");
    List<String> paged = new ArrayList<>();
    CqlResult page = cql.prepare(q).bind().fetchSize(4).execute();
    int pages = 1;
    paged.addAll(keys(page));
    while (page.hasMorePages()) {
      page = page.fetchNextPage();
      paged.addAll(keys(page));
      pages++;
    }
    assertThat(pages).isGreaterThanOrEqualTo(5);
    assertThat(paged).isEqualTo(unpaged);
  }

  @Test
  void perPartitionLimitOverAnOrderedInIsReadUnpagedWhenItsLimitFitsAPage() {
    String q = "SELECT v FROM t WHERE k IN (0, 1) ORDER BY b DESC, c DESC PER PARTITION LIMIT 2";
    // LIMIT within the fetch size: one page, no paging needed
    CqlResult r = cql.prepare(q + " LIMIT 3").bind().fetchSize(10).execute();
    assertThat(keys(r)).containsExactly("0:22", "1:22", "0:21");
    assertThat(r.hasMorePages()).isFalse();
    // unpaged
    assertThat(keys(cql.prepare(q).bind().fetchSize(0).execute()))
        .containsExactly("0:22", "1:22", "0:21", "1:21");
    // paged without a limit that fits: refused, saying how to read it
    assertThatThrownBy(() -> cql.prepare(q).bind().fetchSize(10).execute())
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("PER PARTITION LIMIT")
        .hasMessageContaining("fetch size")
        .hasMessageNotContaining("perPartitionLimit");
  }

  private void expectInvalid(String query, String message) {
    assertThatThrownBy(() -> cql.execute(query))
        .as(query)
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining(message);
  }
}
