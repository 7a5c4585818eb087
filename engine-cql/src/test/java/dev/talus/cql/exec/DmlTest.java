package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlRow;
import dev.talus.cql.CqlUnsupportedException;
import dev.talus.cql.TalusSession;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** INSERT, UPDATE, DELETE, BATCH and SELECT on a table with a compound key. */
class DmlTest {
  @TempDir Path dir;
  private CqlDb t;
  private TalusSession cql;

  @BeforeEach
  void schema() {
    t = new CqlDb(dir);
    cql = t.cql;
    cql.execute("CREATE TABLE m (k text, c int, v text, n bigint, PRIMARY KEY (k, c))");
  }

  @org.junit.jupiter.api.AfterEach
  void close() {
    t.close();
  }

  private List<Integer> cs(String where) {
    return cql.execute("SELECT c FROM m WHERE " + where).rows().stream()
        .map(r -> r.getInt("c"))
        .toList();
  }

  @Test
  void insertWritesTheRowMarkerAndUpdateOnlyCells() {
    cql.execute("INSERT INTO m (k, c) VALUES ('a', 1)");
    cql.execute("UPDATE m SET v = 'x' WHERE k = 'a' AND c = 2");
    cql.execute("UPDATE m SET v = null WHERE k = 'a' AND c = 2");
    cql.execute("UPDATE m SET v = null WHERE k = 'a' AND c = 1");
    // the inserted row stays (row marker); the updated one vanishes with its only cell
    assertThat(cs("k = 'a'")).containsExactly(1);
  }

  @Test
  void usingTtlAndTimestamp() {
    cql.execute(
        "INSERT INTO m (k, c, v) VALUES ('a', 1, 'x') USING TTL 10 AND TIMESTAMP 1767225600000100");
    CqlRow r =
        cql.execute("SELECT ttl(v), writetime(v) FROM m WHERE k = 'a' AND c = 1")
            .one()
            .orElseThrow();
    assertThat(r.getInt("ttl(v)")).isEqualTo(10);
    assertThat(r.getLong("writetime(v)")).isEqualTo(1767225600000100L);
    // an older timestamp loses
    cql.execute("UPDATE m USING TIMESTAMP 1767225600000099 SET v = 'old' WHERE k = 'a' AND c = 1");
    assertThat(
            cql.execute("SELECT v FROM m WHERE k = 'a' AND c = 1")
                .one()
                .orElseThrow()
                .getString("v"))
        .isEqualTo("x");
    t.clock.advance(Duration.ofSeconds(11));
    // the row marker had the TTL too, and the expired cell still shadows the older 'old'
    assertThat(cql.execute("SELECT v FROM m WHERE k = 'a'").isEmpty()).isTrue();
    assertThatThrownBy(() -> cql.execute("INSERT INTO m (k, c) VALUES ('a', 1) USING TTL -1"))
        .hasMessageContaining("A TTL must be greater or equal to 0, but was -1");
    assertThatThrownBy(
            () -> cql.execute("INSERT INTO m (k, c) VALUES ('a', 1) USING TTL 999999999"))
        .hasMessageContaining("ttl is too large. requested (999999999) maximum");
  }

