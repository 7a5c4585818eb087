package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlRow;
import dev.talus.cql.PreparedCql;
import dev.talus.cql.TalusSession;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code token()} in CQL: {@code SELECT token(k)} shows each partition's bigint token (the one the
 * engine orders partitions by), and {@code WHERE token(k) > ? AND token(k) <= ?} reads one token
 * range, so that consecutive ranges split a table exactly as the drivers split one — every row
 * once. Cassandra's errors for token relations on other columns, in writes, or with two bounds on
 * the same side.
 */
class TokenCqlTest {
  @TempDir Path dir;
  private CqlDb t;
  private TalusSession cql;

  @BeforeEach
  void schema() {
    t = new CqlDb(dir);
    cql = t.cql;
    cql.execute("CREATE TABLE m (k int, c int, v text, PRIMARY KEY (k, c))");
    cql.execute("CREATE TABLE two (a int, b text, v int, PRIMARY KEY ((a, b)))");
    PreparedCql ins = cql.prepare("INSERT INTO m (k, c, v) VALUES (?, ?, 'x')");
    for (int k = 0; k < 40; k++) {
      for (int c = 0; c < 3; c++) {
        ins.execute(k, c);
      }
    }
  }

  @AfterEach
  void close() {
    t.close();
  }

  @Test
  void selectTokenGivesTheEnginesTokenInScanOrder() {
    List<CqlRow> rows = cql.execute("SELECT k, token(k) FROM m WHERE c = 0 ALLOW FILTERING").rows();
    assertThat(rows).hasSize(40);
    long previous = Long.MIN_VALUE;
    for (CqlRow r : rows) {
      long token = (Long) r.get(1);
      assertThat(token).isEqualTo(t.db.table("m").token(r.get(0)));
      assertThat(token).isGreaterThanOrEqualTo(previous);
      previous = token;
    }
    assertThat(rows.get(0).columns().get(1).name()).isEqualTo("system.token(k)");
  }

  @Test
  void consecutiveTokenRangesReadEveryRowExactlyOnce() {
    PreparedCql first = cql.prepare("SELECT k, c FROM m WHERE token(k) <= ?");
    PreparedCql range = cql.prepare("SELECT k, c FROM m WHERE token(k) > ? AND token(k) <= ?");
    PreparedCql last = cql.prepare("SELECT k, c FROM m WHERE token(k) > ?");
    int splits = 7;
    long step = Long.MAX_VALUE / splits * 2;
    List<String> seen = new ArrayList<>();
    long lo = Long.MIN_VALUE + step;
    seen.addAll(keys(first.bind(lo).fetchSize(5)));
    for (int i = 1; i < splits - 1; i++) {
      seen.addAll(keys(range.bind(lo, lo + step).fetchSize(5)));
      lo += step;
    }
    seen.addAll(keys(last.bind(lo).fetchSize(5)));
    assertThat(seen).hasSize(120);
    assertThat(new HashSet<>(seen)).hasSize(120);
    long counted = 0;
    PreparedCql count = cql.prepare("SELECT count(*) FROM m WHERE token(k) >= ? AND token(k) < ?");
    for (long from = Long.MIN_VALUE; ; from += step) {
      long to = from > Long.MAX_VALUE - step ? Long.MAX_VALUE : from + step;
      counted += (Long) count.execute(from, to).rows().get(0).get(0);
      if (to == Long.MAX_VALUE) {
        break;
      }
    }
    long maxToken =
        (Long)
            cql.execute("SELECT count(*) FROM m WHERE token(k) = ?", Long.MAX_VALUE)
                .rows()
                .get(0)
                .get(0);
    assertThat(counted + maxToken).isEqualTo(120);
  }

  @Test
  void tokenEqualityReadsThePartitionsOfThatToken() {
    long token = t.db.table("m").token(7);
    assertThat(keys(cql.prepare("SELECT k, c FROM m WHERE token(k) = ?").bind(token)))
        .containsExactly("7:0", "7:1", "7:2");
    long ab = t.db.table("two").token(1, "x");
    cql.execute("INSERT INTO two (a, b, v) VALUES (1, 'x', 5)");
    assertThat(cql.execute("SELECT v FROM two WHERE token(a, b) = ?", ab).rows().get(0).get(0))
        .isEqualTo(5);
  }

  @Test
  void invalidTokenRelationsAreRefusedAsCassandraRefusesThem() {
    assertThatThrownBy(() -> cql.execute("SELECT * FROM m WHERE token(c) > 0"))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("can only be applied to the partition key columns");
    assertThatThrownBy(() -> cql.execute("SELECT * FROM two WHERE token(a) > 0"))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("must be applied to all partition key components");
    assertThatThrownBy(() -> cql.execute("SELECT * FROM two WHERE token(b, a) > 0"))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("must be in the partition key order: a, b");
    assertThatThrownBy(() -> cql.execute("SELECT * FROM m WHERE token(k) > 0 AND token(k) >= 1"))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("More than one restriction was found for the start bound");
    assertThatThrownBy(() -> cql.execute("UPDATE m SET v = 'y' WHERE token(k) > 0 AND c = 1"))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("cannot be used in WHERE clauses for UPDATE and DELETE");
    assertThatThrownBy(() -> cql.execute("SELECT * FROM m WHERE token(k) > 0 AND k = 1"))
        .isInstanceOf(CqlInvalidRequestException.class);
  }

  private List<String> keys(dev.talus.cql.BoundCql bound) {
    List<String> out = new ArrayList<>();
    Set<Object> pages = new HashSet<>();
    var page = cql.execute(bound);
    while (true) {
      for (CqlRow r : page) {
        out.add(r.get(0) + ":" + r.get(1));
      }
      if (!page.hasMorePages()) {
        return out;
      }
      assertThat(pages.add(page.pagingState().orElseThrow())).isTrue();
      page = page.fetchNextPage();
    }
  }
}
