package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.TupleValue;
import dev.talus.cql.CqlColumn;
import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlRow;
import dev.talus.cql.PreparedCql;
import dev.talus.cql.TalusSession;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole tuple bound to one marker in a multi-column relation, as Cassandra 5.0 binds it ({@code
 * Tuples.makeReceiver}/{@code makeInReceiver}, {@code SelectMultiColumnRelationTest}): {@code (b,
 * c) > ?} and each marker of {@code (b, c) IN (?, ?)} take a tuple of the columns' types named
 * {@code (b,c)}; {@code (b, c) IN ?} takes a list of such tuples named {@code in(b,c)}. Each query
 * is checked against the same query written with one marker per element.
 */
class WholeTupleMarkersCqlTest {
  @TempDir Path dir;
  private CqlDb t;
  private TalusSession cql;

  @BeforeEach
  void schema() {
    t = new CqlDb(dir);
    cql = t.cql;
    cql.execute("CREATE TABLE t (k int, b int, c text, v text, PRIMARY KEY (k, b, c))");
    cql.execute(
        "CREATE TABLE d (k int, b int, c text, v text, PRIMARY KEY (k, b, c))"
            + " WITH CLUSTERING ORDER BY (b DESC, c ASC)");
    for (String table : List.of("t", "d")) {
      PreparedCql ins = cql.prepare("INSERT INTO " + table + " (k, b, c, v) VALUES (?, ?, ?, ?)");
      for (int k = 0; k < 2; k++) {
        for (int b = 0; b < 3; b++) {
          for (String c : List.of("x", "y", "z")) {
            ins.execute(k, b, c, k + ":" + b + c);
          }
        }
      }
    }
  }

  @AfterEach
  void close() {
    t.close();
  }

  private static List<String> values(CqlResult r) {
    List<String> out = new ArrayList<>();
    for (CqlRow row : r) {
      out.add(row.getString("v"));
    }
    return out;
  }

  private static TupleValue tuple(int b, String c) {
    return TupleValue.of(b, c);
  }

  @Test
  void aSliceTakesOneTupleTypedByTheColumns() {
    PreparedCql gt = cql.prepare("SELECT v FROM t WHERE k = ? AND (b, c) > ?");
    CqlColumn marker = gt.variables().get(1);
    assertThat(marker.name()).isEqualTo("(b,c)");
    assertThat(marker.type().cql()).isEqualTo("tuple<int, text>");
    assertThat(marker.table()).isEqualTo("t");
    assertThat(values(gt.execute(0, tuple(1, "y"))))
        .containsExactly("0:1z", "0:2x", "0:2y", "0:2z")
        .isEqualTo(values(cql.execute("SELECT v FROM t WHERE k = 0 AND (b, c) > (1, 'y')")));
    // by index and by name, and two bounds
    PreparedCql range =
        cql.prepare("SELECT v FROM t WHERE k = 1 AND (b, c) >= :lo AND (b, c) < :hi");
    assertThat(range.variables()).extracting(CqlColumn::name).containsExactly("lo", "hi");
    assertThat(values(range.bind().set("hi", tuple(1, "y")).set("lo", tuple(0, "z")).execute()))
        .containsExactly("1:0z", "1:1x");
    assertThat(values(range.bind().set(0, tuple(0, "z")).set(1, tuple(1, "y")).execute()))
        .containsExactly("1:0z", "1:1x");
    // the other comparisons, on a DESC column: tuple order by value, rows in clustering order
    assertThat(
            values(
                cql.prepare("SELECT v FROM d WHERE k = 0 AND (b, c) <= ?").execute(tuple(1, "x"))))
        .containsExactly("0:1x", "0:0x", "0:0y", "0:0z");
    assertThat(
            values(
                cql.prepare("SELECT v FROM d WHERE k = 0 AND (b, c) < ?").execute(tuple(1, "x"))))
        .containsExactly("0:0x", "0:0y", "0:0z");
    assertThat(
            values(
                cql.prepare("SELECT v FROM d WHERE k = 0 AND (b, c) >= ?").execute(tuple(1, "z"))))
        .containsExactly("0:2x", "0:2y", "0:2z", "0:1z");
  }

