package dev.talus.server;

import dev.talus.TalusDb;
import dev.talus.cql.SchemaChange;
import dev.talus.server.wire.FrameDecoder;
import dev.talus.server.wire.Responses;
import io.netty.channel.Channel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the connections of one server share: the database, the prepared statements, the worker
 * threads, the connections that listen for schema changes. Thread-safe.
 */
final class ServerState {
  /** The CQL version advertised ({@code SUPPORTED}). */
  static final String CQL_VERSION = "3.4.7";

  private final TalusDb db;
  private final Executor workers;
  private final ServerOptions options;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final Authenticator authenticator;
  private final PreparedRegistry prepared;
  private final ChannelGroup schemaListeners =
      new DefaultChannelGroup("talus-schema-listeners", GlobalEventExecutor.INSTANCE);
  private final ChannelGroup all = new DefaultChannelGroup("talus", GlobalEventExecutor.INSTANCE);

  private final int maxFrameBytes;
  private final Set<InFlight> timed = ConcurrentHashMap.newKeySet();

  ServerState(TalusDb db, Executor workers, ServerOptions options) {
    this.db = db;
    this.options = options;
    this.authenticator = options.users().isEmpty() ? null : new Authenticator(options.users());
    this.maxFrameBytes = options.maxFrameBytes();
    this.workers = workers;
    this.prepared = new PreparedRegistry(db, options.preparedStatements());
  }

  TalusDb db() {
    return db;
  }

  /** The largest body accepted, also once decompressed. */
  int maxFrameBytes() {
    return maxFrameBytes;
  }

  Executor workers() {
    return workers;
  }

  /** The password authenticator, or null when the server asks for no authentication. */
  Authenticator authenticator() {
    return authenticator;
  }

  InstantSource clock() {
    return options.clock();
  }

  Duration requestTimeout() {
    return options.requestTimeout();
  }

  /**
   * Counts one more request in flight on a connection ({@code connection}, its count) and on the
   * server, if both have room.
   *
   * @return null if admitted, else why not (the {@code Overloaded} message)
   */
  String admit(AtomicInteger connection) {
    if (connection.incrementAndGet() > options.maxRequestsPerConnection()) {
      connection.decrementAndGet();
      return "Too many requests in flight on this connection (the limit is "
          + options.maxRequestsPerConnection()
          + "): retry later";
    }
    if (inFlight.incrementAndGet() > options.maxRequests()) {
      inFlight.decrementAndGet();
      connection.decrementAndGet();
      return "Too many requests in flight on this server (the limit is "
          + options.maxRequests()
          + "): retry later";
    }
    return null;
  }

  /** A request {@link #admit admitted} was answered. */
  void release(AtomicInteger connection) {
    connection.decrementAndGet();
    inFlight.decrementAndGet();
  }

  /** The number of requests in flight on every connection together. */
  int requestsInFlight() {
    return inFlight.get();
  }

  /** Watches {@code request} for the request timeout until it is answered. */
  InFlight track(InFlight request) {
    if (request.deadline() != null) {
      timed.add(request);
    }
    return request;
  }

  /** {@code request} was answered. */
  void forget(InFlight request) {
    timed.remove(request);
  }

  /**
   * Answers with its timeout error every request in flight longer than the request timeout, by the
   * server's clock (run every {@link #sweepPeriod()} on an I/O thread).
   */
  void sweep() {
    long now = clock().millis();
    long timeout = requestTimeout().toMillis();
    for (InFlight r : timed) {
      try {
        r.expire(now, timeout);
      } catch (RuntimeException e) {
        // the timeout answer could not be built (nothing was claimed): the worker's answer still
        // comes, and one failure must not end the sweeps (a periodic task stops at an exception)
      }
    }
  }

  /** How often {@link #sweep} runs: a tenth of the request timeout, within 10 ms and 1 s. */
  Duration sweepPeriod() {
    long millis = Math.max(10, Math.min(1000, requestTimeout().toMillis() / 10));
    return Duration.ofMillis(millis);
  }

  PreparedRegistry prepared() {
    return prepared;
  }

  /** Every open connection (closed channels leave the group by themselves). */
  ChannelGroup connections() {
    return all;
  }

  void listenForSchemaChanges(Channel c) {
    schemaListeners.add(c);
  }

  /** Sends a {@code SCHEMA_CHANGE} event to every connection that registered for them. */
  void schemaChanged(SchemaChange change) {
    for (Channel c : schemaListeners) {
      Integer version = c.attr(Connection.VERSION).get();
      c.writeAndFlush(
          Responses.schemaChangeEvent(
              c.alloc(), version != null ? version : FrameDecoder.MIN_VERSION, change));
    }
  }
}