  @Test
  void deleteColumnsRowsRangesAndPartitions() {
    for (int c = 0; c < 10; c++) {
      cql.execute("INSERT INTO m (k, c, v) VALUES ('a', ?, 'x')", c);
      cql.execute("INSERT INTO m (k, c, v) VALUES ('b', ?, 'x')", c);
    }
    cql.execute("DELETE v FROM m WHERE k = 'a' AND c = 0");
    assertThat(
            cql.execute("SELECT v FROM m WHERE k = 'a' AND c = 0").one().orElseThrow().isNull("v"))
        .isTrue();
    cql.execute("DELETE FROM m WHERE k = 'a' AND c = 1");
    cql.execute("DELETE FROM m WHERE k = 'a' AND c > 3 AND c <= 6");
    cql.execute("DELETE FROM m WHERE k = 'a' AND c IN (8, 9)");
    assertThat(cs("k = 'a'")).containsExactly(0, 2, 3, 7);
    cql.execute("DELETE FROM m USING TIMESTAMP 1 WHERE k = 'b'");
    assertThat(cs("k = 'b'")).hasSize(10); // older than the writes
    cql.execute("DELETE FROM m WHERE k IN ('b')");
    assertThat(cs("k = 'b'")).isEmpty();
    assertThatThrownBy(() -> cql.execute("DELETE v FROM m WHERE k = 'a' AND c > 1"))
        .hasMessageContaining("Range deletions are not supported for specific columns");
    assertThatThrownBy(() -> cql.execute("DELETE k FROM m WHERE k = 'a' AND c = 1"))
        .hasMessageContaining(
            "Invalid identifier k for deletion (should not be a PRIMARY KEY part)");
    assertThatThrownBy(() -> cql.execute("DELETE FROM m WHERE c = 1"))
        .hasMessageContaining("Some partition key parts are missing: k");
    assertThatThrownBy(() -> cql.execute("DELETE FROM m WHERE k = 'a' AND v = 'x'"))
        .hasMessageContaining("Non PRIMARY KEY columns found in where clause: v");
    // a conditional partition deletion: IF EXISTS looks at the whole partition
    assertThat(
            cql.execute("DELETE FROM m WHERE k = 'zz' IF EXISTS")
                .one()
                .orElseThrow()
                .getBoolean("[applied]"))
        .isFalse();
  }

  @Test
  void updateNeedsTheFullPrimaryKeyAndAcceptsIn() {
    cql.execute("UPDATE m SET v = 'x', n = 7 WHERE k IN ('a', 'b') AND c IN (1, 2)");
    assertThat(cs("k = 'a'")).containsExactly(1, 2);
    assertThat(cs("k = 'b'")).containsExactly(1, 2);
    assertThatThrownBy(() -> cql.execute("UPDATE m SET v = 'x' WHERE k = 'a'"))
        .hasMessageContaining("Some clustering keys are missing: c");
    assertThatThrownBy(() -> cql.execute("UPDATE m SET v = 'x' WHERE k = 'a' AND c > 1"))
        .hasMessageContaining(
            "Slice restrictions are not supported on the clustering columns in UPDATE statements");
    assertThatThrownBy(() -> cql.execute("UPDATE m SET c = 1 WHERE k = 'a' AND c = 1"))
        .hasMessageContaining("PRIMARY KEY part c found in SET part");
    assertThatThrownBy(() -> cql.execute("UPDATE m SET n = n + 1 WHERE k = 'a' AND c = 1"))
        .hasMessageContaining("Invalid operation (n = n + ...) for non counter column n");
  }

  @Test
  void insertErrorsUseCassandrasWordsAndPointAtTheName() {
    assertThatThrownBy(() -> cql.execute("INSERT INTO m (k, c, zz) VALUES ('a', 1, 2)"))
        .isInstanceOfSatisfying(
            CqlInvalidRequestException.class,
            e -> {
              assertThat(e.reason()).isEqualTo("Undefined column name zz in table talus.m");
              assertThat(e.column()).isEqualTo(22);
              assertThat(e.getMessage()).contains("\n  INSERT INTO m (k, c, zz)").contains("^^");
            });
    assertThatThrownBy(() -> cql.execute("INSERT INTO m (k, c) VALUES ('a')"))
        .hasMessageContaining("Unmatched column names/values");
    assertThatThrownBy(() -> cql.execute("INSERT INTO m (k, v) VALUES ('a', 'x')"))
        .hasMessageContaining("Some clustering keys are missing: c");
    assertThatThrownBy(() -> cql.execute("INSERT INTO m (k, c, k) VALUES ('a', 1, 'b')"))
        .hasMessageContaining("Multiple definitions found for column k");
    assertThatThrownBy(() -> cql.execute("INSERT INTO m (k, c) VALUES ('a', 'one')"))
        .isInstanceOfSatisfying(
            CqlInvalidRequestException.class,
            e -> {
              assertThat(e.reason())
                  .isEqualTo("Invalid STRING constant (one) for \"c\" of type int");
              assertThat(e.column()).isEqualTo(35);
            });
    assertThatThrownBy(() -> cql.execute("INSERT INTO m (k, c) VALUES ('a', 99999999999)"))
        .hasMessageContaining("Invalid INTEGER constant (99999999999) for \"c\" of type int");
    assertThatThrownBy(() -> cql.execute("INSERT INTO m (k, c) VALUES (null, 1)"))
        .hasMessageContaining("Invalid null value in condition for column k");
  }

