package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.talus.TupleValue;
import dev.talus.UdtValue;
import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlRow;
import dev.talus.cql.TalusSession;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Collections, frozen values, tuples, user types and vectors through CQL: the DDL, literals and
 * bind markers, the collection operations of UPDATE, element deletions, element and field
 * selection, CONTAINS, with Cassandra's errors.
 */
class CompositeValuesCqlTest {
  @TempDir Path dir;
  private CqlDb t;
  private TalusSession cql;

  @BeforeEach
  void schema() {
    t = new CqlDb(dir);
    cql = t.cql;
    cql.execute("CREATE TYPE address (street text, city text, zip int)");
    cql.execute(
        "CREATE TABLE v (k int PRIMARY KEY, tags set<text>, scores map<text, int>,"
            + " events list<text>, pair tuple<int, text>, home address, office frozen<address>,"
            + " fs frozen<set<int>>, emb vector<float, 3>)");
  }

  @AfterEach
  void close() {
    t.close();
  }

  private static List<Object> items(Object collection) {
    return new java.util.ArrayList<>((java.util.Collection<?>) collection);
  }

  private static Map<Object, Object> map(Object m) {
    return new java.util.LinkedHashMap<>((Map<?, ?>) m);
  }

  private CqlRow one(String select) {
    List<CqlRow> rows = cql.execute(select).rows();
    assertThat(rows).hasSize(1);
    return rows.get(0);
  }

  @Test
  void literalsOfEveryKindRoundTrip() {
    cql.execute(
        "INSERT INTO v (k, tags, scores, events, pair, home, office, fs, emb) VALUES (1,"
            + " {'b', 'a', 'b'}, {'x': 1, 'y': 2}, ['e1', 'e2', 'e1'], (7, 'seven'),"
            + " {street: 'Main', city: 'Oslo'}, {city: 'Rome', zip: 100}, {3, 1, 2},"
            + " [1.5, 2, -3])");
    CqlRow r = one("SELECT * FROM v WHERE k = 1");
    assertThat(items(r.get("tags"))).containsExactly("a", "b");
    assertThat(map(r.get("scores"))).containsExactly(Map.entry("x", 1), Map.entry("y", 2));
    assertThat(items(r.get("events"))).containsExactly("e1", "e2", "e1");
    assertThat(r.get("pair")).isEqualTo(TupleValue.of(7, "seven"));
    UdtValue home = r.get("home", UdtValue.class);
    assertThat(home.get("street")).isEqualTo("Main");
    assertThat(home.get("city")).isEqualTo("Oslo");
    assertThat(home.get("zip")).isNull();
    assertThat(r.get("office", UdtValue.class).get("zip")).isEqualTo(100);
    assertThat(items(r.get("fs"))).containsExactly(1, 2, 3);
    assertThat((float[]) r.get("emb")).containsExactly(1.5f, 2f, -3f);
    assertThat(r.columns())
        .extracting(c -> c.name() + " " + c.type().cql())
        .contains(
            "fs frozen<set<int>>",
            "emb vector<float, 3>",
            "pair tuple<int, text>",
            "home address",
            "office frozen<address>",
            "scores map<text, int>");
  }

  @Test
  void selectJsonWritesCompositeValuesAsCassandraDoes() {
    cql.execute(
        "INSERT INTO v (k, tags, scores, pair, office, emb) VALUES (1, {'a', 'b'}, {'x': 1},"
            + " (7, 'seven'), {city: 'Rome'}, [1, 2, 3])");
    String json =
        cql.execute("SELECT JSON tags, scores, pair, office, emb FROM v WHERE k = 1")
            .rows()
            .get(0)
            .getString(0);
    assertThat(json)
        .isEqualTo(
            "{\"tags\": [\"a\", \"b\"], \"scores\": {\"x\": 1}, \"pair\": [7, \"seven\"],"
                + " \"office\": {\"street\": null, \"city\": \"Rome\", \"zip\": null},"
                + " \"emb\": [1.0, 2.0, 3.0]}");
  }

  @Test
  void collectionOperationsOfUpdate() {
    cql.execute("INSERT INTO v (k, tags, scores, events) VALUES (1, {'a'}, {'x': 1}, ['m'])");
    cql.execute("UPDATE v SET tags = tags + {'b', 'c'}, scores['y'] = 2 WHERE k = 1");
    cql.execute("UPDATE v SET tags = tags - {'a'}, scores = scores - {'x'} WHERE k = 1");
    cql.execute("UPDATE v SET events = events + ['z'] WHERE k = 1");
    cql.execute("UPDATE v SET events = ['a'] + events WHERE k = 1");
    cql.execute("UPDATE v SET events[1] = 'M' WHERE k = 1");
    cql.execute("UPDATE v SET home.city = 'Bergen', scores = scores + {'z': 26} WHERE k = 1");
    CqlRow r = one("SELECT tags, scores, events, home FROM v WHERE k = 1");
    assertThat(items(r.get("tags"))).containsExactly("b", "c");
    assertThat(map(r.get("scores"))).containsExactly(Map.entry("y", 2), Map.entry("z", 26));
    assertThat(items(r.get("events"))).containsExactly("a", "M", "z");
    assertThat(r.get("home", UdtValue.class).get("city")).isEqualTo("Bergen");

    cql.execute("DELETE scores['y'], events[0], home.city FROM v WHERE k = 1");
    r = one("SELECT scores, events, home FROM v WHERE k = 1");
    assertThat(map(r.get("scores"))).containsExactly(Map.entry("z", 26));
    assertThat(items(r.get("events"))).containsExactly("M", "z");
    assertThat(r.get("home")).isNull(); // its only field deleted: an empty non-frozen UDT

    cql.execute("UPDATE v SET tags = {} WHERE k = 1");
    assertThat(one("SELECT tags FROM v WHERE k = 1").get("tags")).isNull();
  }

