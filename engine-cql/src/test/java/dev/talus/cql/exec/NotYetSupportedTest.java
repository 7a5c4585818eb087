package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.talus.cql.CqlErrorCode;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlUnsupportedException;
import dev.talus.cql.TalusSession;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What Talus does not have yet in CQL — another index class, LIKE — is refused before anything
 * runs, with Cassandra's Invalid category and a message that says Talus does not support it yet,
 * names the feature and points at the offending text. Nothing is written by a refused statement.
 */
class NotYetSupportedTest {
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

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "another index class | CREATE INDEX ON m (v) USING 'org.example.Other' | index class",
        "LIKE | SELECT * FROM m WHERE k = 'a' AND v LIKE 'x%' ALLOW FILTERING | LIKE",
        "arithmetic in selectors | SELECT c + 1 FROM m WHERE k = 'a' | arithmetic",
      })
  void isRefusedAsNotYetSupported(String what, String statement, String feature) {
    CqlUnsupportedException e =
        catchThrowableOfType(CqlUnsupportedException.class, () -> cql.execute(statement));
    assertThat(e).as(statement).isNotNull();
    assertThat(e.planned()).isTrue();
    assertThat(CqlErrorCode.of(e)).isEqualTo(CqlErrorCode.INVALID);
    assertThat(e.reason()).startsWith("not supported yet by Talus: ");
    assertThat(e.feature()).containsIgnoringCase(feature);
    assertThat(e.line()).isEqualTo(1);
    assertThat(e.column()).isPositive();
    // nothing ran: no table was created or changed, no row written
    assertThat(t.db.tables()).extracting(x -> x.schema().name()).containsExactly("m");
    assertThat(cql.execute("SELECT * FROM m WHERE k = 'a'").rows()).isEmpty();
  }

  /**
   * A SELECT without the partition key was refused until the engine had table scans; it now runs as
   * one: every partition, in token order, paged across partitions.
   */
  @Test
  void aSelectWithoutThePartitionKeyRunsAsATableScan() {
    for (String k : List.of("a", "b", "c")) {
      for (int c = 0; c < 5; c++) {
        cql.execute("INSERT INTO m (k, c, v) VALUES (?, ?, 'x')", k, c);
      }
    }
    List<String> keys = new ArrayList<>();
    CqlResult page = cql.prepare("SELECT k, c FROM m").bind().fetchSize(4).execute();
    while (true) {
      page.forEach(r -> keys.add(r.getString(0) + r.getInt(1)));
      if (!page.hasMorePages()) {
        break;
      }
      page = page.fetchNextPage();
    }
    assertThat(keys).hasSize(15).doesNotHaveDuplicates();
    List<String> partitions = keys.stream().map(k -> k.substring(0, 1)).distinct().toList();
    assertThat(partitions)
        .containsExactlyInAnyOrder("a", "b", "c")
        .isSortedAccordingTo(
            (x, y) -> Long.compare(t.db.table("m").token(x), t.db.table("m").token(y)));
    assertThat(cql.execute("SELECT DISTINCT k FROM m").rows())
        .extracting(r -> r.getString(0))
        .containsExactlyElementsOf(partitions);
    assertThat(cql.execute("SELECT k, c FROM m PER PARTITION LIMIT 2").rows())
        .extracting(r -> r.getString(0) + r.getInt(1))
        .containsExactly(
            partitions.get(0) + 0,
            partitions.get(0) + 1,
            partitions.get(1) + 0,
            partitions.get(1) + 1,
            partitions.get(2) + 0,
            partitions.get(2) + 1);
    assertThat(cql.execute("SELECT k, c FROM m LIMIT 7").rows()).hasSize(7);
  }
}