  @Test
  void insertJsonWithDefaultNullAndDefaultUnset() {
    cql.execute("INSERT INTO m JSON '{\"k\": \"a\", \"c\": 1, \"v\": \"x\", \"n\": 5}'");
    cql.execute("INSERT INTO m JSON '{\"k\": \"a\", \"c\": 1, \"n\": \"6\"}' DEFAULT UNSET");
    CqlRow r = cql.execute("SELECT v, n FROM m WHERE k = 'a' AND c = 1").one().orElseThrow();
    assertThat(r.getString("v")).isEqualTo("x");
    assertThat(r.getLong("n")).isEqualTo(6L);
    cql.execute("INSERT INTO m JSON '{\"K\": \"a\", \"c\": 1}'");
    assertThat(
            cql.execute("SELECT v FROM m WHERE k = 'a' AND c = 1").one().orElseThrow().isNull("v"))
        .isTrue();
    assertThatThrownBy(
            () -> cql.execute("INSERT INTO m JSON '{\"k\": \"a\", \"c\": 1, \"zz\": 1}'"))
        .hasMessageContaining("JSON values map contains unrecognized column: zz");
    assertThatThrownBy(() -> cql.execute("INSERT INTO m JSON '{\"k\": \"a\", \"c\": \"one\"}'"))
        .hasMessageContaining("Error decoding JSON value for c");
    assertThatThrownBy(() -> cql.execute("INSERT INTO m JSON '{\"k\": \"a\"'"))
        .hasMessageContaining("Could not decode JSON string");
    CqlResult json = cql.execute("SELECT JSON k, c, v AS \"Value\" FROM m WHERE k = 'a'");
    assertThat(json.columns()).extracting(c -> c.name()).containsExactly("[json]");
    assertThat(json.one().orElseThrow().getString(0))
        .isEqualTo("{\"k\": \"a\", \"c\": 1, \"\\\"Value\\\"\": null}");
  }

