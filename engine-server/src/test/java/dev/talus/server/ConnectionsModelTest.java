package dev.talus.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.talus.Table;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 64 threads on 64 driver connections (8 sessions of 8) write, delete and read at random, seeded,
 * on partitions each thread has to itself and on partitions all share, while flushes and
 * compactions run; checked against a model. Every write carries a unique client timestamp, so
 * Cassandra's rule (the highest timestamp wins) says exactly what each row must hold: a read must
 * see a write at least as recent as the last one acknowledged before it was sent, and at the end
 * every row holds its highest-timestamped write (or none, when that was a delete).
 *
 * <p>{@code -Dtalus.server.model.seed=N} replays a run's random choices (the threads' interleaving
 * is the machine's); {@code -Dtalus.server.model.ops=N} sets each thread's operation count.
 */
class ConnectionsModelTest {
  private static final int SESSIONS = 8;
  private static final int CONNECTIONS_PER_SESSION = 8;
  private static final int THREADS = SESSIONS * CONNECTIONS_PER_SESSION;
  private static final int SHARED_PARTITIONS = 8;
  private static final int OWN_PARTITIONS = 2;
  private static final int ROWS = 4;

  @TempDir Path dir;

  /** One write or delete sent: its value (null for a delete). */
  private record Op(long timestamp, String value) {}

  /** What the model knows of one row: every op sent, and the highest acknowledged timestamp. */
  private static final class RowModel {
    final Map<Long, Op> sent = new ConcurrentHashMap<>();
    final AtomicLong acknowledged = new AtomicLong(Long.MIN_VALUE);

    /** The op with the highest timestamp sent, or null. */
    Op last() {
      return sent.values().stream()
          .max((a, b) -> Long.compare(a.timestamp, b.timestamp))
          .orElse(null);
    }
  }

  private final Map<String, RowModel> model = new ConcurrentHashMap<>();
  private final AtomicLong clock = new AtomicLong(1_000_000);
  private final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();

  private RowModel row(int k, int c) {
    return model.computeIfAbsent(k + ":" + c, x -> new RowModel());
  }

  @Test
  void sixtyFourConnectionsOfRandomWritesAndReadsMatchTheModel() throws Exception {
    long seed = Long.getLong("talus.server.model.seed", System.nanoTime());
    int ops = Integer.getInteger("talus.server.model.ops", 100);
    System.out.println(
        "ConnectionsModelTest seed=" + seed + " (replay: -Dtalus.server.model.seed=" + seed + ")");
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).build());
        TalusServer server = TalusServer.start(db)) {
      List<CqlSession> sessions = new ArrayList<>();
      ExecutorService threads = Executors.newFixedThreadPool(THREADS);
      try {
        for (int i = 0; i < SESSIONS; i++) {
          sessions.add(
              DriverSessions.builder(
                      server,
                      null,
                      "none",
                      null,
                      b ->
                          b.withInt(
                              DefaultDriverOption.CONNECTION_POOL_LOCAL_SIZE,
                              CONNECTIONS_PER_SESSION))
                  .build());
        }
        CqlSession first = sessions.get(0);
        first.execute(
            "CREATE KEYSPACE m WITH replication = {'class': 'SimpleStrategy',"
                + " 'replication_factor': 1}");
        first.execute("CREATE TABLE m.t (k int, c int, v text, PRIMARY KEY (k, c))");
        // each session's connections are open (the driver opens its pool at connect)
        assertThat(server.state().connections().size()).isGreaterThanOrEqualTo(THREADS);
        Table table = db.table("m", "t");
        List<Future<Integer>> done = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
          int id = i;
          CqlSession s = sessions.get(i % SESSIONS);
          Random random = new Random(seed * 31 + i);
          done.add(threads.submit(() -> run(id, s, random, ops, table)));
        }
        int answered = 0;
        for (Future<Integer> f : done) {
          answered += f.get(10, TimeUnit.MINUTES);
        }
        assertThat(answered).as("every request answered once").isEqualTo(THREADS * ops);
        assertThat(violations).as("reads that missed an acknowledged write").isEmpty();
        table.flush();
        table.compact();
        checkFinalState(first);
      } finally {
        threads.shutdownNow();
        for (CqlSession s : sessions) {
          s.close();
        }
      }
    }
  }

  private int run(int id, CqlSession s, Random random, int ops, Table table) {
    PreparedStatement insert = s.prepare("INSERT INTO m.t (k, c, v) VALUES (?, ?, ?)");
    PreparedStatement delete = s.prepare("DELETE FROM m.t WHERE k = ? AND c = ?");
    PreparedStatement select = s.prepare("SELECT v, writetime(v) FROM m.t WHERE k = ? AND c = ?");
    int answered = 0;
    for (int i = 0; i < ops; i++) {
      int k =
          random.nextBoolean()
              ? random.nextInt(SHARED_PARTITIONS)
              : 1000 + id * OWN_PARTITIONS + random.nextInt(OWN_PARTITIONS);
      int c = random.nextInt(ROWS);
      RowModel m = row(k, c);
      int what = random.nextInt(10);
      if (what < 5) {
        long ts = clock.incrementAndGet();
        String v = "t" + id + "-" + i;
        m.sent.put(ts, new Op(ts, v));
        s.execute(insert.bind(k, c, v).setQueryTimestamp(ts));
        m.acknowledged.accumulateAndGet(ts, Math::max);
      } else if (what < 6) {
        long ts = clock.incrementAndGet();
        m.sent.put(ts, new Op(ts, null));
        s.execute(delete.bind(k, c).setQueryTimestamp(ts));
        m.acknowledged.accumulateAndGet(ts, Math::max);
      } else {
        long before = m.acknowledged.get();
        Row r = s.execute(select.bind(k, c)).one();
        check(k, c, m, before, r);
      }
      answered++;
      if (id == 0 && i % 50 == 49) {
        table.flush(); // compactions start in the background as SSTables pile up
      }
    }
    return answered;
  }

  /** A read sent after the write acknowledged at {@code before} must see it or a later op. */
  private void check(int k, int c, RowModel m, long before, Row r) {
    if (r == null) {
      boolean deleteAfter =
          m.sent.values().stream().anyMatch(o -> o.value == null && o.timestamp >= before);
      if (before != Long.MIN_VALUE && !deleteAfter) {
        violations.add(k + ":" + c + " read nothing after the write at " + before);
      }
      return;
    }
    long at = r.getLong(1);
    Op op = m.sent.get(at);
    if (op == null || !r.getString(0).equals(op.value)) {
      violations.add(k + ":" + c + " read " + r.getString(0) + "@" + at + ", never written");
    } else if (at < before) {
      violations.add(k + ":" + c + " read the write at " + at + " after the one at " + before);
    }
  }

  private void checkFinalState(CqlSession s) {
    int live = 0;
    for (Map.Entry<String, RowModel> e : model.entrySet()) {
      String[] kc = e.getKey().split(":");
      Op last = e.getValue().last();
      Row r =
          s.execute(
                  "SELECT v, writetime(v) FROM m.t WHERE k = ? AND c = ?",
                  Integer.parseInt(kc[0]),
                  Integer.parseInt(kc[1]))
              .one();
      if (last == null || last.value == null) {
        assertThat(r).as(e.getKey()).isNull();
      } else {
        live++;
        assertThat(r).as(e.getKey()).isNotNull();
        assertThat(r.getString(0)).as(e.getKey()).isEqualTo(last.value);
        assertThat(r.getLong(1)).as(e.getKey()).isEqualTo(last.timestamp);
      }
    }
    assertThat(s.execute("SELECT k FROM m.t").all()).hasSize(live);
  }
}
