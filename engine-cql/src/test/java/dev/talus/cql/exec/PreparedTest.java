package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.DataType;
import dev.talus.cql.BoundCql;
import dev.talus.cql.ColumnType;
import dev.talus.cql.CqlColumn;
import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlUnpreparedException;
import dev.talus.cql.PreparedCql;
import dev.talus.cql.TalusSession;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Prepared statements: markers, binding by index and name, unset, errors, the cache. */
class PreparedTest {
  @TempDir Path dir;
  private CqlDb t;
  private TalusSession cql;

  @BeforeEach
  void schema() {
    t = new CqlDb(dir);
    cql = t.cql;
    cql.execute("CREATE TABLE m (k text, c int, v text, n bigint, PRIMARY KEY (k, c))");
  }

  @AfterEach
  void close() {
    t.close();
  }

  @Test
  void markersAreNamedAndTypedByTheirReceivers() {
    PreparedCql p =
        cql.prepare("INSERT INTO m (k, c, v) VALUES (?, :cee, ?) USING TTL ? AND TIMESTAMP :ts");
    assertThat(p.variables())
        .containsExactly(
            new CqlColumn("talus", "m", "k", ColumnType.of(DataType.TEXT)),
            new CqlColumn("talus", "m", "cee", ColumnType.of(DataType.INT)),
            new CqlColumn("talus", "m", "v", ColumnType.of(DataType.TEXT)),
            new CqlColumn("", "", "[ttl]", ColumnType.of(DataType.INT)),
            new CqlColumn("", "", "ts", ColumnType.of(DataType.BIGINT)));
    PreparedCql q = cql.prepare("SELECT v FROM m WHERE k = ? AND c IN ? LIMIT ?");
    assertThat(q.variables())
        .extracting(CqlColumn::name, c -> c.type().cql())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("k", "text"),
            org.assertj.core.groups.Tuple.tuple("in(c)", "list<int>"),
            org.assertj.core.groups.Tuple.tuple("[limit]", "int"));
    assertThat(q.resultColumns()).extracting(CqlColumn::name).containsExactly("v");
  }

  @Test
  void bindByIndexAndByName() {
    PreparedCql p = cql.prepare("INSERT INTO m (k, c, v, n) VALUES (:k, :c, ?, ?)");
    p.execute("a", 1, "by index", 10L);
    p.bind().set("k", "a").set("c", 2).set("v", "by name").set(3, 20).execute();
    cql.execute(
        "INSERT INTO m (k, c, v) VALUES (:k, :c, :v)", Map.of("k", "a", "c", 3, "v", "map"));
    assertThat(cql.execute("SELECT v FROM m WHERE k IN ? AND c >= ?", List.of("a"), 1).rows())
        .extracting(r -> r.getString("v"))
        .containsExactly("by index", "by name", "map");
    // a named marker used twice is set by one name
    PreparedCql twice = cql.prepare("SELECT c FROM m WHERE k = :x AND c >= :lo AND c <= :lo");
    assertThat(twice.bind().set("x", "a").set("lo", 2).execute().rows()).hasSize(1);
  }

  @Test
  void unsetLeavesColumnsTtlAndLimitsAlone() {
    PreparedCql p = cql.prepare("INSERT INTO m (k, c, v, n) VALUES (?, ?, ?, ?) USING TTL ?");
    p.execute("a", 1, "x", 5L, 100);
    p.execute("a", 1, BoundCql.UNSET, 6L, BoundCql.UNSET);
    var row =
        cql.execute("SELECT v, n, ttl(n), ttl(v) FROM m WHERE k = 'a' AND c = 1")
            .one()
            .orElseThrow();
    assertThat(row.getString("v")).isEqualTo("x");
    assertThat(row.getLong("n")).isEqualTo(6L);
    assertThat(row.getInt("ttl(n)")).isNull();
    assertThat(row.getInt("ttl(v)")).isEqualTo(100);
    assertThat(
            cql.prepare("SELECT * FROM m WHERE k = ? LIMIT ?").execute("a", BoundCql.UNSET).size())
        .isEqualTo(1);
    assertThatThrownBy(() -> cql.execute("SELECT * FROM m WHERE k = ?", BoundCql.UNSET))
        .hasMessageContaining("Invalid unset value for column k");
    assertThatThrownBy(() -> cql.execute("SELECT * FROM m WHERE k = ?", (Object) null))
        .hasMessageContaining("Invalid null value in condition for column k");
    assertThatThrownBy(() -> p.execute("a", 1, "x", 5L, null))
        .hasMessageContaining("Invalid null value of TTL");
  }

  @Test
  void wrongArityAndWrongTypesAreTypedErrors() {
    PreparedCql p = cql.prepare("INSERT INTO m (k, c, v) VALUES (?, ?, ?)");
    assertThatThrownBy(() -> p.bind("a", 1))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessage("There were 3 markers(?) in CQL but 2 bound variables");
    assertThatThrownBy(
            () -> cql.execute("INSERT INTO m (k, c, v) VALUES (?, ?, ?)", "a", 1, "x", "y"))
        .hasMessage("There were 3 markers(?) in CQL but 4 bound variables");
    assertThatThrownBy(() -> p.execute("a", "one", "x"))
        .isInstanceOfSatisfying(
            CqlInvalidRequestException.class,
            e -> {
              assertThat(e.reason())
                  .isEqualTo(
                      "Invalid value for bind marker 1 (c of type int): expected java.lang.Integer,"
                          + " got java.lang.String");
              assertThat(e.column()).isEqualTo(36);
            });
    assertThatThrownBy(() -> p.execute("a", 1L << 40, "x"))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("out of range");
    assertThatThrownBy(() -> p.bind().set("nope", 1))
        .hasMessageContaining("no bind marker named nope");
    assertThatThrownBy(() -> p.bind().set(3, 1)).hasMessageContaining("no bind marker at index 3");
    assertThatThrownBy(() -> cql.execute("SELECT * FROM m WHERE k = 'a' AND c IN ?", "not a list"))
        .hasMessageContaining("expected a java.util.List of values");
    assertThat(cql.execute("SELECT * FROM m WHERE k = 'a'").isEmpty()).isTrue();
  }

  @Test
  void preparedStatementsAreCachedAndFoundById() {
    PreparedCql a = cql.prepare("SELECT * FROM m WHERE k = ?");
    assertThat(cql.prepare("SELECT * FROM m WHERE k = ?")).isSameAs(a);
    assertThat(cql.prepared(a.id())).isSameAs(a);
    assertThatThrownBy(() -> cql.prepared(new byte[16])).isInstanceOf(CqlUnpreparedException.class);
    TalusSession tiny = TalusSession.builder(t.db).preparedCacheSize(1).build();
    PreparedCql x = tiny.prepare("SELECT * FROM m WHERE k = ?");
    tiny.prepare("SELECT v FROM m WHERE k = ?");
    assertThatThrownBy(() -> tiny.prepared(x.id())).isInstanceOf(CqlUnpreparedException.class);
  }

  @Test
  void executeReadsTheCallersValuesOnceAndPagesWithItsOwnCopy() {
    PreparedCql insert = cql.prepare("INSERT INTO m (k, c, v) VALUES (?, ?, ?)");
    Object[] values = {"a", 0, "x"};
    for (int c = 0; c < 5; c++) {
      values[1] = c;
      assertThat(insert.execute(values).warnings()).isEmpty();
    }
    values[0] = "b";
    values[1] = 9;
    insert.execute(values);
    TalusSession paged = TalusSession.builder(t.db).fetchSize(2).build();
    Object[] key = {"a"};
    dev.talus.cql.CqlResult first = paged.prepare("SELECT c FROM m WHERE k = ?").execute(key);
    key[0] = "b"; // the next pages still read partition a
    List<Integer> cs = new java.util.ArrayList<>();
    for (dev.talus.cql.CqlResult r = first; ; r = r.fetchNextPage()) {
      r.forEach(row -> cs.add(row.getInt(0)));
      if (!r.hasMorePages()) {
        break;
      }
    }
    assertThat(cs).containsExactly(0, 1, 2, 3, 4);
    assertThatThrownBy(() -> insert.execute("a", 1))
        .hasMessage("There were 3 markers(?) in CQL but 2 bound variables");
  }

  @Test
  void aDefaultTimestampAppliesToWritesWithoutOne() {
    PreparedCql p = cql.prepare("UPDATE m SET v = ? WHERE k = ? AND c = ?");
    p.bind("x", "a", 1).timestamp(123_456L).execute();
    assertThat(
            cql.execute("SELECT writetime(v) FROM m WHERE k = 'a'").one().orElseThrow().getLong(0))
        .isEqualTo(123_456L);
    t.clock.advance(Duration.ofSeconds(1));
  }

  @Test
  void oneStatementManyThreads() throws Exception {
    PreparedCql insert = cql.prepare("INSERT INTO m (k, c, v) VALUES (?, ?, ?)");
    PreparedCql read = cql.prepare("SELECT v FROM m WHERE k = ? AND c = ?");
    Thread[] threads = new Thread[4];
    java.util.concurrent.atomic.AtomicReference<Throwable> failure =
        new java.util.concurrent.atomic.AtomicReference<>();
    for (int i = 0; i < threads.length; i++) {
      String k = "t" + i;
      threads[i] =
          new Thread(
              () -> {
                try {
                  for (int c = 0; c < 200; c++) {
                    insert.execute(k, c, k + c);
                    assertThat(read.execute(k, c).one().orElseThrow().getString(0))
                        .isEqualTo(k + c);
                  }
                } catch (Throwable e) {
                  failure.set(e);
                }
              });
      threads[i].start();
    }
    for (Thread th : threads) {
      th.join();
    }
    assertThat(failure.get()).isNull();
  }
}