  @Test
  void batchesAreAtomicAndFollowCassandrasTimestampRules() {
    cql.execute(
        "BEGIN BATCH INSERT INTO m (k, c, v) VALUES ('a', 1, 'x'); UPDATE m SET v = 'y' WHERE k = 'b'"
            + " AND c = 1; DELETE FROM m WHERE k = 'a' AND c = 2; APPLY BATCH");
    assertThat(cs("k = 'a'")).containsExactly(1);
    assertThat(cs("k = 'b'")).containsExactly(1);
    // writes without a timestamp share one
    CqlRow a =
        cql.execute("SELECT writetime(v) FROM m WHERE k = 'a' AND c = 1").one().orElseThrow();
    CqlRow b =
        cql.execute("SELECT writetime(v) FROM m WHERE k = 'b' AND c = 1").one().orElseThrow();
    assertThat(a.getLong(0)).isEqualTo(b.getLong(0));
    cql.execute(
        "BEGIN UNLOGGED BATCH USING TIMESTAMP 5 INSERT INTO m (k, c, v) VALUES ('c', 1, 'z') APPLY BATCH");
    assertThat(
            cql.execute("SELECT writetime(v) FROM m WHERE k = 'c'").one().orElseThrow().getLong(0))
        .isEqualTo(5L);
    assertThatThrownBy(
            () ->
                cql.execute(
                    "BEGIN BATCH USING TIMESTAMP 5 INSERT INTO m (k, c) VALUES ('c', 1) USING TIMESTAMP 6 APPLY BATCH"))
        .hasMessageContaining("Timestamp must be set either on BATCH or individual statements");
    assertThatThrownBy(
            () ->
                cql.execute(
                    "BEGIN BATCH USING TTL 5 INSERT INTO m (k, c) VALUES ('c', 1) APPLY BATCH"))
        .hasMessageContaining("Global TTL on the BATCH statement is not supported.");
    // one invalid write refuses the batch: nothing is stored
    assertThatThrownBy(
            () ->
                cql.execute(
                    "BEGIN BATCH INSERT INTO m (k, c) VALUES ('d', 1); INSERT INTO m (k, c) VALUES (?, 2); APPLY BATCH",
                    (Object) null))
        .isInstanceOf(CqlInvalidRequestException.class);
    assertThat(cs("k = 'd'")).isEmpty();
    assertThatThrownBy(
            () ->
                cql.execute(
                    "BEGIN COUNTER BATCH UPDATE m SET v = 'x' WHERE k = 'a' AND c = 1 APPLY BATCH"))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("Cannot include non-counter statement in a counter batch");
  }

  @Test
  void selectRestrictionsOrderingAndLimits() {
    for (int c = 0; c < 10; c++) {
      cql.execute("INSERT INTO m (k, c, v) VALUES ('a', ?, ?)", c, c % 2 == 0 ? "even" : "odd");
      cql.execute("INSERT INTO m (k, c, v) VALUES ('b', ?, 'x')", c);
    }
    assertThat(cs("k = 'a' AND c >= 3 AND c < 6")).containsExactly(3, 4, 5);
    assertThat(cs("k = 'a' ORDER BY c DESC LIMIT 3")).containsExactly(9, 8, 7);
    assertThat(cs("k IN ('b', 'a') AND c = 1")).containsExactly(1, 1);
    assertThat(cs("k = 'a' AND v = 'odd' ALLOW FILTERING")).containsExactly(1, 3, 5, 7, 9);
    assertThat(cs("k IN ('a', 'b') PER PARTITION LIMIT 2")).containsExactly(0, 1, 0, 1);
    assertThat(cs("k = 'a' PER PARTITION LIMIT 2")).containsExactly(0, 1);
    assertThat(cql.execute("SELECT DISTINCT k FROM m WHERE k IN ('a', 'b')").rows())
        .extracting(r -> r.getString("k"))
        .containsExactly("a", "b");
    CqlResult star = cql.execute("SELECT * FROM m WHERE k = 'a' AND c = 1");
    assertThat(star.columns()).extracting(c -> c.name()).containsExactly("k", "c", "n", "v");
    assertThatThrownBy(() -> cql.execute("SELECT * FROM m WHERE k = 'a' AND v = 'odd'"))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("restricts regular column v");
    assertThatThrownBy(() -> cql.execute("SELECT * FROM m WHERE k = 'a' ORDER BY v"))
        .hasMessageContaining("Order by is currently only supported on the clustered columns");
    assertThatThrownBy(() -> cql.execute("SELECT * FROM m WHERE k > 'a'"))
        .hasMessageContaining("Only EQ and IN relation are supported on the partition key");
    assertThatThrownBy(() -> cql.execute("SELECT * FROM m WHERE k = 'a' LIMIT 0"))
        .hasMessageContaining("LIMIT must be strictly positive");
    assertThatThrownBy(() -> cql.execute("SELECT * FROM m WHERE k = 'a' AND c = 1 AND c = 2"))
        .hasMessageContaining(
            "c cannot be restricted by more than one relation if it includes an Equal");
    assertThatThrownBy(() -> cql.execute("SELECT * FROM m WHERE k = 'a' AND c != 1"))
        .hasMessageContaining("Unsupported \"!=\" relation");
    assertThatThrownBy(() -> cql.execute("SELECT writetime(c) FROM m WHERE k = 'a'"))
        .hasMessageContaining("Cannot use selection function writetime on PRIMARY KEY part c");
    assertThatThrownBy(() -> cql.execute("SELECT DISTINCT v FROM m WHERE k = 'a'"))
        .hasMessageContaining("SELECT DISTINCT queries must only request partition key columns");
    for (String notYet :
        new String[] {"SELECT * FROM m WHERE k = 'a' AND v LIKE 'x%' ALLOW FILTERING"}) {
      assertThatThrownBy(() -> cql.execute(notYet))
          .as(notYet)
          .isInstanceOf(CqlUnsupportedException.class)
          .hasMessageContaining("not supported yet by Talus");
    }
  }

