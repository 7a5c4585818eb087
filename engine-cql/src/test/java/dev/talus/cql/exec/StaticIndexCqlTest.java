package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.cql.CqlRow;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Indexes on static columns in CQL, and partition key component indexes on tables with static
 * columns, with Cassandra 5.0's answers: every row of a matching partition, a partition holding
 * only static values as one row with null clustering and regular columns, the same rows as the
 * filtering read with ALLOW FILTERING, before and after a flush.
 */
class StaticIndexCqlTest {
  @TempDir Path dir;

  private static List<String> rows(List<CqlRow> rows, String... columns) {
    List<String> out = new ArrayList<>();
    for (CqlRow r : rows) {
      StringBuilder b = new StringBuilder();
      for (String c : columns) {
        b.append(b.length() == 0 ? "" : "/").append(r.getInt(c));
      }
      out.add(b.toString());
    }
    return out;
  }

  @Test
  void aStaticIndexReturnsEveryRowOfTheMatchingPartitions() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute(
          "CREATE TABLE s (pk int, ck int, val1 int static, val2 int, PRIMARY KEY (pk, ck))");
      t.cql.execute("CREATE INDEX ON s (val1) USING 'sai'");
      t.cql.execute("CREATE INDEX ON s (val2) USING 'sai'");
      t.cql.execute("INSERT INTO s (pk, ck, val1, val2) VALUES (1, 1, 2, 1)");
      t.cql.execute("INSERT INTO s (pk, ck, val2) VALUES (1, 2, 2)");
      t.cql.execute("INSERT INTO s (pk, ck, val2) VALUES (1, 3, 3)");
      t.cql.execute("INSERT INTO s (pk, ck, val1, val2) VALUES (2, 1, 20, 2)");
      for (int pass = 0; pass < 2; pass++) {
        assertThat(
                rows(
                    t.cql.execute("SELECT pk, ck, val1, val2 FROM s WHERE val1 = 2").rows(),
                    "pk",
                    "ck",
                    "val1",
                    "val2"))
            .containsExactly("1/1/2/1", "1/2/2/2", "1/3/2/3");
        assertThat(
                rows(
                    t.cql
                        .execute(
                            "SELECT pk, ck FROM s WHERE val1 = 20 AND val2 = 2 ALLOW FILTERING")
                        .rows(),
                    "pk",
                    "ck"))
            .containsExactly("2/1");
        assertThat(rows(t.cql.execute("SELECT pk, ck FROM s WHERE val1 > 2").rows(), "pk", "ck"))
            .containsExactly("2/1");
        t.db.table("s").flush();
      }
    }
  }

  @Test
  void aPartitionHoldingOnlyStaticValuesIsOneRowAsWithAllowFiltering() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute("CREATE TABLE s (pk int, ck int, st int static, v int, PRIMARY KEY (pk, ck))");
      t.cql.execute("CREATE TABLE f (pk int, ck int, st int static, v int, PRIMARY KEY (pk, ck))");
      t.cql.execute("CREATE INDEX ON s (st) USING 'sai'");
      for (String table : List.of("s", "f")) {
        t.cql.execute("INSERT INTO " + table + " (pk, st) VALUES (1, 5)");
        t.cql.execute("INSERT INTO " + table + " (pk, ck, st, v) VALUES (2, 1, 5, 9)");
        t.cql.execute("INSERT INTO " + table + " (pk, st) VALUES (3, 6)");
      }
      for (int pass = 0; pass < 2; pass++) {
        List<String> indexed =
            rows(t.cql.execute("SELECT * FROM s WHERE st = 5").rows(), "pk", "ck", "st", "v");
        assertThat(indexed).containsExactlyInAnyOrder("1/null/5/null", "2/1/5/9");
        assertThat(indexed)
            .isEqualTo(
                rows(
                    t.cql.execute("SELECT * FROM f WHERE st = 5 ALLOW FILTERING").rows(),
                    "pk",
                    "ck",
                    "st",
                    "v"));
        // a restriction on a regular column names rows: a partition without rows has none
        assertThat(
                rows(
                    t.cql.execute("SELECT pk FROM s WHERE st = 5 AND v = 9 ALLOW FILTERING").rows(),
                    "pk"))
            .containsExactly("2");
        t.db.table("s").flush();
        t.db.table("f").flush();
      }
    }
  }

  @Test
  void aPartitionKeyComponentIndexOnATableWithStaticColumns() {
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.execute(
          "CREATE TABLE c (pk0 int, pk1 int, ck0 int, s1 int static, v0 int,"
              + " PRIMARY KEY ((pk0, pk1), ck0))");
      t.cql.execute("CREATE CUSTOM INDEX ON c (pk0) USING 'StorageAttachedIndex'");
      t.cql.execute(
          "UPDATE c USING TIMESTAMP 1 SET s1 = 0, v0 = 0 WHERE pk0 = 0 AND pk1 = 1 AND ck0 = 0");
      t.cql.execute("DELETE FROM c USING TIMESTAMP 2 WHERE pk0 = 0 AND pk1 = 1");
      t.cql.execute("UPDATE c USING TIMESTAMP 3 SET v0 = 1 WHERE pk0 = 0 AND pk1 = 1 AND ck0 = 1");
      t.cql.execute("INSERT INTO c (pk0, pk1, s1) VALUES (0, 2, 7)"); // static only
      for (int pass = 0; pass < 2; pass++) {
        assertThat(
                rows(
                    t.cql
                        .execute("SELECT * FROM c WHERE v0 = 1 AND pk0 = 0 ALLOW FILTERING")
                        .rows(),
                    "pk0",
                    "pk1",
                    "ck0",
                    "s1",
                    "v0"))
            .containsExactly("0/1/1/null/1");
        assertThat(rows(t.cql.execute("SELECT * FROM c WHERE pk0 = 0").rows(), "pk1", "ck0", "s1"))
            .containsExactlyInAnyOrder("1/1/null", "2/null/7");
        t.db.table("c").flush();
      }
      // a static column can join a table whose partition key components are indexed
      t.cql.execute("CREATE TABLE a (k1 int, k2 int, c int, PRIMARY KEY ((k1, k2), c))");
      t.cql.execute("CREATE INDEX ON a (k1)");
      t.cql.execute("ALTER TABLE a ADD s int static");
      t.cql.execute("INSERT INTO a (k1, k2, s) VALUES (4, 4, 4)");
      t.db.table("a").flush();
      assertThat(rows(t.cql.execute("SELECT k2, c, s FROM a WHERE k1 = 4").rows(), "k2", "c", "s"))
          .containsExactly("4/null/4");
    }
  }
}
