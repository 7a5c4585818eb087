package dev.talus.tools;

import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.server.ServerOptions;
import dev.talus.server.TalusServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code talus serve DIR [--port 9042] [--host ADDR] [--user NAME:PASSWORD]...}: the Cassandra
 * native protocol (v4 and v5) on a data directory, for the Cassandra drivers and cqlsh-like
 * clients, until the process is stopped.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Serve the Cassandra native protocol (v4 and v5) on a data directory, for the Cassandra"
          + " drivers.",
      "Binds the loopback address unless told; a non-loopback address needs a --user (or"
          + " --allow-unauthenticated-remote). Creates the directory if it is missing. Runs until"
          + " stopped (Ctrl-C), then closes the database cleanly."
    })
public final class ServeCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "The data directory.")
  Path dir;

  @Option(
      names = "--port",
      defaultValue = "9042",
      description = "The port (default: ${DEFAULT-VALUE}, Cassandra's; 0 for any free port).")
  int port;

  @Option(names = "--host", description = "The address to bind (default: the loopback address).")
  String host;

  @Option(
      names = "--user",
      paramLabel = "NAME:PASSWORD",
      description =
          "A user clients must authenticate as (SASL PLAIN, the drivers' PlainTextAuthProvider);"
              + " repeatable. With none, connections need no authentication.")
  List<String> users = new ArrayList<>();

  @Option(
      names = "--allow-unauthenticated-remote",
      description = "Bind a non-loopback --host even with no --user.")
  boolean allowUnauthenticatedRemote;

  @Option(
      names = "--max-requests-per-connection",
      defaultValue = "2048",
      description =
          "Requests in flight per connection before Overloaded (default: ${DEFAULT-VALUE}).")
  int maxRequestsPerConnection;

  @Option(
      names = "--max-requests",
      defaultValue = "32768",
      description = "Requests in flight in all before Overloaded (default: ${DEFAULT-VALUE}).")
  int maxRequests;

  @Option(
      names = "--request-timeout-ms",
      defaultValue = "12000",
      description =
          "How long a statement may wait for a worker before a timeout error (default:"
              + " ${DEFAULT-VALUE}).")
  long requestTimeoutMillis;

  @Option(
      names = "--idle-timeout-ms",
      defaultValue = "0",
      description = "Close a connection silent this long; 0 never (default: ${DEFAULT-VALUE}).")
  long idleTimeoutMillis;

  @Option(
      names = "--tls-keystore",
      paramLabel = "FILE",
      description =
          "Encrypt connections with TLS, with the key and certificate of this PKCS12 keystore.")
  Path tlsKeystore;

  @Option(
      names = "--tls-keystore-password",
      paramLabel = "PASSWORD",
      description = "The password of --tls-keystore (and of its key).")
  String tlsKeystorePassword = "";

  /** The TLS context of {@code --tls-keystore}. */
  private SSLContext sslContext() {
    char[] password = tlsKeystorePassword.toCharArray();
    try (InputStream in = Files.newInputStream(tlsKeystore)) {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(in, password);
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(ks, password);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(kmf.getKeyManagers(), null, null);
      return context;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "cannot read the TLS keystore " + tlsKeystore + ": " + e.getMessage(), e);
    }
  }

  /** The server options the command line asks for. */
  ServerOptions serverOptions() throws UnknownHostException {
    ServerOptions.Builder b =
        ServerOptions.builder()
            .port(port)
            .allowUnauthenticatedRemote(allowUnauthenticatedRemote)
            .maxRequestsPerConnection(maxRequestsPerConnection)
            .maxRequests(maxRequests)
            .requestTimeout(Duration.ofMillis(requestTimeoutMillis))
            .idleTimeout(Duration.ofMillis(idleTimeoutMillis));
    if (host != null) {
      b.host(InetAddress.getByName(host));
    }
    if (tlsKeystore != null) {
      b.sslContext(sslContext());
    }
    for (String u : users) {
      int colon = u.indexOf(':');
      if (colon <= 0) {
        throw new IllegalArgumentException("--user takes NAME:PASSWORD, not " + u);
      }
      b.user(u.substring(0, colon), u.substring(colon + 1));
    }
    return b.build();
  }

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  private final CountDownLatch stop = new CountDownLatch(1);
  private final CountDownLatch closed = new CountDownLatch(1);

  /** Stops a running {@code serve}: it closes the server and the database and returns. */
  void stop() {
    stop.countDown();
  }

  @Override
  public Integer call() throws InterruptedException, UnknownHostException {
    PrintWriter out = spec.commandLine().getOut();
    ServerOptions options = serverOptions();
    Thread hook =
        new Thread(
            () -> {
              stop();
              try {
                closed.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "talus-serve-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).build());
        TalusServer server = TalusServer.start(db, options)) {
      out.println(
          "Talus serves the Cassandra native protocol (v4, v5) on "
              + server.address().getAddress().getHostAddress()
              + ":"
              + server.address().getPort()
              + " (data directory "
              + dir
              + "); Ctrl-C stops it.");
      out.flush();
      stop.await();
    } finally {
      closed.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook is what stopped us
      }
    }
    out.println("stopped");
    out.flush();
    return ExitCodes.OK;
  }
}
