package dev.talus.cql;

import dev.talus.PagingState;
import dev.talus.TalusDb;
import dev.talus.cql.exec.Preparer;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.Executable;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.SessionState;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.parse.CqlParser;
import dev.talus.cql.parse.CqlPrinter;
import dev.talus.cql.parse.CqlScript;
import dev.talus.cql.parse.ParsedStatement;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * CQL on a {@link TalusDb}: the statements of Cassandra 5.0's CQL that the engine can carry, run in
 * process. (Named so as not to clash with the Java driver's {@code CqlSession}, often on the same
 * class path.)
 *
 * <pre>{@code
 * try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).build())) {
 *   TalusSession cql = TalusSession.on(db);
 *   cql.execute("CREATE KEYSPACE chat WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
 *   cql.execute("USE chat");
 *   cql.execute("CREATE TABLE msgs (room text, at timestamp, body text, PRIMARY KEY (room, at))");
 *   PreparedCql insert = cql.prepare("INSERT INTO msgs (room, at, body) VALUES (?, ?, ?)");
 *   insert.execute("lobby", Instant.parse("2026-09-01T10:00:00Z"), "hi");
 *   for (CqlRow r : cql.execute("SELECT body FROM msgs WHERE room = ?", "lobby")) {
 *     System.out.println(r.getString("body"));
 *   }
 * }
 * }</pre>
 *
 * <p><b>Keyspace.</b> A session has a current keyspace, set by {@code USE} (or {@link
 * Builder#keyspace}); an unqualified table name means a table of it. With no current keyspace, an
 * unqualified name means the database's default keyspace ({@code TalusOptions.defaultKeyspace()},
 * where tables created through the Java API without a keyspace live); Cassandra would refuse it.
 *
 * <p><b>Prepared statements</b> are the fast path: {@link #prepare(String)} parses, resolves and
 * plans once; each execution then builds the engine call the builder API would. {@link
 * #execute(String, Object...)} prepares too, through a bounded cache keyed by keyspace and text, so
 * a repeated statement is parsed once. Rows come back in pages of {@link Builder#fetchSize} rows
 * (default 5,000, as the Java driver); {@link CqlResult#fetchNextPage()} reads on.
 *
 * <p><b>Errors</b> are {@link dev.talus.TalusException}s: {@link CqlSyntaxException} for text that
 * is not CQL, {@link CqlInvalidRequestException} (an {@link dev.talus.InvalidQueryException}) for a
 * statement that cannot run, {@link CqlConfigurationException} and {@link
 * CqlAlreadyExistsException} for schema statements, {@link CqlUnsupportedException} for what Talus
 * does not run (yet); the engine's own exceptions (storage, corruption, guardrails) pass through.
 * {@link CqlErrorCode#of} gives Cassandra's category of any of them.
 *
 * <p><b>Threads and lifecycle.</b> Thread-safe: any number of threads may execute statements at
 * once; {@code USE} changes the keyspace for all of them, as on a driver's session. A session holds
 * no resources and needs no closing; it stops working when its database closes ({@link
 * dev.talus.TalusClosedException}). Several sessions may share a database.
 */
public final class TalusSession {
  private static final int DEFAULT_FETCH_SIZE = 5000;

  private final TalusDb db;
  private final int fetchSize;
  private final State state = new State();
  private final Map<String, PreparedCql> cache;

  /** The schema version the cached statements were prepared against (guarded by the cache). */
  private long cachedSchemaVersion = Long.MIN_VALUE;

  private final Map<String, PreparedCql> byId;

  private TalusSession(Builder b) {
    this.db = b.db;
    this.fetchSize = b.fetchSize;
    this.state.keyspace = b.keyspace;
    int size = b.cacheSize;
    this.cache =
        new LinkedHashMap<>(16, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<String, PreparedCql> e) {
            return size() > size;
          }
        };
    this.byId =
        new LinkedHashMap<>(16, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<String, PreparedCql> e) {
            return size() > size;
          }
        };
  }

  /** A session on {@code db} with the defaults: no keyspace, 5,000 rows per page. */
  public static TalusSession on(TalusDb db) {
    return builder(db).build();
  }

  /** Starts a session on {@code db}. */
  public static Builder builder(TalusDb db) {
    return new Builder(db);
  }

  /** The database the session runs on. */
  public TalusDb db() {
    return db;
  }

  /** The current keyspace ({@code USE}), if any. */
  public Optional<String> keyspace() {
    return Optional.ofNullable(state.keyspace);
  }

  int defaultFetchSize() {
    return fetchSize;
  }

  /**
   * Prepares {@code cql}: one statement, optionally ending with {@code ;}. Preparing the same text
   * in the same keyspace again returns the cached statement.
   *
   * @throws CqlSyntaxException if it is not CQL
   * @throws CqlInvalidRequestException and the other CQL errors if it cannot run
   */
  public PreparedCql prepare(String cql) {
    Objects.requireNonNull(cql, "cql");
    String keyspace = state.keyspace;
    String key = keyspace + "\u0000" + cql;
    synchronized (cache) {
      forgetIfSchemaChanged();
      PreparedCql p = cache.get(key);
      if (p != null) {
        return p;
      }
    }
    long version = db.schemaVersion();
    ParsedStatement parsed = CqlParser.parse(cql);
    PreparedCql p = prepare(parsed, new Source(cql), keyspace, cql);
    synchronized (cache) {
      forgetIfSchemaChanged();
      if (version == cachedSchemaVersion) { // else prepared against a schema already gone
        cache.put(key, p);
        byId.put(HexFormat.of().formatHex(p.id()), p);
      }
    }
    return p;
  }

  /**
   * Empties the statement cache when the database's schema changed since the statements were
   * prepared (any session's ALTER, DROP, TRUNCATE or CREATE): a statement prepared before may name
   * a dropped column, miss an added one or hold a dropped table, so it is prepared again, as
   * Cassandra invalidates prepared statements on schema changes (a client holding a statement id is
   * told Unprepared and prepares again). Called under the cache's lock.
   */
  private void forgetIfSchemaChanged() {
    long v = db.schemaVersion();
    if (v != cachedSchemaVersion) {
      cache.clear();
      byId.clear();
      cachedSchemaVersion = v;
    }
  }

  private PreparedCql prepare(ParsedStatement parsed, Source source, String keyspace, String text) {
    PrepareContext pc = new PrepareContext(db, keyspace, source, parsed.bindMarkers().size());
    Executable e = Preparer.prepare(parsed.statement(), pc);
    return new PreparedCql(this, text, keyspace, id(keyspace, text), e, pc.variables());
  }

  /**
   * A statement prepared earlier in this session, by its {@link PreparedCql#id()} (what a server
   * receives in {@code EXECUTE}).
   *
   * @throws CqlUnpreparedException if the session does not know it
   */
  public PreparedCql prepared(byte[] id) {
    synchronized (cache) {
      forgetIfSchemaChanged();
      PreparedCql p = byId.get(HexFormat.of().formatHex(id));
      if (p == null) {
        throw new CqlUnpreparedException(id);
      }
      return p;
    }
  }

  /**
   * Prepares (through the cache) and executes {@code cql} with a value for each bind marker, in
   * order.
   */
  public CqlResult execute(String cql, Object... values) {
    return prepare(cql).bind(values).execute();
  }

  /** Prepares and executes {@code cql}, binding values by marker (or column) name. */
  public CqlResult execute(String cql, Map<String, ?> namedValues) {
    BoundCql b = prepare(cql).bind();
    for (Map.Entry<String, ?> e : namedValues.entrySet()) {
      b = b.set(e.getKey(), e.getValue());
    }
    return b.execute();
  }

  /** Executes a bound statement (of this session). */
  public CqlResult execute(BoundCql bound) {
    if (bound.prepared().session() != this) {
      throw new IllegalArgumentException("the statement was prepared in another session");
    }
    return run(
        bound.prepared(),
        bound.values(),
        bound.fetchSizeOrAll(),
        bound.pagingStateOrNull(),
        bound.timestampOrNull());
  }

  /** Executes {@code p} with {@code values} (counted already) and the session's defaults. */
  CqlResult execute(PreparedCql p, Object[] values) {
    return run(p, values, fetchSize <= 0 ? Integer.MAX_VALUE : fetchSize, null, null);
  }

  private CqlResult run(
      PreparedCql p, Object[] values, int pageSize, PagingState paging, Long timestamp) {
    ExecContext ctx = new ExecContext(state, values, pageSize, paging, timestamp);
    CqlResult r = p.executable().execute(ctx);
    if (r.hasMorePages()) {
      Object[] kept = values.clone(); // the caller's array may change once this returns
      r = r.withNextPage(next -> run(p, kept, pageSize, next, timestamp));
    }
    return r;
  }

  /**
   * Runs a file of statements (a {@code schema.cql}) one by one, handing each result to {@code
   * each}, and stops at the first error: a statement that is not CQL or cannot run throws, with the
   * line and column counted from the top of the script; the statements before it have run.
   */
  public void executeScript(String script, Consumer<CqlResult> each) {
    for (CqlScript.Piece piece : CqlScript.split(script)) {
      // Parse the piece where it stands in the script, so positions count from the file's top.
      String positioned =
          "\n".repeat(piece.line() - 1) + " ".repeat(piece.column() - 1) + piece.text();
      ParsedStatement parsed = CqlParser.parse(positioned);
      if (!parsed.bindMarkers().isEmpty()) {
        throw new CqlInvalidRequestException(
            "a script cannot hold bind markers (statement at line " + piece.line() + ")",
            piece.line(),
            piece.column(),
            piece.text().lines().findFirst().orElse(""),
            1);
      }
      PreparedCql p = prepare(parsed, new Source(script), state.keyspace, piece.text());
      each.accept(run(p, new Object[0], fetchSize, null, null));
    }
  }

  /**
   * Runs a file of statements and returns every result; see {@link #executeScript(String,
   * Consumer)}.
   */
  public List<CqlResult> executeScript(String script) {
    List<CqlResult> out = new ArrayList<>();
    executeScript(script, out::add);
    return out;
  }

  /** The CQL that re-creates every keyspace and table of the database ({@code DESCRIBE SCHEMA}). */
  public String describe() {
    return ddl("DESCRIBE SCHEMA");
  }

  /** The CQL that re-creates a keyspace and its tables ({@code DESCRIBE KEYSPACE ks}). */
  public String describeKeyspace(String keyspace) {
    return ddl("DESCRIBE KEYSPACE " + CqlPrinter.quoteName(keyspace));
  }

  /** The CQL that re-creates a table ({@code DESCRIBE TABLE ks.t}). */
  public String describeTable(String keyspace, String table) {
    return ddl(
        "DESCRIBE TABLE " + CqlPrinter.quoteName(keyspace) + "." + CqlPrinter.quoteName(table));
  }

  private String ddl(String describe) {
    List<String> statements = new ArrayList<>();
    CqlResult r = execute(describe);
    for (CqlRow row : r) {
      statements.add(row.getString("create_statement"));
    }
    return String.join("\n\n", statements) + (statements.isEmpty() ? "" : "\n");
  }

  /** Cassandra's prepared id: an MD5 of the keyspace (if any) and the query text. */
  private static byte[] id(String keyspace, String query) {
    try {
      MessageDigest md5 = MessageDigest.getInstance("MD5");
      if (keyspace != null) {
        md5.update(keyspace.getBytes(StandardCharsets.UTF_8));
      }
      md5.update(query.getBytes(StandardCharsets.UTF_8));
      return md5.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("MD5 is missing from this JVM", e);
    }
  }

  @Override
  public String toString() {
    return "TalusSession{" + db.options().dataDirectory() + ", keyspace=" + state.keyspace + "}";
  }

  /** What statements see of the session. */
  private final class State implements SessionState {
    private volatile String keyspace;

    @Override
    public TalusDb db() {
      return db;
    }

    @Override
    public String keyspace() {
      return keyspace;
    }

    @Override
    public void useKeyspace(String ks) {
      this.keyspace = ks;
    }
  }

  /** Collects a session's settings. Not thread-safe. */
  public static final class Builder {
    private final TalusDb db;
    private String keyspace;
    private int fetchSize = DEFAULT_FETCH_SIZE;
    private int cacheSize = 1000;

    private Builder(TalusDb db) {
      this.db = Objects.requireNonNull(db, "db");
    }

    /** The keyspace the session starts in, as after {@code USE} (default: none). */
    public Builder keyspace(String keyspace) {
      this.keyspace = keyspace;
      return this;
    }

    /** Rows per page of a {@code SELECT} (default 5,000; 0 or less: all rows in one page). */
    public Builder fetchSize(int rows) {
      this.fetchSize = rows <= 0 ? Integer.MAX_VALUE : rows;
      return this;
    }

    /** How many prepared statements the session keeps (default 1,000; least recently used go). */
    public Builder preparedCacheSize(int statements) {
      if (statements < 1) {
        throw new IllegalArgumentException("the cache must hold at least one statement");
      }
      this.cacheSize = statements;
      return this;
    }

    public TalusSession build() {
      if (keyspace != null && db.keyspace(keyspace).isEmpty()) {
        throw new CqlInvalidRequestException("Keyspace '" + keyspace + "' does not exist");
      }
      return new TalusSession(this);
    }
  }
}
