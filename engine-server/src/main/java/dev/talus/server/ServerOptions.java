package dev.talus.server;

import java.net.InetAddress;
import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;

/**
 * How a {@link TalusServer} listens and protects itself: the address and port, the largest frame it
 * accepts, how many threads run statements, how many requests may be in flight, how long a request
 * may wait and a connection may stay idle. Immutable and thread-safe; build one with {@link
 * #builder()}.
 */
public final class ServerOptions {
  private final InetAddress host;
  private final int port;
  private final int maxFrameBytes;
  private final int workerThreads;
  private final int preparedStatements;
  private final int maxRequestsPerConnection;
  private final int maxRequests;
  private final Duration requestTimeout;
  private final Duration idleTimeout;
  private final Executor executor;
  private final InstantSource clock;
  private final Map<String, String> users;
  private final boolean allowUnauthenticatedRemote;
  private final SSLContext sslContext;

  private ServerOptions(Builder b) {
    this.sslContext = b.sslContext;
    this.users = Map.copyOf(b.users);
    this.allowUnauthenticatedRemote = b.allowUnauthenticatedRemote;
    this.maxRequestsPerConnection = b.maxRequestsPerConnection;
    this.maxRequests = b.maxRequests;
    this.requestTimeout = b.requestTimeout;
    this.idleTimeout = b.idleTimeout;
    this.executor = b.executor;
    this.clock = b.clock;
    this.preparedStatements = b.preparedStatements;
    this.host = b.host;
    this.port = b.port;
    this.maxFrameBytes = b.maxFrameBytes;
    this.workerThreads = b.workerThreads;
  }

  /**
   * The defaults: 127.0.0.1, an ephemeral port, 16 MiB frames, 4 worker threads, 2,048 requests in
   * flight per connection and 32,768 in all, a request timeout of 12 s, no idle timeout.
   */
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

  /**
   * The most requests a connection may have in flight (received, not yet answered); one more is
   * answered {@code Overloaded} at once, as Cassandra answers past its limits.
   */
  public int maxRequestsPerConnection() {
    return maxRequestsPerConnection;
  }

  /** The most requests all connections together may have in flight; past it, {@code Overloaded}. */
  public int maxRequests() {
    return maxRequests;
  }

  /**
   * How long a statement may be in flight (waiting for a worker thread, then running): past it, it
   * is answered Cassandra's {@code Read_timeout} ({@code SELECT}) or {@code Write_timeout}; one
   * that still waited is not run, one that runs is not stopped and its result is dropped.
   */
  public Duration requestTimeout() {
    return requestTimeout;
  }

  /** How long a connection may send nothing before the server closes it; zero for never. */
  public Duration idleTimeout() {
    return idleTimeout;
  }

  /** The executor that runs statements, or null for the server's own {@link #workerThreads()}. */
  public Executor executor() {
    return executor;
  }

  /** The clock that measures how long a request waited. */
  public InstantSource clock() {
    return clock;
  }

  /**
   * The users and their passwords; when there are any, every connection must authenticate as one of
   * them (SASL {@code PLAIN}, as Cassandra's {@code PasswordAuthenticator}).
   */
  public Map<String, String> users() {
    return users;
  }

  /** The TLS context connections are encrypted with, or null for plain TCP. */
  public SSLContext sslContext() {
    return sslContext;
  }

  /** True if a non-loopback address may be bound without authentication. */
  public boolean allowUnauthenticatedRemote() {
    return allowUnauthenticatedRemote;
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
    private int maxRequestsPerConnection = 2048;
    private int maxRequests = 32_768;
    private Duration requestTimeout = Duration.ofSeconds(12);
    private Duration idleTimeout = Duration.ZERO;
    private Executor executor;
    private InstantSource clock = InstantSource.system();
    private final Map<String, String> users = new LinkedHashMap<>();
    private boolean allowUnauthenticatedRemote;
    private SSLContext sslContext;

    private Builder() {}

    /**
     * Encrypts every connection with TLS from {@code context} (the JDK's {@code SSLEngine}, in
     * server mode; the context's key manager holds the server's certificate). Default: none. With
     * TLS on, every client must connect with TLS (the driver's {@code withSslContext}).
     */
    public Builder sslContext(SSLContext context) {
      this.sslContext = Objects.requireNonNull(context, "context");
      return this;
    }

    /**
     * Adds a user: once there is one, every connection must authenticate (the drivers' {@code
     * PlainTextAuthProvider}) before it may run a statement. Passwords stay in memory only as
     * salted digests in the server.
     */
    public Builder user(String name, String password) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(password, "password");
      if (name.isEmpty() || name.indexOf(0) >= 0 || password.indexOf(0) >= 0) {
        throw new IllegalArgumentException("a user name is not empty; neither holds a NUL");
      }
      users.put(name, password);
      return this;
    }

    /**
     * Lets the server bind a non-loopback address with no users (default false: anyone who can
     * reach the port could read and write every table).
     */
    public Builder allowUnauthenticatedRemote(boolean allow) {
      this.allowUnauthenticatedRemote = allow;
      return this;
    }

    /**
     * The most requests in flight per connection (default 2,048: twice what the Java driver sends
     * on one connection by default).
     */
    public Builder maxRequestsPerConnection(int requests) {
      if (requests < 1) {
        throw new IllegalArgumentException("at least one request in flight: " + requests);
      }
      this.maxRequestsPerConnection = requests;
      return this;
    }

    /** The most requests in flight on all connections together (default 32,768). */
    public Builder maxRequests(int requests) {
      if (requests < 1) {
        throw new IllegalArgumentException("at least one request in flight: " + requests);
      }
      this.maxRequests = requests;
      return this;
    }

    /**
     * How long a statement may be in flight before it is answered with a timeout instead of its
     * result (default 12 s, Cassandra 5.0's {@code native_transport_timeout}); see {@link
     * ServerOptions#requestTimeout()}.
     */
    public Builder requestTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("a request timeout must be positive: " + timeout);
      }
      this.requestTimeout = timeout;
      return this;
    }

    /**
     * How long a connection may send nothing before it is closed (default zero: never, as
     * Cassandra's {@code native_transport_idle_timeout}). The Java driver sends a heartbeat every
     * 30 s, so a timeout above that closes only connections whose client is gone.
     */
    public Builder idleTimeout(Duration timeout) {
      if (timeout.isNegative()) {
        throw new IllegalArgumentException("an idle timeout cannot be negative: " + timeout);
      }
      this.idleTimeout = timeout;
      return this;
    }

    /**
     * Runs statements on {@code executor} instead of the server's own worker threads (which are
     * then not created). The server never shuts it down, and {@link TalusServer#close()} does not
     * wait for the statements it is running.
     */
    public Builder executor(Executor executor) {
      this.executor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /** The clock that measures how long a request waited (default: the system clock). */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** How many prepared statements the server remembers (default 10,000). */
    public Builder preparedStatements(int statements) {
      if (statements < 1) {
        throw new IllegalArgumentException("at least one prepared statement: " + statements);
      }
      this.preparedStatements = statements;
      return this;
    }

    /**
     * The address to bind (default: the loopback address). A non-loopback address needs a {@link
     * #user} unless {@link #allowUnauthenticatedRemote} says otherwise.
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
      if (!host.isLoopbackAddress() && users.isEmpty() && !allowUnauthenticatedRemote) {
        throw new IllegalArgumentException(
            "binding "
                + host.getHostAddress()
                + " (not a loopback address) requires authentication: add a user, or allow"
                + " unauthenticated remote connections explicitly");
      }
      return new ServerOptions(this);
    }
  }
}
