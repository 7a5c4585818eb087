package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.talus.cql.BoundCql;
import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlRow;
import dev.talus.cql.PreparedCql;
import dev.talus.cql.TalusSession;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Element and slice selection in selectors ({@code s['a']}, {@code s[a..b]}, {@code m['a'..]},
 * {@code m[..'c']}) on sets and maps, frozen and not, with literals and bind markers, in SELECT and
 * SELECT JSON, with Cassandra 5.0's result types, column names, empty results and errors.
 */
class SliceSelectionCqlTest {
  @TempDir Path dir;
  private CqlDb t;
  private TalusSession cql;

  @BeforeEach
  void schema() {
    t = new CqlDb(dir);
    cql = t.cql;
    cql.execute(
        "CREATE TABLE c (k int PRIMARY KEY, s set<int>, m map<text, int>, fs frozen<set<int>>,"
            + " fm frozen<map<text, int>>, l list<int>)");
    cql.execute(
        "INSERT INTO c (k, s, m, fs, fm, l) VALUES (1, {1, 3, 5, 7}, {'a': 1, 'b': 2, 'd': 4},"
            + " {1, 3, 5, 7}, {'a': 1, 'b': 2, 'd': 4}, [1, 2])");
  }

  @AfterEach
  void close() {
    t.close();
  }

  private CqlRow one(String select, Object... values) {
    List<CqlRow> rows = cql.execute(select, values).rows();
    assertThat(rows).hasSize(1);
    return rows.get(0);
  }

  @Test
  void setSlicesKeepTheElementsBetweenInclusiveBounds() {
    CqlRow r = one("SELECT s[3..5], s[2..], s[..3], s[4..4], fs[3..6] FROM c WHERE k = 1");
    assertThat(r.columns())
        .extracting(col -> col.name())
        .containsExactly("s[3..5]", "s[2..]", "s[..3]", "s[4..4]", "fs[3..6]");
    assertThat(r.columns())
        .extracting(col -> col.type().cql())
        .containsExactly("set<int>", "set<int>", "set<int>", "set<int>", "frozen<set<int>>");
    assertThat(items(r.get(0))).containsExactly(3, 5);
    assertThat(items(r.get(1))).containsExactly(3, 5, 7);
    assertThat(items(r.get(2))).containsExactly(1, 3);
    assertThat(r.get(3)).as("an empty slice of a non-frozen set is null").isNull();
    assertThat(items(r.get(4))).containsExactly(3, 5);
  }

  @Test
  void mapSlicesKeepTheEntriesWhoseKeysLieBetweenTheBounds() {
    CqlRow r = one("SELECT m['b'..'c'], m['b'..], m[..'b'], fm['x'..], m['c'] FROM c WHERE k = 1");
    assertThat(r.columns())
        .extracting(col -> col.name())
        .containsExactly("m['b'..'c']", "m['b'..]", "m[..'b']", "fm['x'..]", "m['c']");
    assertThat(map(r.get(0))).containsExactly(Map.entry("b", 2));
    assertThat(map(r.get(1))).containsExactly(Map.entry("b", 2), Map.entry("d", 4));
    assertThat(map(r.get(2))).containsExactly(Map.entry("a", 1), Map.entry("b", 2));
    assertThat((Map<?, ?>) r.get(3)).as("an empty slice of a frozen map is empty").isEmpty();
    assertThat(r.get(4)).isNull();
  }