  @Test
  void pagingThroughCqlResults() {
    for (int c = 0; c < 25; c++) {
      cql.execute("INSERT INTO m (k, c) VALUES ('a', ?)", c);
    }
    CqlResult page = cql.prepare("SELECT c FROM m WHERE k = 'a'").bind().fetchSize(10).execute();
    List<Integer> all = new java.util.ArrayList<>();
    int pages = 0;
    while (true) {
      pages++;
      page.forEach(r -> all.add(r.getInt(0)));
      if (!page.hasMorePages()) {
        break;
      }
      page = page.fetchNextPage();
    }
    assertThat(pages).isEqualTo(3);
    assertThat(all).hasSize(25).isSorted();
    // resuming from a paging state carried as text
    CqlResult first = cql.prepare("SELECT c FROM m WHERE k = 'a'").bind().fetchSize(20).execute();
    dev.talus.PagingState state =
        dev.talus.PagingState.fromString(first.pagingState().orElseThrow().toString());
    assertThat(
            cql.prepare("SELECT c FROM m WHERE k = 'a'")
                .bind()
                .fetchSize(20)
                .pagingState(state)
                .execute()
                .rows())
        .extracting(r -> r.getInt(0))
        .containsExactly(20, 21, 22, 23, 24);
  }

  @Test
  void selectorsFunctionsAndCasts() {
    cql.execute(
        "INSERT INTO m (k, c, v, n) VALUES ('a', 1, 'x', 42) USING TIMESTAMP 1700000000000000");
    CqlRow r =
        cql.execute(
                "SELECT c AS cee, CAST(n AS text), CAST(c AS double), toJson(v), token(k), 7, 'lit',"
                    + " bigintAsBlob(n), blobAsBigint(bigintAsBlob(n)), toTimestamp(currentDate())"
                    + " FROM m WHERE k = 'a'")
            .one()
            .orElseThrow();
    assertThat(r.columns())
        .extracting(c -> c.name())
        .containsExactly(
            "cee",
            "cast(n as text)",
            "cast(c as double)",
            "system.tojson(v)",
            "system.token(k)",
            "7",
            "'lit'",
            "system.bigintasblob(n)",
            "system.blobasbigint(system.bigintasblob(n))",
            "system.totimestamp(system.currentdate())");
    assertThat(r.getInt("cee")).isEqualTo(1);
    assertThat(r.getString(1)).isEqualTo("42");
    assertThat(r.getDouble(2)).isEqualTo(1.0);
    assertThat(r.getString(3)).isEqualTo("\"x\"");
    assertThat(r.getLong(4)).isEqualTo(t.db.table("m").token("a"));
    assertThat(r.getInt(5)).isEqualTo(7);
    assertThat(r.getString(6)).isEqualTo("lit");
    assertThat(r.getBytes("system.bigintasblob(n)")).containsExactly(0, 0, 0, 0, 0, 0, 0, 42);
    assertThat(r.getLong(8)).isEqualTo(42L);
    assertThat(r.get(9, Instant.class)).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
  }
}
