package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.TupleValue;
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
 * {@code INSERT JSON} and {@code fromJson()} of collections, frozen values, tuples, user types and
 * vectors, in Cassandra's JSON mapping: the same values as the CQL literals, what {@code SELECT
 * JSON} writes reads back the same, and bad JSON is refused with Cassandra's messages.
 */
class JsonCompositesCqlTest {
  private static final String COLUMNS = "l, s, m, fm, t, u, fu, v, vi, nested";

  @TempDir Path dir;
  private CqlDb t;
  private TalusSession cql;

  @BeforeEach
  void schema() {
    t = new CqlDb(dir);
    cql = t.cql;
    cql.execute("CREATE TYPE address (street text, \"Zip\" int, city text)");
    cql.execute(
        "CREATE TABLE j (k int PRIMARY KEY, l list<int>, s set<text>, m map<int, text>,"
            + " fm frozen<map<frozen<list<int>>, boolean>>, t tuple<int, text, timestamp>,"
            + " u address, fu frozen<address>, v vector<float, 3>, vi vector<int, 2>,"
            + " nested list<frozen<map<text, frozen<set<bigint>>>>>)");
  }

  @AfterEach
  void close() {
    t.close();
  }

  @Test
  void everyCompositeKindReadsAsTheSameValueAsItsCqlLiteral() {
    cql.execute(
        """
        INSERT INTO j JSON '{"k": 1, "l": [3, 1, 3], "s": ["b", "a", "b"],
          "m": {"2": "two", "1": "one"}, "fm": {"[1, 2]": true, "[]": false},
          "t": [7, null, "2026-09-01 10:00:00.000Z"],
          "u": {"street": "Main", "\\"Zip\\"": 12345}, "fu": {"CITY": "Oslo"},
          "v": [0.5, -1, 2.25], "vi": [4, "5"], "nested": [{"a": [3, 1]}, {}]}'""");
    cql.execute(
        "INSERT INTO j (k, l, s, m, fm, t, u, fu, v, vi, nested) VALUES (2, [3, 1, 3], {'b', 'a'},"
            + " {2: 'two', 1: 'one'}, {[1, 2]: true, []: false},"
            + " (7, null, '2026-09-01 10:00:00.000Z'), {street: 'Main', \"Zip\": 12345},"
            + " {city: 'Oslo'}, [0.5, -1, 2.25], [4, 5], [{'a': {3, 1}}, {}])");
    assertThat(json(1).replace("{\"k\": 1,", "{\"k\": 2,")).isEqualTo(json(2));
    CqlRow row = cql.execute("SELECT " + COLUMNS + " FROM j WHERE k = 1").one().orElseThrow();
    assertThat(row.get("l")).isEqualTo(List.of(3, 1, 3));
    assertThat(row.get("s")).isEqualTo(Set.of("a", "b"));
    assertThat(row.get("m")).isEqualTo(Map.of(1, "one", 2, "two"));
    assertThat(((TupleValue) row.get("t")).get(1)).isNull();
    assertThat(row.get("v")).isEqualTo(new float[] {0.5f, -1f, 2.25f});
    assertThat(json(1))
        .contains("\"u\": {\"street\": \"Main\", \"\\\"Zip\\\"\": 12345, \"city\": null}")
        .contains("\"fu\": {\"street\": null, \"\\\"Zip\\\"\": null, \"city\": \"Oslo\"}");
  }

  @Test
  void whatSelectJsonWritesInsertJsonReadsBack() {
    cql.execute(
        "INSERT INTO j (k, l, s, m, fm, t, u, fu, v, vi, nested) VALUES (1, [1], {'x', 'y'},"
            + " {5: 'five'}, {[9]: true}, (1, 'a', 0), {street: 'S', \"Zip\": 1, city: 'C'},"
            + " {street: 'F'}, [1.5, 2, 3], [-1, 1], [{'k': {1, 2, 3}}])");
    String written = json(1);
    cql.execute("INSERT INTO j JSON ?", written.replace("{\"k\": 1,", "{\"k\": 2,"));
    assertThat(json(2)).isEqualTo(written.replace("{\"k\": 1,", "{\"k\": 2,"));
  }

