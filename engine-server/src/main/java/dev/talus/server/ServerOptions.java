package dev.talus.server;

import java.net.InetAddress;
import java.util.Objects;

/**
 * How a {@link TalusServer} listens: the address and port, the largest frame it accepts, how many
 * threads run statements. Immutable and thread-safe; build one with {@link #builder()}.
 */
public final class ServerOptions {
  private final InetAddress host;
  private final int port;
  private final int maxFrameBytes;
  private final int workerThreads;
  private final int preparedStatements;

  private ServerOptions(Builder b) {
    this.preparedStatements = b.preparedStatements;
    this.host = b.host;
    this.port = b.port;
    this.maxFrameBytes = b.maxFrameBytes;
    this.workerThreads = b.workerThreads;
  }

  /** The defaults: 127.0.0.1, an ephemeral port, 16 MiB frames, 4 worker threads. */
  public static ServerOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The address the server binds. */
  public InetAddress host() {
    return host;
  }

  /** The port it binds; 0 for an ephemeral one. */
  public int port() {
    return port;
  }

  /** The largest frame body accepted; a longer one closes the connection with a protocol error. */
  public int maxFrameBytes() {
    return maxFrameBytes;
  }

  /** The threads that run statements (the network threads never block on the database). */
  public int workerThreads() {
    return workerThreads;
  }

  /**
   * How many prepared statements the server remembers (least recently used go; the driver prepares
   * an evicted one again when the server answers {@code Unprepared}).
   */
  public int preparedStatements() {
    return preparedStatements;
  }

  @Override
  public String toString() {
    return "ServerOptions{" + host.getHostAddress() + ":" + port + "}";
  }

  /** Collects the options. Not thread-safe. */
  public static final class Builder {
    private InetAddress host = InetAddress.getLoopbackAddress();
    private int port;
    private int maxFrameBytes = 16 * 1024 * 1024;
    private int workerThreads = 4;
    private int preparedStatements = 10_000;

    private Builder() {}

    /** How many prepared statements the server remembers (default 10,000). */
    public Builder preparedStatements(int statements) {
      if (statements < 1) {
        throw new IllegalArgumentException("at least one prepared statement: " + statements);
      }
      this.preparedStatements = statements;
      return this;
    }

    /**
     * The address to bind (default: the loopback address). The server has no authentication yet, so
     * only a loopback address is accepted.
     */
    public Builder host(InetAddress host) {
      this.host = Objects.requireNonNull(host, "host");
      return this;
    }

    /** The port (default 0: an ephemeral port; Cassandra's is 9042). */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("not a port: " + port);
      }
      this.port = port;
      return this;
    }

    /** The largest frame body, in bytes (default 16 MiB, as Cassandra's). */
    public Builder maxFrameBytes(int bytes) {
      if (bytes < 1024) {
        throw new IllegalArgumentException("frames of at least 1 KiB must be accepted: " + bytes);
      }
      this.maxFrameBytes = bytes;
      return this;
    }

    /** The threads that run statements (default 4). */
    public Builder workerThreads(int threads) {
      if (threads < 1) {
        throw new IllegalArgumentException("at least one worker thread: " + threads);
      }
      this.workerThreads = threads;
      return this;
    }

    public ServerOptions build() {
      if (!host.isLoopbackAddress()) {
        throw new IllegalArgumentException(
            "the server has no authentication yet, so it binds only a loopback address, not "
                + host.getHostAddress());
      }
      return new ServerOptions(this);
    }
  }
}
