package dev.talus.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.PipedReader;
import java.io.PipedWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ServeCommandTest {
  @TempDir Path dir;

  @Test
  void serveAnswersTheNativeProtocolUntilStoppedThenClosesTheDatabase() throws Exception {
    CommandLine cl = TalusCli.commandLine();
    PipedReader pipe = new PipedReader();
    cl.setOut(new PrintWriter(new PipedWriter(pipe), true));
    cl.setErr(new PrintWriter(new StringWriter(), true));
    ServeCommand serve = cl.getSubcommands().get("serve").getCommand();
    AtomicInteger exit = new AtomicInteger(-1);
    Thread t = new Thread(() -> exit.set(cl.execute("serve", dir.toString(), "--port", "0")));
    t.start();
    String line = new BufferedReader(pipe).readLine();
    Matcher m = Pattern.compile("on 127\\.0\\.0\\.1:(\\d+) ").matcher(line);
    assertThat(m.find()).as(line).isTrue();
    int port = Integer.parseInt(m.group(1));
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      s.getOutputStream().write(new byte[] {4, 0, 0, 1, 0x05, 0, 0, 0, 0}); // OPTIONS
      DataInputStream in = new DataInputStream(s.getInputStream());
      byte[] header = new byte[9];
      in.readFully(header);
      assertThat(header[0]).isEqualTo((byte) 0x84);
      assertThat(header[4]).isEqualTo((byte) 0x06); // SUPPORTED
    }
    serve.stop();
    t.join();
    assertThat(exit.get()).isZero();
    // the database was closed: the directory can be opened again
    TalusDb.open(TalusOptions.builder(dir).build()).close();
  }

  private static ServeCommand parsed(String... args) {
    CommandLine cl = TalusCli.commandLine();
    cl.parseArgs(args);
    return cl.getSubcommands().get("serve").getCommand();
  }

  @Test
  void theOptionsReachTheServer() throws Exception {
    var o =
        parsed(
                "serve",
                "d",
                "--user",
                "app:pa:ss",
                "--max-requests-per-connection",
                "8",
                "--max-requests",
                "16",
                "--request-timeout-ms",
                "500",
                "--idle-timeout-ms",
                "60000")
            .serverOptions();
    assertThat(o.users()).containsEntry("app", "pa:ss");
    assertThat(o.maxRequestsPerConnection()).isEqualTo(8);
    assertThat(o.maxRequests()).isEqualTo(16);
    assertThat(o.requestTimeout()).isEqualTo(Duration.ofMillis(500));
    assertThat(o.idleTimeout()).isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void aNonLoopbackHostNeedsAUserOrTheExplicitFlag() throws Exception {
    assertThatThrownBy(() -> parsed("serve", "d", "--host", "0.0.0.0").serverOptions())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("requires authentication");
    assertThat(
            parsed("serve", "d", "--host", "0.0.0.0", "--allow-unauthenticated-remote")
                .serverOptions()
                .host()
                .isAnyLocalAddress())
        .isTrue();
    assertThatThrownBy(() -> parsed("serve", "d", "--user", "nocolon").serverOptions())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("NAME:PASSWORD");
  }

  @Test
  void aTlsKeystoreGivesTheServerAnSslContext() throws Exception {
    Path store = dir.resolve("server.p12");
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                "talus",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=localhost",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                "test-only")
            .redirectErrorStream(true)
            .start();
    String output = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).as(output).isZero();
    var o =
        parsed(
                "serve",
                "d",
                "--tls-keystore",
                store.toString(),
                "--tls-keystore-password",
                "test-only")
            .serverOptions();
    assertThat(o.sslContext()).isNotNull();
    assertThat(o.sslContext().createSSLEngine().getSupportedProtocols()).isNotEmpty();
    assertThatThrownBy(
            () ->
                parsed(
                        "serve",
                        "d",
                        "--tls-keystore",
                        store.toString(),
                        "--tls-keystore-password",
                        "wrong")
                    .serverOptions())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot read the TLS keystore");
  }
}