  @Test
  void slicesOfBlobAndTimestampSetsFollowTheTypesOrder() {
    cql.execute("CREATE TABLE b (k int PRIMARY KEY, bs set<blob>, ts set<timestamp>)");
    cql.execute(
        "INSERT INTO b (k, bs, ts) VALUES (1, {0x01, 0x7f, 0xff}, {'2026-01-01', '2026-02-01'})");
    CqlRow r = one("SELECT bs[0x02..], ts[..'2026-01-15'], bs[0x01] FROM b WHERE k = 1");
    assertThat(items(r.get(0)))
        .containsExactly(
            java.nio.ByteBuffer.wrap(new byte[] {0x7f}), java.nio.ByteBuffer.wrap(new byte[] {-1}));
    assertThat(items(r.get(1))).containsExactly(java.time.Instant.parse("2026-01-01T00:00:00Z"));
    assertThat(r.get(2)).isEqualTo(new byte[] {1});
    cql.execute("CREATE TABLE mb (k int PRIMARY KEY, m map<blob, blob>)");
    cql.execute("INSERT INTO mb (k, m) VALUES (1, {0x01: 0x0a, 0x02: 0x0b})");
    assertThat(one("SELECT m[0x02] FROM mb WHERE k = 1").get(0)).isEqualTo(new byte[] {0x0b});
  }

  @Test
  void reversedBoundsGiveNothingAndAnAbsentCollectionGivesNull() {
    cql.execute("INSERT INTO c (k) VALUES (2)");
    assertThat(one("SELECT s[5..3], fs[5..3] FROM c WHERE k = 1").get(0)).isNull();
    assertThat((Set<?>) one("SELECT fs[5..3] FROM c WHERE k = 1").get(0)).isEmpty();
    CqlRow absent = one("SELECT s[1..3], m['a'..] FROM c WHERE k = 2");
    assertThat(absent.get(0)).isNull();
    assertThat(absent.get(1)).isNull();
  }

  @Test
  void bindMarkersBindTheBoundsAndUnsetLeavesASideOpen() {
    PreparedCql p = cql.prepare("SELECT s[?..?], m[:lo..:hi] FROM c WHERE k = 1");
    CqlRow r = p.execute(3, 6, "a", "b").rows().get(0);
    assertThat(items(r.get(0))).containsExactly(3, 5);
    assertThat(map(r.get(1))).containsExactly(Map.entry("a", 1), Map.entry("b", 2));
    CqlRow open = p.execute(BoundCql.UNSET, 4, "b", BoundCql.UNSET).rows().get(0);
    assertThat(items(open.get(0))).containsExactly(1, 3);
    assertThat(map(open.get(1))).containsExactly(Map.entry("b", 2), Map.entry("d", 4));
    CqlInvalidRequestException e =
        catchThrowableOfType(CqlInvalidRequestException.class, () -> p.execute(null, 4, "a", "b"));
    assertThat(e).isNotNull();
    assertThat(e.reason()).isEqualTo("Invalid null value for slice selection on s");
  }

  @Test
  void aNullOrUnsetElementKeyIsRefusedAsCassandraRefusesIt() {
    PreparedCql p = cql.prepare("SELECT m[?] FROM c WHERE k = 1");
    assertThat(p.execute("d").rows().get(0).get(0)).isEqualTo(4);
    CqlInvalidRequestException nul =
        catchThrowableOfType(CqlInvalidRequestException.class, () -> p.execute((Object) null));
    assertThat(nul.reason()).isEqualTo("Invalid null value for element selection on m");
    CqlInvalidRequestException unset =
        catchThrowableOfType(CqlInvalidRequestException.class, () -> p.execute(BoundCql.UNSET));
    assertThat(unset.reason()).isEqualTo("Invalid unset value for element selection on m");
  }

  @Test
  void selectJsonWritesSlicesUnderTheirQuotedColumnNames() {
    CqlRow r = one("SELECT JSON s[3..5], m['b'..] FROM c WHERE k = 1");
    // a key that is not a plain identifier is quoted as a CQL name, like "system.max(c)"
    assertThat(r.getString(0))
        .isEqualTo("{\"\\\"s[3..5]\\\"\": [3, 5], \"\\\"m['b'..]\\\"\": {\"b\": 2, \"d\": 4}}");
  }