  @Test
  void bindMarkersForWholeValuesAndInsideLiterals() {
    cql.prepare("INSERT INTO v (k, tags, scores, pair, home) VALUES (?, ?, ?, ?, ?)")
        .bind(
            2,
            Set.of("q"),
            Map.of("a", 1),
            TupleValue.of(1, "one"),
            t.db.type("address").orElseThrow().value(Map.of("city", "Lyon")))
        .execute();
    cql.prepare("UPDATE v SET tags = tags + {?, ?}, scores[?] = ?, pair = (?, 'two') WHERE k = ?")
        .bind("r", "s", "b", 2, 2, 2)
        .execute();
    CqlRow r = one("SELECT tags, scores, pair, home.city FROM v WHERE k = 2");
    assertThat(items(r.get("tags"))).containsExactly("q", "r", "s");
    assertThat(map(r.get("scores"))).containsExactly(Map.entry("a", 1), Map.entry("b", 2));
    assertThat(r.get("pair")).isEqualTo(TupleValue.of(2, "two"));
    assertThat(r.get("home.city")).isEqualTo("Lyon");
    assertThat(cql.prepare("UPDATE v SET scores[?] = ? WHERE k = ?").variables())
        .extracting(c -> c.name() + " " + c.type().cql())
        .containsExactly("key(scores) text", "value(scores) int", "k int");
  }

  @Test
  void elementSelectionAndContains() {
    cql.execute("INSERT INTO v (k, tags, scores) VALUES (1, {'a', 'b'}, {'x': 1})");
    cql.execute("INSERT INTO v (k, tags, scores) VALUES (2, {'c'}, {'y': 2})");
    CqlRow r = one("SELECT tags['a'], tags['z'], scores['x'] FROM v WHERE k = 1");
    assertThat(r.columns())
        .extracting(c -> c.name())
        .containsExactly("tags['a']", "tags['z']", "scores['x']");
    assertThat(r.get(0)).isEqualTo("a");
    assertThat(r.get(1)).isNull();
    assertThat(r.get(2)).isEqualTo(1);
    assertThat(cql.execute("SELECT k FROM v WHERE tags CONTAINS 'c' ALLOW FILTERING").rows())
        .extracting(x -> x.getInt(0))
        .containsExactly(2);
    assertThat(cql.execute("SELECT k FROM v WHERE scores CONTAINS KEY 'x' ALLOW FILTERING").rows())
        .extracting(x -> x.getInt(0))
        .containsExactly(1);
    assertThat(cql.execute("SELECT k FROM v WHERE scores CONTAINS 2 ALLOW FILTERING").rows())
        .extracting(x -> x.getInt(0))
        .containsExactly(2);
    CqlInvalidRequestException e =
        catchThrowableOfType(
            CqlInvalidRequestException.class,
            () -> cql.execute("SELECT k FROM v WHERE tags CONTAINS 'c'"));
    assertThat(e.getMessage()).contains("ALLOW FILTERING");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "frozen element op | UPDATE v SET fs = fs + {1} WHERE k = 1 | for frozen collection column fs",
        "set element assign | UPDATE v SET tags['a'] = 'b' WHERE k = 1 | for set column tags",
        "prepend to set | UPDATE v SET tags = {'a'} + tags WHERE k = 1 | for non list column tags",
        "field of frozen | UPDATE v SET office.city = 'x' WHERE k = 1 | for frozen UDT column office",
        "unknown field | UPDATE v SET home.planet = 'x' WHERE k = 1 | does not have a field named planet",
        "vector size | INSERT INTO v (k, emb) VALUES (1, [1, 2]) | expected 3 elements, but given 2",
        "list element selection | SELECT events[0] FROM v WHERE k = 1 | only allowed on sets and maps",
        "contains key of set | SELECT k FROM v WHERE tags CONTAINS KEY 'a' ALLOW FILTERING | non-map column",
        "null in set | INSERT INTO v (k, tags) VALUES (1, {'a', null}) | null is not supported inside collections",
        "unknown udt field | INSERT INTO v (k, home) VALUES (1, {planet: 'x'}) | Unknown field 'planet'",
        "map literal for list | INSERT INTO v (k, events) VALUES (1, {'a': 1}) | Invalid map literal for events",
        "non-frozen in key | CREATE TABLE bad (k set<int> PRIMARY KEY) | Invalid non-frozen collection type",
        "nested non-frozen | CREATE TABLE bad (k int PRIMARY KEY, s set<list<int>>) | Non-frozen collections are not allowed inside collections",
        "counter in collection | CREATE TABLE bad (k int PRIMARY KEY, s list<counter>) | Counters are not allowed inside collections",
        "frozen native | CREATE TABLE bad (k int PRIMARY KEY, s frozen<int>) | frozen<> is only allowed",
        "unknown type | CREATE TABLE bad (k int PRIMARY KEY, s frozen<nowhere>) | Unknown type",
      })
  void cassandrasErrors(String what, String statement, String message) {
    CqlInvalidRequestException e =
        catchThrowableOfType(CqlInvalidRequestException.class, () -> cql.execute(statement));
    assertThat(e).as(statement).isNotNull();
    assertThat(e.getMessage()).contains(message);
  }
}