  @Test
  void anEqualityTakesOneTuple() {
    PreparedCql eq = cql.prepare("SELECT v FROM t WHERE k = 0 AND (b, c) = ?");
    assertThat(eq.variables().get(0).type().cql()).isEqualTo("tuple<int, text>");
    assertThat(values(eq.execute(tuple(2, "x")))).containsExactly("0:2x");
    assertThat(values(eq.execute(tuple(2, "w")))).isEmpty();
    // a one-column tuple
    PreparedCql one = cql.prepare("SELECT v FROM t WHERE k = 0 AND (b) = ?");
    assertThat(one.variables().get(0).name()).isEqualTo("(b)");
    assertThat(values(one.execute(TupleValue.of(1)))).containsExactly("0:1x", "0:1y", "0:1z");
  }

  @Test
  void inTakesAListOfTuplesOrOneTuplePerMarker() {
    PreparedCql in = cql.prepare("SELECT v FROM t WHERE k = 1 AND (b, c) IN ?");
    CqlColumn marker = in.variables().get(0);
    assertThat(marker.name()).isEqualTo("in(b,c)");
    assertThat(marker.type().cql()).isEqualTo("list<tuple<int, text>>");
    // read in clustering order, each once, as the literal list
    assertThat(values(in.execute(List.of(tuple(2, "x"), tuple(0, "y"), tuple(2, "x")))))
        .containsExactly("1:0y", "1:2x")
        .isEqualTo(
            values(cql.execute("SELECT v FROM t WHERE k = 1 AND (b, c) IN ((2, 'x'), (0, 'y'))")));
    assertThat(values(in.execute(List.of()))).isEmpty();
    assertThat(values(in.bind().set("in(b,c)", List.of(tuple(1, "z"))).execute()))
        .containsExactly("1:1z");

    PreparedCql each = cql.prepare("SELECT v FROM d WHERE k = 0 AND (b, c) IN (?, :second)");
    assertThat(each.variables()).extracting(CqlColumn::name).containsExactly("(b,c)", "second");
    assertThat(each.variables()).extracting(v -> v.type().cql()).containsOnly("tuple<int, text>");
    assertThat(values(each.execute(tuple(0, "z"), tuple(2, "y")))).containsExactly("0:2y", "0:0z");
    assertThat(values(each.bind().set(0, tuple(0, "z")).set("second", tuple(0, "x")).execute()))
        .containsExactly("0:0x", "0:0z");
  }

  @Test
  void badTuplesAreInvalidRequests() {
    PreparedCql gt = cql.prepare("SELECT v FROM t WHERE k = 0 AND (b, c) > ?");
    assertThatThrownBy(() -> gt.execute(TupleValue.of(1, "x", 3)))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("Expected 2 elements in value tuple, but got 3");
    assertThatThrownBy(() -> gt.execute(TupleValue.of(1, null)))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("Invalid null value in condition for column c");
    assertThatThrownBy(() -> gt.execute(TupleValue.of("1", "x")))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("Invalid value for column b in the tuple bound to (b,c)");
    assertThatThrownBy(() -> gt.execute((Object) null))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("Invalid null value in condition for (b,c)");
    assertThatThrownBy(() -> gt.bind().unset(0).execute())
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("Invalid unset value for (b,c)");
    assertThatThrownBy(() -> gt.execute(List.of(1, "x")))
        .isInstanceOf(CqlInvalidRequestException.class);
    PreparedCql in = cql.prepare("SELECT v FROM t WHERE k = 0 AND (b, c) IN ?");
    assertThatThrownBy(() -> in.execute((Object) null))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("Invalid null value for IN restriction on (b,c)");
    assertThatThrownBy(() -> in.execute(Arrays.asList(tuple(1, "x"), null)))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("Invalid null value in the list bound to in(b,c)");
    assertThatThrownBy(() -> in.execute(List.of(TupleValue.of(1))))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("Expected 2 elements in value tuple, but got 1");
  }
}
