package dev.talus.server;

import dev.talus.TalusDb;
import dev.talus.cql.SchemaChange;
import dev.talus.server.wire.FrameDecoder;
import dev.talus.server.wire.Responses;
import io.netty.channel.Channel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.util.concurrent.ExecutorService;

/**
 * What the connections of one server share: the database, the prepared statements, the worker
 * threads, the connections that listen for schema changes. Thread-safe.
 */
final class ServerState {
  /** The CQL version advertised ({@code SUPPORTED}). */
  static final String CQL_VERSION = "3.4.7";

  private final TalusDb db;
  private final ExecutorService workers;
  private final PreparedRegistry prepared;
  private final ChannelGroup schemaListeners =
      new DefaultChannelGroup("talus-schema-listeners", GlobalEventExecutor.INSTANCE);
  private final ChannelGroup all = new DefaultChannelGroup("talus", GlobalEventExecutor.INSTANCE);

  private final int maxFrameBytes;

  ServerState(TalusDb db, ExecutorService workers, ServerOptions options) {
    this.db = db;
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

  ExecutorService workers() {
    return workers;
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
