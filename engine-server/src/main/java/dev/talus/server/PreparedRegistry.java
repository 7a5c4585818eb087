package dev.talus.server;

import dev.talus.TalusDb;
import dev.talus.cql.CqlUnpreparedException;
import dev.talus.cql.PreparedCql;
import dev.talus.cql.TalusSession;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The server's prepared statements: which query and keyspace each id stands for, so that a
 * statement prepared on one connection runs on every other (a driver prepares once per node).
 * Bounded (least recently used go); an id it does not know is answered {@code Unprepared} and the
 * driver prepares again. Thread-safe.
 */
final class PreparedRegistry {
  /** A prepared statement's text and the keyspace it was prepared in (or null). */
  record Entry(String query, String keyspace) {}

  private final TalusDb db;
  private final Map<String, Entry> byId;

  /** Sessions that prepare in a given keyspace ("" for none), for connections in another one. */
  private final Map<String, TalusSession> sessions = new ConcurrentHashMap<>();

  PreparedRegistry(TalusDb db, int capacity) {
    this.db = db;
    this.byId =
        new LinkedHashMap<>(16, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Entry> e) {
            return size() > capacity;
          }
        };
  }

  /** Prepares {@code query} in {@code session} and remembers it. */
  PreparedCql prepare(TalusSession session, String query) {
    PreparedCql p = session.prepare(query);
    synchronized (byId) {
      byId.put(HexFormat.of().formatHex(p.id()), new Entry(query, p.keyspace().orElse(null)));
    }
    return p;
  }

  /**
   * What {@code id} stands for.
   *
   * @throws CqlUnpreparedException if no connection prepared it (or it was evicted)
   */
  Entry entry(byte[] id) {
    Entry e;
    synchronized (byId) {
      e = byId.get(HexFormat.of().formatHex(id));
    }
    if (e == null) {
      throw new CqlUnpreparedException(id);
    }
    return e;
  }

  /** The statement {@code id}, prepared in its own keyspace ({@link #sessionFor}). */
  PreparedCql find(TalusSession session, byte[] id) {
    Entry e = entry(id);
    return sessionFor(session, e.keyspace()).prepare(e.query());
  }

  /**
   * A session whose keyspace is {@code keyspace}: the connection's {@code session} if it uses it,
   * else one of the server's.
   */
  TalusSession sessionFor(TalusSession session, String keyspace) {
    if (Objects.equals(session.keyspace().orElse(null), keyspace)) {
      return session;
    }
    return sessions.computeIfAbsent(
        keyspace == null ? "" : keyspace, k -> TalusSession.builder(db).keyspace(keyspace).build());
  }

  /** Drops the server's session of {@code keyspace} (a {@code USE} ran in it). */
  void forget(String keyspace) {
    sessions.remove(keyspace == null ? "" : keyspace);
  }
}
