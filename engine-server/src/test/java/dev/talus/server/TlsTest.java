package dev.talus.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS through the JDK's {@code SSLEngine}: a self-signed certificate made at test time with the
 * JDK's keytool (no key is committed), the driver connecting with an SSL context that trusts it.
 */
class TlsTest {
  private static final char[] PASSWORD = "test-only".toCharArray();

  @TempDir Path dir;

  private KeyStore selfSigned() throws Exception {
    Path store = dir.resolve("server.p12");
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Process p =
        new ProcessBuilder(
                List.of(
                    keytool.toString(),
                    "-genkeypair",
                    "-alias",
                    "talus",
                    "-keyalg",
                    "EC",
                    "-groupname",
                    "secp256r1",
                    "-dname",
                    "CN=localhost",
                    "-ext",
                    "SAN=ip:127.0.0.1,dns:localhost",
                    "-validity",
                    "2",
                    "-storetype",
                    "PKCS12",
                    "-keystore",
                    store.toString(),
                    "-storepass",
                    new String(PASSWORD)))
            .redirectErrorStream(true)
            .start();
    String output = new String(p.getInputStream().readAllBytes());
    assertThat(p.waitFor()).as("keytool: %s", output).isZero();
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      ks.load(in, PASSWORD);
    }
    return ks;
  }

  @Test
  void theDriverConnectsOverTlsAndAPlainClientDoesNot() throws Exception {
    KeyStore server = selfSigned();
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(server, PASSWORD);
    SSLContext serverContext = SSLContext.getInstance("TLS");
    serverContext.init(kmf.getKeyManagers(), null, null);

    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("talus", server.getCertificate("talus"));
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext clientContext = SSLContext.getInstance("TLS");
    clientContext.init(null, tmf.getTrustManagers(), null);

    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir.resolve("db")).build());
        TalusServer talus =
            TalusServer.start(db, ServerOptions.builder().sslContext(serverContext).build())) {
      try (CqlSession s =
          CqlSession.builder()
              .addContactPoint(talus.address())
              .withLocalDatacenter("datacenter1")
              .withSslContext(clientContext)
              .build()) {
        assertThat(s.execute("SELECT cluster_name FROM system.local").one().getString(0))
            .isEqualTo("Talus");
      }
      assertThatThrownBy(() -> DriverSessions.connect(talus).close())
          .isInstanceOf(AllNodesFailedException.class);
      // the refused plain connection did not hurt the server
      try (CqlSession again =
          CqlSession.builder()
              .addContactPoint(talus.address())
              .withLocalDatacenter("datacenter1")
              .withSslContext(clientContext)
              .build()) {
        assertThat(again.execute("SELECT release_version FROM system.local").one()).isNotNull();
      }
    }
  }
}
