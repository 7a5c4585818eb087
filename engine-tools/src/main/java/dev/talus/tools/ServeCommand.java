package dev.talus.tools;

import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.server.ServerOptions;
import dev.talus.server.TalusServer;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code talus serve DIR [--port 9042]}: the Cassandra native protocol (v4) on a data directory,
 * for the Cassandra drivers and cqlsh-like clients, until the process is stopped.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Serve the Cassandra native protocol (v4) on a data directory, for the Cassandra drivers.",
      "Binds the loopback address only (there is no authentication yet); creates the directory if"
          + " it is missing. Runs until stopped (Ctrl-C), then closes the database cleanly."
    })
public final class ServeCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "DIR", description = "The data directory.")
  Path dir;

  @Option(
      names = "--port",
      defaultValue = "9042",
      description = "The port (default: ${DEFAULT-VALUE}, Cassandra's; 0 for any free port).")
  int port;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  private final CountDownLatch stop = new CountDownLatch(1);
  private final CountDownLatch closed = new CountDownLatch(1);

  /** Stops a running {@code serve}: it closes the server and the database and returns. */
  void stop() {
    stop.countDown();
  }

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
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
        TalusServer server = TalusServer.start(db, ServerOptions.builder().port(port).build())) {
      out.println(
          "Talus serves the Cassandra native protocol (v4) on "
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
