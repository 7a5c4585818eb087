package dev.talus.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.InvalidQueryException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The array-backed result row: lookups by name, absent write times and TTLs, copies, equality. */
class RowViewTest {
  private final RowView.Shape shape = new RowView.Shape(List.of("p", "seq", "v", "w"));

  private static long[] times(long... t) {
    return t;
  }

  @Test
  void valuesWriteTimesAndTtlsByName() {
    long none = RowView.noWriteTime();
    int noTtl = RowView.noTtl();
    RowView r =
        new RowView(
            shape,
            new Object[] {1, 2L, new byte[] {7}, null},
            times(none, none, 1234L, none),
            new int[] {noTtl, noTtl, 60, noTtl});
    assertThat(r.columns()).containsExactly("p", "seq", "v", "w");
    assertThat(r.get("p")).isEqualTo(1);
    assertThat(r.get("seq", Long.class)).isEqualTo(2L);
    assertThat(r.writeTime("v")).isEqualTo(1234L);
    assertThat(r.ttl("v")).isEqualTo(60);
    assertThat(r.writeTime("p")).isNull();
    assertThat(r.ttl("seq")).isNull();
    assertThat(r.get("w")).isNull();
    assertThat(r.writeTime("w")).isNull();
    // blobs are copied out
    byte[] v = (byte[]) r.get("v");
    v[0] = 9;
    assertThat((byte[]) r.get("v")).containsExactly(7);
  }

  @Test
  void rowsWithoutAnyWriteTimeOrTtlNeedNoArrays() {
    RowView r = new RowView(shape, new Object[] {1, 2L, null, null}, null, null);
    assertThat(r.writeTime("v")).isNull();
    assertThat(r.ttl("v")).isNull();
  }

  @Test
  void unknownColumnsAreRefusedWithTheSelectedOnes() {
    RowView r = new RowView(shape, new Object[4], null, null);
    assertThatThrownBy(() -> r.get("x"))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("[p, seq, v, w]");
    assertThatThrownBy(() -> r.writeTime("x")).isInstanceOf(InvalidQueryException.class);
    assertThatThrownBy(() -> r.ttl("x")).isInstanceOf(InvalidQueryException.class);
  }

  @Test
  void aColumnSelectedTwiceReadsTheSameValue() {
    RowView.Shape twice = new RowView.Shape(List.of("v", "p", "v"));
    RowView r = new RowView(twice, new Object[] {5, 1, 5}, null, null);
    assertThat(r.get("v")).isEqualTo(5);
    assertThat(r.columns()).containsExactly("v", "p", "v");
  }

  @Test
  void equalityFollowsColumnsAndValues() {
    RowView a = new RowView(shape, new Object[] {1, 2L, new byte[] {7}, null}, null, null);
    RowView b = new RowView(shape, new Object[] {1, 2L, new byte[] {7}, null}, null, null);
    RowView c = new RowView(shape, new Object[] {1, 3L, new byte[] {7}, null}, null, null);
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b).isNotEqualTo(c);
    assertThat(a.toString()).isEqualTo("{p=1, seq=2, v=[7], w=null}");
  }

  /** WritetimeOrTTLTest.testSimple: writetime() and ttl() of a primary key column are errors. */
  @Test
  void writeTimeAndTtlOfKeyColumnsAreRefused() {
    RowView.Shape keyed =
        new RowView.Shape(List.of("p", "seq", "v"), new boolean[] {true, true, false});
    RowView r = new RowView(keyed, new Object[] {1, 2L, 3}, times(5, 5, 7), null);
    assertThatThrownBy(() -> r.writeTime("p"))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("Cannot use selection function writetime on PRIMARY KEY part p");
    assertThatThrownBy(() -> r.ttl("seq"))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("Cannot use selection function ttl on PRIMARY KEY part seq");
    assertThat(r.writeTime("v")).isEqualTo(7L);
    assertThat(r.get("p")).isEqualTo(1);
  }
}