  @Test
  void listsAndNonCollectionsAreRefusedWithCassandrasMessage() {
    CqlInvalidRequestException list =
        catchThrowableOfType(
            CqlInvalidRequestException.class, () -> cql.execute("SELECT l[1..3] FROM c"));
    assertThat(list.reason())
        .isEqualTo("Slice selection is only allowed on sets and maps, but l is a list");
    CqlInvalidRequestException element =
        catchThrowableOfType(
            CqlInvalidRequestException.class, () -> cql.execute("SELECT l[0] FROM c"));
    assertThat(element.reason())
        .isEqualTo("Element selection is only allowed on sets and maps, but l is a list");
    CqlInvalidRequestException badBound =
        catchThrowableOfType(
            CqlInvalidRequestException.class, () -> cql.execute("SELECT s['a'..] FROM c"));
    assertThat(badBound).isNotNull();
  }

  /** Random sets, maps and bounds: every slice equals a naive filter of the whole collection. */
  @Test
  void slicesMatchANaiveFilterOfTheWholeCollection() {
    long seed = Long.getLong("talus.test.seed", System.nanoTime());
    System.out.println("SliceSelectionCqlTest seed = " + seed + " (replay: -Dtalus.test.seed=)");
    Random rnd = new Random(seed);
    PreparedCql write = cql.prepare("INSERT INTO c (k, s, m, fs) VALUES (?, ?, ?, ?)");
    PreparedCql read = cql.prepare("SELECT s[?..?], m[?..?], fs[?..?] FROM c WHERE k = ?");
    for (int i = 0; i < 200; i++) {
      TreeSet<Integer> s = new TreeSet<>();
      TreeMap<String, Integer> m = new TreeMap<>();
      for (int n = rnd.nextInt(8); n > 0; n--) {
        s.add(rnd.nextInt(21) - 10);
        m.put(String.valueOf((char) ('a' + rnd.nextInt(10))), rnd.nextInt(100));
      }
      int k = 100 + i;
      write.execute(k, s, m, s);
      Integer lo = rnd.nextInt(4) == 0 ? null : rnd.nextInt(25) - 12;
      Integer hi = rnd.nextInt(4) == 0 ? null : rnd.nextInt(25) - 12;
      String mlo = rnd.nextInt(4) == 0 ? null : String.valueOf((char) ('a' + rnd.nextInt(11)));
      String mhi = rnd.nextInt(4) == 0 ? null : String.valueOf((char) ('a' + rnd.nextInt(11)));
      CqlRow r =
          read.execute(unset(lo), unset(hi), unset(mlo), unset(mhi), unset(lo), unset(hi), k)
              .rows()
              .get(0);
      List<Integer> expected = new ArrayList<>();
      for (int e : s) {
        if ((lo == null || lo <= e) && (hi == null || e <= hi)) {
          expected.add(e);
        }
      }
      Map<String, Integer> expectedMap = new LinkedHashMap<>();
      m.forEach(
          (key, v) -> {
            if ((mlo == null || mlo.compareTo(key) <= 0)
                && (mhi == null || key.compareTo(mhi) <= 0)) {
              expectedMap.put(key, v);
            }
          });
      String at = "seed " + seed + " row " + k + " s=" + s + " [" + lo + ".." + hi + "]";
      if (expected.isEmpty()) {
        assertThat(r.get(0)).as(at).isNull();
        assertThat((Set<?>) r.get(2)).as(at).isEmpty();
      } else {
        assertThat(items(r.get(0))).as(at).isEqualTo(expected);
        assertThat(items(r.get(2))).as(at).isEqualTo(expected);
      }
      String mat = "seed " + seed + " row " + k + " m=" + m + " [" + mlo + ".." + mhi + "]";
      if (expectedMap.isEmpty()) {
        assertThat(r.get(1)).as(mat).isNull();
      } else {
        assertThat(new ArrayList<>(((Map<?, ?>) r.get(1)).entrySet()))
            .as(mat)
            .isEqualTo(new ArrayList<>(expectedMap.entrySet()));
      }
    }
  }

  private static List<Object> items(Object collection) {
    return new ArrayList<>((Set<?>) collection);
  }

  private static Map<Object, Object> map(Object m) {
    return new LinkedHashMap<>((Map<?, ?>) m);
  }

  private static Object unset(Object bound) {
    return bound == null ? BoundCql.UNSET : bound;
  }
}
