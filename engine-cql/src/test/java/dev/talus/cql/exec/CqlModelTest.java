package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.Batch;
import dev.talus.ClusteringOrder;
import dev.talus.DataType;
import dev.talus.Insert;
import dev.talus.InvalidQueryException;
import dev.talus.ManualClock;
import dev.talus.ResultRow;
import dev.talus.Select;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.Update;
import dev.talus.cql.BoundCql;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlRow;
import dev.talus.cql.PreparedCql;
import dev.talus.cql.TalusSession;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The same random operations — inserts, updates, deletes of cells, rows, ranges and partitions,
 * batches, TTLs, explicit timestamps, clock jumps, flushes and restarts — applied to one table
 * through CQL and to a twin table through the builder API; every read, asked both ways, must return
 * the same rows, values, write times and TTLs, or both be refused. The reads cover what CQL
 * translates: IN on the partition key and on clustering columns, ranges, multi-column relations,
 * filtering on clustering and regular columns, ORDER BY (merged across partitions), LIMIT, PER
 * PARTITION LIMIT and paging (CQL's pages, concatenated, against the unpaged builder read); and, in
 * {@link CqlModelSelectors}, aggregates (and casts and {@code toJson()} of them), {@code GROUP BY}
 * (paged), {@code DISTINCT} and {@code token()} ranges against a naive computation over the builder
 * API's rows.
 *
 * <p>The builder API is the oracle here because it is what CQL translates to; the builder API is in
 * turn checked against an in-memory model of Cassandra's semantics by engine-core's {@code
 * ModelBasedTest}. The seed is printed; {@code -Dtalus.cql.model.seed=S} replays one and {@code
 * -Dtalus.cql.model.ops=N} lengthens a run.
 */
class CqlModelTest {
  static final int OPS = Integer.getInteger("talus.cql.model.ops", 1_500);

  @TempDir Path dir;

  static LongStream seeds() {
    Long one = Long.getLong("talus.cql.model.seed");
    if (one != null) {
      return LongStream.of(one);
    }
    return LongStream.range(2026_12_01L, 2026_12_01L + 4);
  }

  private TalusDb db;
  private TalusSession cql;
  private Table api;
  private ManualClock clock;
  private PreparedCql insert;
  private PreparedCql update;
  private PreparedCql deleteRow;
  private PreparedCql deleteCell;
  private PreparedCql deleteRange;
  private PreparedCql deleteRowsAfter;
  private PreparedCql deletePartitions;
  private int refusals;

  private void open() {
    db = TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
    cql = TalusSession.builder(db).keyspace("m").fetchSize(0).build();
    api = db.table("m", "api");
    insert =
        cql.prepare(
            "INSERT INTO viacql (k, c, d, v1, v2) VALUES (?, ?, ?, ?, ?)"
                + " USING TTL ? AND TIMESTAMP ?");
    update =
        cql.prepare(
            "UPDATE viacql USING TTL ? AND TIMESTAMP ? SET v1 = ?, v2 = ?"
                + " WHERE k = ? AND c = ? AND d = ?");
    deleteRow = cql.prepare("DELETE FROM viacql USING TIMESTAMP ? WHERE k = ? AND c = ? AND d = ?");
    deleteCell =
        cql.prepare("DELETE v1 FROM viacql USING TIMESTAMP ? WHERE k = ? AND c = ? AND d = ?");
    deleteRange =
        cql.prepare("DELETE FROM viacql USING TIMESTAMP ? WHERE k = ? AND c > ? AND c <= ?");
    deleteRowsAfter =
        cql.prepare("DELETE FROM viacql USING TIMESTAMP ? WHERE k = ? AND c = ? AND d >= ?");
    deletePartitions = cql.prepare("DELETE FROM viacql USING TIMESTAMP ? WHERE k IN ?");
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void cqlAndTheBuilderApiGiveTheSameAnswers(long seed) {
    System.out.println("CqlModelTest seed " + seed + ", " + OPS + " operations");
    clock = ManualClock.startingAtDefault();
    db = TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
    TalusSession setup = TalusSession.on(db);
    setup.execute(
        "CREATE KEYSPACE m WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    setup.execute(
        "CREATE TABLE m.viacql (k int, c int, d int, v1 text, v2 bigint, PRIMARY KEY (k, c, d))"
            + " WITH CLUSTERING ORDER BY (c DESC, d ASC) AND default_time_to_live = 50");
    db.createTable(
        TableSchema.builder("api")
            .keyspace("m")
            .partitionKey("k", DataType.INT)
            .clusteringColumn("c", DataType.INT, ClusteringOrder.DESC)
            .clusteringColumn("d", DataType.INT)
            .column("v1", DataType.TEXT)
            .column("v2", DataType.BIGINT)
            .defaultTimeToLive(Duration.ofSeconds(50))
            .build());
    db.close();
    open();
    Random rnd = new Random(seed);
    long ts = 1_767_225_600_000_000L;
    int reads = 0;
    int rowsSeen = 0;
    refusals = 0;
    try {
      for (int i = 0; i < OPS; i++) {
        ts += 1 + rnd.nextInt(3);
        long writeTs = rnd.nextInt(5) == 0 ? ts - rnd.nextInt(10) : ts;
        int k = rnd.nextInt(3);
        int c = rnd.nextInt(4);
        int d = rnd.nextInt(3);
        int op = rnd.nextInt(100);
        if (op < 30) {
          write(rnd, writeTs, k, c, d);
        } else if (op < 35) {
          deleteRow.execute(writeTs, k, c, d);
          api.delete().eq("k", k).eq("c", c).eq("d", d).timestamp(writeTs).execute();
        } else if (op < 40) {
          deleteCell.execute(writeTs, k, c, d);
          api.delete().eq("k", k).eq("c", c).eq("d", d).columns("v1").timestamp(writeTs).execute();
        } else if (op < 43) {
          int hi = c + rnd.nextInt(3);
          deleteRange.execute(writeTs, k, c, hi);
          api.delete().eq("k", k).gt("c", c).le("c", hi).timestamp(writeTs).execute();
        } else if (op < 45) {
          deleteRowsAfter.execute(writeTs, k, c, d);
          api.delete().eq("k", k).eq("c", c).ge("d", d).timestamp(writeTs).execute();
        } else if (op < 46) {
          int k2 = rnd.nextInt(3);
          deletePartitions.execute(writeTs, List.of(k, k2));
          api.delete().eq("k", k).timestamp(writeTs).execute();
          api.delete().eq("k", k2).timestamp(writeTs).execute();
        } else if (op < 50) {
          // a batch: the batch's timestamp applies to both statements
          int d2 = rnd.nextInt(3);
          cql.execute(
              "BEGIN BATCH USING TIMESTAMP ?"
                  + " INSERT INTO viacql (k, c, d, v1) VALUES (?, ?, ?, 'b');"
                  + " DELETE v2 FROM viacql WHERE k = ? AND c = ? AND d = ?; APPLY BATCH",
              writeTs,
              k,
              c,
              d,
              k,
              c,
              d2);
          Batch b = db.batch();
          b.add(
              api.insert()
                  .value("k", k)
                  .value("c", c)
                  .value("d", d)
                  .value("v1", "b")
                  .timestamp(writeTs));
          b.add(api.delete().eq("k", k).eq("c", c).eq("d", d2).columns("v2").timestamp(writeTs));
          b.execute();
        } else if (op < 54) {
          clock.advance(Duration.ofSeconds(1 + rnd.nextInt(20)));
        } else if (op < 56) {
          db.table("m", "viacql").flush();
          api.flush();
        } else if (op < 57) {
          db.close();
          open();
        } else if (op < 64) {
          reads++;
          rowsSeen += new CqlModelSelectors(cql, api).read(rnd);
        } else {
          reads++;
          rowsSeen += read(rnd);
        }
      }
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(
          "seed " + seed + " (replay with -Dtalus.cql.model.seed=" + seed + ")", e);
    } finally {
      db.close();
    }
    // the run read something and most reads were valid queries
    assertThat(reads).isGreaterThan(OPS / 3);
    assertThat(rowsSeen).isGreaterThan(reads);
    assertThat(refusals).isLessThan(reads / 4);
  }

  private void write(Random rnd, long writeTs, int k, int c, int d) {
    String v1 = rnd.nextInt(6) == 0 ? null : "v" + rnd.nextInt(100);
    Long v2 = rnd.nextInt(6) == 0 ? null : (long) rnd.nextInt(1000);
    int ttl = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(30) : (rnd.nextInt(5) == 0 ? 0 : -1);
    Object ttlValue = ttl < 0 ? BoundCql.UNSET : ttl;
    if (rnd.nextBoolean()) {
      insert.execute(k, c, d, v1, v2, ttlValue, writeTs);
      Insert w =
          api.insert()
              .value("k", k)
              .value("c", c)
              .value("d", d)
              .value("v1", v1)
              .value("v2", v2)
              .timestamp(writeTs);
      if (ttl >= 0) {
        w.ttl(Duration.ofSeconds(ttl));
      }
      w.execute();
    } else {
      update.execute(ttlValue, writeTs, v1, v2, k, c, d);
      Update w =
          api.update()
              .where("k", k)
              .where("c", c)
              .where("d", d)
              .set("v1", v1)
              .set("v2", v2)
              .timestamp(writeTs);
      if (ttl >= 0) {
        w.ttl(Duration.ofSeconds(ttl));
      }
      w.execute();
    }
  }

  /** One read of a random shape, asked through CQL and through the builder API. */
  private int read(Random rnd) {
    Query q = new Query(api.select().columns("k", "c", "d", "v1", "v2"));
    boolean severalPartitions = rnd.nextInt(3) == 0;
    if (severalPartitions) {
      int k1 = rnd.nextInt(3);
      int k2 = rnd.nextInt(3);
      q.where("k IN (?, ?)", k1, k2);
      q.select.in("k", k1, k2);
    } else {
      int k = rnd.nextInt(3);
      q.where("k = ?", k);
      q.select.eq("k", k);
    }
    boolean filtering = clustering(rnd, q);
    if (rnd.nextInt(6) == 0) {
      long v2 = rnd.nextInt(1000);
      q.where("v2 > ?", v2);
      q.select.gt("v2", v2);
      filtering = true;
    }
    String order = "";
    boolean ordered = rnd.nextBoolean();
    if (ordered) {
      if (rnd.nextBoolean()) {
        order = " ORDER BY c ASC, d DESC";
        q.select.orderBy("c", ClusteringOrder.ASC).orderBy("d", ClusteringOrder.DESC);
      } else {
        order = " ORDER BY c DESC";
        q.select.orderBy("c", ClusteringOrder.DESC);
      }
    }
    String limits = "";
    boolean perPartition = severalPartitions && rnd.nextInt(3) == 0;
    if (perPartition) {
      int n = 1 + rnd.nextInt(3);
      limits += " PER PARTITION LIMIT " + n;
      q.select.perPartitionLimit(n);
    }
    if (rnd.nextInt(3) == 0) {
      int n = 1 + rnd.nextInt(6);
      limits += " LIMIT " + n;
      q.select.limit(n);
    }
    if (filtering) {
      q.select.allowFiltering();
    }
    // an ordered read of several partitions with per-partition limits is not paged by the engine
    int fetchSize = rnd.nextBoolean() || (perPartition && ordered) ? 0 : 1 + rnd.nextInt(5);
    String query =
        "SELECT k, c, d, v1, v2, writetime(v1), ttl(v2) FROM viacql WHERE "
            + String.join(" AND ", q.where)
            + order
            + limits
            + (filtering ? " ALLOW FILTERING" : "");
    String as = query + " " + q.values + " fetch size " + fetchSize;
    List<String> viaApi = answer(() -> apiRows(q.select));
    List<String> viaCql = answer(() -> cqlRows(query, q.values, fetchSize));
    assertThat(viaCql).as(as).isEqualTo(viaApi);
    if (viaApi.size() == 1 && viaApi.get(0).startsWith("refused")) {
      refusals++;
      return 0;
    }
    return viaApi.size();
  }

  /** Restricts the clustering columns in one of the shapes CQL can write; true if filtering. */
  private static boolean clustering(Random rnd, Query q) {
    int c = rnd.nextInt(4);
    int c2 = rnd.nextInt(4);
    int d = rnd.nextInt(3);
    int d2 = rnd.nextInt(3);
    switch (rnd.nextInt(11)) {
      case 0 -> {}
      case 1 -> {
        q.where("c = ?", c);
        q.select.eq("c", c);
      }
      case 2 -> {
        q.where("c = ? AND d > ?", c, d);
        q.select.eq("c", c).gt("d", d);
      }
      case 3 -> {
        q.where("c >= ? AND c < ?", c, c2 + 1);
        q.select.ge("c", c).lt("c", c2 + 1);
      }
      case 4 -> {
        q.where("c IN (?, ?)", c, c2);
        q.select.in("c", c, c2);
      }
      case 5 -> {
        q.where("c IN (?, ?) AND d IN (?, ?)", c, c2, d, d2);
        q.select.in("c", c, c2).in("d", d, d2);
      }
      case 6 -> {
        q.where("(c, d) > (?, ?)", c, d);
        q.select.gt(List.of("c", "d"), List.of(c, d));
      }
      case 7 -> {
        q.where("(c, d) >= (?, ?) AND (c, d) < (?, ?)", c, d, c2, d2);
        q.select.ge(List.of("c", "d"), List.of(c, d)).lt(List.of("c", "d"), List.of(c2, d2));
      }
      case 8 -> {
        q.where("(c, d) IN ((?, ?), (?, ?))", c, d, c2, d2);
        q.select.in(List.of("c", "d"), List.of(List.of(c, d), List.of(c2, d2)));
      }
      case 9 -> {
        q.where("d = ?", d);
        q.select.eq("d", d);
        return true;
      }
      default -> {
        q.where("c > ? AND d < ?", c, d);
        q.select.gt("c", c).lt("d", d);
        return true;
      }
    }
    return false;
  }

  /** The rows, or a single "refused" line if the query was refused as invalid. */
  private static List<String> answer(Supplier<List<String>> read) {
    try {
      return read.get();
    } catch (InvalidQueryException e) { // CqlInvalidRequestException is one
      return List.of("refused");
    }
  }

  private static List<String> apiRows(Select s) {
    List<String> out = new ArrayList<>();
    for (ResultRow r : s.execute()) {
      out.add(
          String.join(
              " ",
              String.valueOf(r.get("k")),
              String.valueOf(r.get("c")),
              String.valueOf(r.get("d")),
              String.valueOf(r.get("v1")),
              String.valueOf(r.get("v2")),
              String.valueOf(r.writeTime("v1")),
              String.valueOf(r.ttl("v2"))));
    }
    return out;
  }

  private List<String> cqlRows(String query, List<Object> values, int fetchSize) {
    List<String> out = new ArrayList<>();
    CqlResult page = cql.prepare(query).bind(values.toArray()).fetchSize(fetchSize).execute();
    while (true) {
      for (CqlRow r : page) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < 7; i++) {
          line.append(i == 0 ? "" : " ").append(r.get(i));
        }
        out.add(line.toString());
      }
      if (!page.hasMorePages()) {
        return out;
      }
      assertThat(page.size()).isLessThanOrEqualTo(fetchSize);
      page = page.fetchNextPage();
    }
  }

  /** A read being built both ways: the CQL relations and values, and the builder's select. */
  private static final class Query {
    final List<String> where = new ArrayList<>();
    final List<Object> values = new ArrayList<>();
    final Select select;

    Query(Select select) {
      this.select = select;
    }

    void where(String relation, Object... relationValues) {
      where.add(relation);
      values.addAll(List.of(relationValues));
    }
  }
}