  @Test
  void aJsonStringHoldingJsonStandsForWhatItHolds() {
    cql.execute("INSERT INTO j JSON '{\"k\": 1, \"l\": \"[1, 2]\", \"t\": \"[1, \\\"x\\\", 0]\"}'");
    CqlRow row = cql.execute("SELECT l, t FROM j WHERE k = 1").one().orElseThrow();
    assertThat(row.get("l")).isEqualTo(List.of(1, 2));
    assertThat(((TupleValue) row.get("t")).get(1)).isEqualTo("x");
  }

  @Test
  void defaultNullAndDefaultUnsetForCollections() {
    cql.execute("INSERT INTO j JSON '{\"k\": 1, \"l\": [1], \"s\": [\"a\"]}'");
    cql.execute("INSERT INTO j JSON '{\"k\": 1, \"l\": [2]}' DEFAULT UNSET");
    CqlRow row = cql.execute("SELECT l, s FROM j WHERE k = 1").one().orElseThrow();
    assertThat(row.get("l")).isEqualTo(List.of(2));
    assertThat(row.get("s")).isEqualTo(Set.of("a"));
    cql.execute("INSERT INTO j JSON '{\"k\": 1, \"l\": [3]}'");
    row = cql.execute("SELECT l, s FROM j WHERE k = 1").one().orElseThrow();
    assertThat(row.get("l")).isEqualTo(List.of(3));
    assertThat(row.get("s")).isNull();
  }

  @Test
  void fromJsonBuildsCompositeValuesInWrites() {
    cql.execute(
        "INSERT INTO j (k, l, u) VALUES (1, fromJson('[1, 2]'), fromJson(?))", "{\"city\": \"X\"}");
    cql.execute("UPDATE j SET m = fromJson('{\"3\": \"c\"}'), vi = fromJson('[1, 2]') WHERE k = 1");
    CqlRow row = cql.execute("SELECT l, u, m, vi FROM j WHERE k = 1").one().orElseThrow();
    assertThat(row.get("l")).isEqualTo(List.of(1, 2));
    assertThat(row.get("m")).isEqualTo(Map.of(3, "c"));
    assertThat(row.get("vi")).isEqualTo(List.of(1, 2));
    assertThat(json(1))
        .contains("\"u\": {\"street\": null, \"\\\"Zip\\\"\": null, \"city\": \"X\"}");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "not an array | {\"k\": 1, \"l\": 5} | l: Expected a list, but got a number: 5",
        "set not an array | {\"k\": 1, \"s\": {}} | s: Expected a list (representing a set), but"
            + " got an object: {}",
        "null in a list | {\"k\": 1, \"l\": [1, null]} | l: Invalid null element in list",
        "null in a set | {\"k\": 1, \"s\": [null]} | s: Invalid null element in set",
        "null map value | {\"k\": 1, \"m\": {\"1\": null}} | m: Invalid null value in map",
        "bad map key | {\"k\": 1, \"m\": {\"one\": \"x\"}} | m: ",
        "tuple too long | {\"k\": 1, \"t\": [1, \"a\", 0, 4]} | t: Tuple contains extra items"
            + " (expected 3): [1, a, 0, 4]",
        "tuple too short | {\"k\": 1, \"t\": [1]} | t: Tuple is missing items (expected 3): [1]",
        "unknown field | {\"k\": 1, \"u\": {\"zip\": 1}} | u: Unknown field 'zip' in value of user"
            + " defined type address",
        "vector size | {\"k\": 1, \"v\": [1, 2]} | v: List had incorrect size: expected 3 but"
            + " given 2; [1, 2]",
        "element type | {\"k\": 1, \"l\": [\"x\"]} | l: ",
      })
  void badJsonIsRefusedWithCassandrasMessages(String what, String json, String message) {
    assertThatThrownBy(() -> cql.execute("INSERT INTO j JSON ?", json))
        .as(what)
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("Error decoding JSON value for " + message);
    assertThat(cql.execute("SELECT * FROM j WHERE k = 1").one()).isEmpty();
  }

  private String json(int k) {
    return cql.execute("SELECT JSON k, " + COLUMNS + " FROM j WHERE k = ?", k)
        .one()
        .orElseThrow()
        .getString(0);
  }
}
