package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlRow;
import dev.talus.cql.TalusSession;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * writetime(), maxwritetime() and ttl() of non-frozen collections and user types, of their
 * elements, slices and fields, as Cassandra 5.0 returns them: a list per cell for a whole column or
 * a slice, one value for an element or field, the greatest for maxwritetime.
 */
class WritetimeTtlPartsCqlTest {
  @TempDir Path dir;
  private CqlDb t;
  private TalusSession cql;

  @BeforeEach
  void schema() {
    t = new CqlDb(dir);
    cql = t.cql;
    cql.execute("CREATE TYPE pt (x int, y int)");
    cql.execute(
        "CREATE TABLE w (k int PRIMARY KEY, s set<int>, m map<text, int>, l list<int>, u pt,"
            + " fs frozen<set<int>>)");
    cql.execute(
        "INSERT INTO w (k, s, m, l, u, fs) VALUES (1, {1, 2}, {'a': 1}, [7], {x: 1}, {1})"
            + " USING TIMESTAMP 100");
    cql.execute(
        "UPDATE w USING TIMESTAMP 200 AND TTL 1000 SET s = s + {3}, m['b'] = 2 WHERE k = 1");
    cql.execute("UPDATE w USING TIMESTAMP 300 SET u.y = 5 WHERE k = 1");
  }

  @AfterEach
  void close() {
    t.close();
  }

  private static List<Object> longs(Object list) {
    return new java.util.ArrayList<>((List<?>) list);
  }

  private CqlRow one(String select) {
    List<CqlRow> rows = cql.execute(select).rows();
    assertThat(rows).hasSize(1);
    return rows.get(0);
  }

  @Test
  void aWholeMultiCellColumnGivesOneEntryPerCell() {
    CqlRow r =
        one(
            "SELECT writetime(s), maxwritetime(s), writetime(m), writetime(l), writetime(u),"
                + " maxwritetime(u) FROM w WHERE k = 1");
    assertThat(r.columns())
        .extracting(c -> c.name() + " " + c.type().cql())
        .containsExactly(
            "writetime(s) list<bigint>",
            "maxwritetime(s) bigint",
            "writetime(m) list<bigint>",
            "writetime(l) list<bigint>",
            "writetime(u) list<bigint>",
            "maxwritetime(u) bigint");
    assertThat(longs(r.get(0))).containsExactly(100L, 100L, 200L);
    assertThat(r.get(1)).isEqualTo(200L);
    assertThat(longs(r.get(2))).containsExactly(100L, 200L);
    assertThat(longs(r.get(3))).containsExactly(100L);
    assertThat(longs(r.get(4))).containsExactly(100L, 300L);
    assertThat(r.get(5)).isEqualTo(300L);
    List<?> ttls = (List<?>) one("SELECT ttl(s) FROM w WHERE k = 1").get(0);
    assertThat(ttls).hasSize(3);
    assertThat(ttls.get(0)).isNull();
    assertThat((Integer) ttls.get(2)).isBetween(1, 1000);
  }

  @Test
  void elementsSlicesAndFieldsPickTheirCells() {
    CqlRow r =
        one(
            "SELECT writetime(s[3]), writetime(s[9]), writetime(m['a']), writetime(s[2..]),"
                + " maxwritetime(s[..2]), writetime(u.y), writetime(u.x), ttl(m['b']), ttl(s[1])"
                + " FROM w WHERE k = 1");
    assertThat(r.columns())
        .extracting(c -> c.name() + " " + c.type().cql())
        .containsExactly(
            "writetime(s[3]) bigint",
            "writetime(s[9]) bigint",
            "writetime(m['a']) bigint",
            "writetime(s[2..]) list<bigint>",
            "maxwritetime(s[..2]) bigint",
            "writetime(u.y) bigint",
            "writetime(u.x) bigint",
            "ttl(m['b']) int",
            "ttl(s[1]) int");
    assertThat(r.get(0)).isEqualTo(200L);
    assertThat(r.get(1)).isNull();
    assertThat(r.get(2)).isEqualTo(100L);
    assertThat(longs(r.get(3))).containsExactly(100L, 200L);
    assertThat(r.get(4)).isEqualTo(100L);
    assertThat(r.get(5)).isEqualTo(300L);
    assertThat(r.get(6)).isEqualTo(100L);
    assertThat((Integer) r.get(7)).isBetween(1, 1000);
    assertThat(r.get(8)).isNull();
  }

  @Test
  void listElementsAreRefusedAndPartsOfFrozenValuesShareTheirCellsTime() {
    CqlInvalidRequestException list =
        catchThrowableOfType(
            CqlInvalidRequestException.class, () -> cql.execute("SELECT writetime(l[0]) FROM w"));
    assertThat(list.reason())
        .isEqualTo("Element selection is only allowed on sets and maps, but l is a list");
    assertThat(one("SELECT writetime(fs[1]) FROM w WHERE k = 1").get(0)).isEqualTo(100L);
    assertThat(one("SELECT writetime(fs) FROM w WHERE k = 1").get(0)).isEqualTo(100L);
  }
}
