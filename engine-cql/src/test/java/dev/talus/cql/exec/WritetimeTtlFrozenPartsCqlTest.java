package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlUnsupportedException;
import dev.talus.cql.TalusSession;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * writetime(), maxwritetime() and ttl() of an element, slice or field of a frozen value, and of a
 * part of a part, as Cassandra 5.0 computes them (its {@code WritetimeOrTTLTest}): a part of a
 * frozen value shares the time of the cell it lies in — one bigint (int for ttl), never a list — if
 * the part is there, and is null if it is absent (a missing element, a null field, a slice that
 * keeps nothing). Below an element or field of a non-frozen collection or user type, the cell is
 * that element's or field's.
 */
class WritetimeTtlFrozenPartsCqlTest {
  private static final long TS1 = 1;
  private static final long TS2 = 2;

  @TempDir Path dir;
  private CqlDb t;
  private TalusSession cql;

  @BeforeEach
  void schema() {
    t = new CqlDb(dir);
    cql = t.cql;
    cql.execute("CREATE TYPE pt (x int, y int)");
    cql.execute("CREATE TYPE pair (a frozen<pt>, b frozen<pt>)");
    cql.execute(
        "CREATE TABLE f (k int PRIMARY KEY, fs frozen<set<int>>, fm frozen<map<int, int>>,"
            + " fu frozen<pt>, nm map<int, frozen<set<int>>>, np pair,"
            + " fnm frozen<map<int, frozen<set<int>>>>)");
  }

  @AfterEach
  void close() {
    t.close();
  }

  private Object value(String selector, int k) {
    CqlResult r = cql.execute("SELECT " + selector + " FROM f WHERE k = " + k);
    assertThat(r.rows()).as(selector).hasSize(1);
    return r.rows().get(0).get(0);
  }

  private void times(int k, Object expected, String... parts) {
    for (String p : parts) {
      assertThat(value("writetime(" + p + ")", k)).as("writetime(%s)", p).isEqualTo(expected);
      assertThat(value("maxwritetime(" + p + ")", k)).as("maxwritetime(%s)", p).isEqualTo(expected);
    }
  }

  @Test
  void partsOfAFrozenSetShareItsTimeIfThere() {
    cql.execute("INSERT INTO f (k, fs) VALUES (1, {1, 2}) USING TIMESTAMP 1 AND TTL 10000");
    times(1, TS1, "fs", "fs[1]", "fs[2]", "fs[..1]", "fs[0..]", "fs[2..]", "fs[0..1]", "fs[1..1]");
    times(1, null, "fs[0]", "fs[3]", "fs[..0]", "fs[3..]", "fs[0..0]", "fs[3..4]", "fs[2..1]");
    assertThat(value("ttl(fs[1])", 1)).isEqualTo(10000);
    assertThat(value("ttl(fs[0..])", 1)).isEqualTo(10000);
    assertThat(value("ttl(fs[0])", 1)).isNull();
    CqlResult r = cql.execute("SELECT writetime(fs[1]), ttl(fs[..2]) FROM f WHERE k = 1");
    assertThat(r.columns())
        .extracting(c -> c.name() + " " + c.type().cql())
        .containsExactly("writetime(fs[1]) bigint", "ttl(fs[..2]) int");
  }

  @Test
  void anEmptyFrozenSetHasATimeButNoneOfItsPartsDo() {
    cql.execute("INSERT INTO f (k, fs) VALUES (2, {}) USING TIMESTAMP 1");
    times(2, TS1, "fs");
    times(2, null, "fs[0]", "fs[0..]", "fs[..0]");
    cql.execute("INSERT INTO f (k) VALUES (3) USING TIMESTAMP 1"); // no value at all
    times(3, null, "fs", "fs[0]", "fs[0..]", "fm[1]", "fu.x", "fnm[1][1]");
  }

  @Test
  void entriesOfAFrozenMapAndFieldsOfAFrozenUserType() {
    cql.execute(
        "INSERT INTO f (k, fm, fu) VALUES (1, {1: 10, 2: 20}, {x: 1, y: null}) USING TIMESTAMP 2");
    times(1, TS2, "fm[1]", "fm[..1]", "fm[2..]", "fu", "fu.x");
    times(1, null, "fm[3]", "fm[3..]", "fm[0..0]", "fu.y");
    cql.execute("INSERT INTO f (k, fu) VALUES (2, {x: null, y: null}) USING TIMESTAMP 1");
    times(2, TS1, "fu");
    times(2, null, "fu.x", "fu.y");
  }

  @Test
  void partsOfAnElementOfANonFrozenMapTakeThatElementsCell() {
    cql.execute("INSERT INTO f (k, nm) VALUES (1, {1: {1, 2}}) USING TIMESTAMP 1 AND TTL 10000");
    cql.execute("UPDATE f USING TIMESTAMP 2 AND TTL 20000 SET nm = nm + {2: {1, 2}} WHERE k = 1");
    times(1, TS1, "nm[1]", "nm[1][1]", "nm[1][2]", "nm[1][0..1]", "nm[1][2..3]");
    times(1, TS2, "nm[2]", "nm[2][1]", "nm[2][..5]");
    times(1, null, "nm[0]", "nm[3]", "nm[1][0]", "nm[1][3]", "nm[3][1]", "nm[1][3..4]");
    assertThat(value("ttl(nm[2][2])", 1)).isEqualTo(20000);
    assertThat(value("ttl(nm[1][2])", 1)).isEqualTo(10000);
    assertThat(value("ttl(nm[1][9])", 1)).isNull();
  }

  @Test
  void fieldsOfAFrozenFieldOfANonFrozenUserType() {
    cql.execute("INSERT INTO f (k, np) VALUES (1, {a: {x: null, y: null}}) USING TIMESTAMP 1");
    cql.execute("UPDATE f USING TIMESTAMP 2 SET np.b = {x: 5} WHERE k = 1");
    times(1, TS1, "np.a");
    times(1, TS2, "np.b", "np.b.x");
    times(1, null, "np.a.x", "np.a.y", "np.b.y");
  }

  @Test
  void partsOfPartsOfAFrozenNestedMap() {
    cql.execute("INSERT INTO f (k, fnm) VALUES (1, {1: {1, 2}, 2: {1, 2}}) USING TIMESTAMP 1");
    times(1, TS1, "fnm[1]", "fnm[1][1]", "fnm[2][2]", "fnm[0..1]", "fnm[0..1][1]", "fnm[1][..1]");
    times(1, null, "fnm[0]", "fnm[0][1]", "fnm[1][3]", "fnm[0..0]", "fnm[1..2][3]", "fnm[1][3..]");
  }

  @Test
  void aPartOfASliceOfANonFrozenCollectionAndAListElementAreRefused() {
    CqlUnsupportedException slice =
        catchThrowableOfType(
            CqlUnsupportedException.class,
            () -> cql.execute("SELECT writetime(nm[0..2][1]) FROM f"));
    assertThat(slice.planned()).isTrue();
    assertThat(slice.feature()).contains("part of a slice of a non-frozen collection");
    cql.execute("CREATE TABLE fl (k int PRIMARY KEY, l frozen<list<int>>)");
    CqlInvalidRequestException list =
        catchThrowableOfType(
            CqlInvalidRequestException.class, () -> cql.execute("SELECT writetime(l[0]) FROM fl"));
    assertThat(list.reason())
        .isEqualTo("Element selection is only allowed on sets and maps, but l is a list");
  }
}
