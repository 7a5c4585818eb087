package dev.talus.server;

import dev.talus.TalusDb;
import dev.talus.server.wire.CompressionHandler;
import dev.talus.server.wire.FrameDecoder;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;

/**
 * A Cassandra native protocol server (versions 4 and 5) in front of a {@link TalusDb}: the Apache
 * Cassandra Java driver, and other drivers that speak v4 or v5, connect to it as to a one-node
 * Cassandra cluster and run CQL through {@link dev.talus.cql.TalusSession}.
 *
 * <pre>{@code
 * try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).build());
 *     TalusServer server = TalusServer.start(db, ServerOptions.defaults());
 *     CqlSession session =
 *         CqlSession.builder()
 *             .addContactPoint(server.address())
 *             .withLocalDatacenter("datacenter1")
 *             .build()) {
 *   session.execute("SELECT release_version FROM system.local");
 * }
 * }</pre>
 *
 * <p>The server binds a loopback address (an ephemeral port unless {@link
 * ServerOptions.Builder#port} says otherwise) and, unless told, has no authentication. It speaks
 * protocol v5 (in checksummed segments, LZ4 if asked) and v4, as Cassandra 5.0 negotiates them.
 * Each connection has its own current keyspace; with {@link ServerOptions#users()} connections
 * authenticate (SASL {@code PLAIN}), with {@link ServerOptions#sslContext()} they are encrypted
 * (TLS); prepared statements are shared by all connections. Statements run on {@link
 * ServerOptions#workerThreads()} threads (or {@link ServerOptions#executor()}), never on the
 * network threads; past {@link ServerOptions#maxRequestsPerConnection()} or {@link
 * ServerOptions#maxRequests()} requests in flight a request is answered {@code Overloaded}.
 *
 * <p><b>Threads and lifecycle.</b> Thread-safe. {@link #close()} closes every connection and waits
 * for the statements that are running; close the server before its database.
 */
public final class TalusServer implements AutoCloseable {
  private static final CompressionHandler COMPRESSION = new CompressionHandler();

  private final EventLoopGroup acceptor;
  private final EventLoopGroup io;
  private final ExecutorService workers; // null when the options give an executor
  private final ServerState state;
  private final Channel channel;
  private final InetSocketAddress address;

  private TalusServer(TalusDb db, ServerOptions options) {
    this.acceptor =
        new MultiThreadIoEventLoopGroup(
            1, new DefaultThreadFactory("talus-server-accept", true), NioIoHandler.newFactory());
    this.io =
        new MultiThreadIoEventLoopGroup(
            0, new DefaultThreadFactory("talus-server-io", true), NioIoHandler.newFactory());
    this.workers =
        options.executor() != null
            ? null
            : Executors.newFixedThreadPool(
                options.workerThreads(), new DefaultThreadFactory("talus-server-worker", true));
    this.state = new ServerState(db, workers != null ? workers : options.executor(), options);
    try {
      ServerBootstrap b =
          new ServerBootstrap()
              .group(acceptor, io)
              .channel(NioServerSocketChannel.class)
              .childOption(ChannelOption.TCP_NODELAY, true)
              .childHandler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                      configure(ch, state, options);
                    }
                  });
      this.channel =
          b.bind(new InetSocketAddress(options.host(), options.port()))
              .syncUninterruptibly()
              .channel();
    } catch (RuntimeException e) {
      shutdown();
      throw e;
    }
    this.address = (InetSocketAddress) channel.localAddress();
    long period = state.sweepPeriod().toMillis();
    io.next().scheduleAtFixedRate(state::sweep, period, period, TimeUnit.MILLISECONDS);
  }

  /**
   * Sets up the handlers of a new connection: the idle timeout (if any), the frame decoder, the
   * outbound framing, the connection's state machine.
   */
  static void configure(Channel ch, ServerState state, ServerOptions options) {
    state.connections().add(ch);
    if (options.sslContext() != null) {
      SSLEngine engine = options.sslContext().createSSLEngine();
      engine.setUseClientMode(false);
      ch.pipeline().addLast(new SslHandler(engine));
    }
    if (!options.idleTimeout().isZero()) {
      ch.pipeline()
          .addLast(new ReadTimeoutHandler(options.idleTimeout().toMillis(), TimeUnit.MILLISECONDS));
    }
    ch.pipeline()
        .addLast(new FrameDecoder(options.maxFrameBytes()))
        .addLast(COMPRESSION)
        .addLast(new Connection(state));
  }

  /**
   * Starts a server on {@code db} and returns once it listens.
   *
   * @throws RuntimeException (a {@link java.net.BindException}, as Netty rethrows it) if the port
   *     is taken
   */
  public static TalusServer start(TalusDb db, ServerOptions options) {
    return new TalusServer(Objects.requireNonNull(db, "db"), Objects.requireNonNull(options));
  }

  /** Starts a server on {@code db} with {@link ServerOptions#defaults()}. */
  public static TalusServer start(TalusDb db) {
    return start(db, ServerOptions.defaults());
  }

  /** The address and port the server listens on (the port is the real one, also if ephemeral). */
  public InetSocketAddress address() {
    return address;
  }

  /** The server's shared state (for the tests of this package). */
  ServerState state() {
    return state;
  }

  /** Closes the listening socket and every connection; waits for running statements. */
  @Override
  public void close() {
    channel.close().syncUninterruptibly();
    state.connections().close().awaitUninterruptibly();
    shutdown();
  }

  private void shutdown() {
    if (workers != null) {
      workers.shutdown();
      try {
        workers.awaitTermination(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    acceptor.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    io.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
  }

  @Override
  public String toString() {
    return "TalusServer{" + address + "}";
  }
}
