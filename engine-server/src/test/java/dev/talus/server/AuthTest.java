package dev.talus.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.auth.AuthenticationException;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Password authentication (SASL PLAIN) with the driver's {@code PlainTextAuthProvider}. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuthTest {
  @TempDir static Path dir;
  private TalusDb db;
  private TalusServer server;

  @BeforeAll
  void start() {
    db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build());
    server = TalusServer.start(db, ServerOptions.builder().user("app", "s3cret").build());
  }

  @AfterAll
  void stop() {
    if (server != null) {
      server.close();
    }
    db.close();
  }

  private CqlSession connect(String user, String password, String version) {
    Duration generous = Duration.ofSeconds(60);
    DriverConfigLoader config =
        DriverConfigLoader.programmaticBuilder()
            .withString(DefaultDriverOption.PROTOCOL_VERSION, version)
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, generous)
            .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, generous)
            .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, generous)
            .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, generous)
            .build();
    return CqlSession.builder()
        .addContactPoint(server.address())
        .withLocalDatacenter("datacenter1")
        .withAuthCredentials(user, password)
        .withConfigLoader(config)
        .build();
  }

  @ParameterizedTest
  @ValueSource(strings = {"V5", "V4"})
  void theRightPasswordConnects(String version) {
    try (CqlSession s = connect("app", "s3cret", version)) {
      assertThat(s.getContext().getProtocolVersion().name()).isEqualTo(version);
      assertThat(s.execute("SELECT cluster_name FROM system.local").one().getString(0))
          .isEqualTo("Talus");
    }
  }

  @Test
  void createRoleGrantAndListRolesAreRefusedAsInvalid() {
    try (CqlSession s = connect("app", "s3cret", "V5")) {
      for (String cql :
          new String[] {
            "CREATE ROLE reader WITH PASSWORD = 'x' AND LOGIN = true",
            "GRANT SELECT ON ALL KEYSPACES TO reader",
            "LIST ROLES"
          }) {
        assertThatThrownBy(() -> s.execute(cql))
            .as(cql)
            .isInstanceOfSatisfying(
                InvalidQueryException.class,
                e -> assertThat(e.getMessage()).contains("not supported by Talus"));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"V5", "V4"})
  void aWrongPasswordOrUserIsAnAuthenticationException(String version) {
    for (String[] credentials : new String[][] {{"app", "wrong"}, {"nobody", "s3cret"}}) {
      assertThatThrownBy(() -> connect(credentials[0], credentials[1], version).close())
          .isInstanceOfSatisfying(
              AllNodesFailedException.class,
              e ->
                  assertThat(e.getAllErrors().values().iterator().next().get(0))
                      .isInstanceOf(AuthenticationException.class)
                      .hasMessageContaining(
                          "Provided username "
                              + credentials[0]
                              + " and/or password are incorrect"));
    }
  }

  @Test
  void noStatementRunsBeforeTheConnectionAuthenticated() throws IOException {
    try (RawClient c = new RawClient(server.address())) {
      c.send(RawClient.frame(4, 0, 1, 0x01, RawClient.startupBody()));
      RawClient.Response authenticate = c.read();
      assertThat(authenticate.opcode()).isEqualTo(0x03);
      assertThat(StandardCharsets.UTF_8.decode(authenticate.body()).toString())
          .contains("org.apache.cassandra.auth.PasswordAuthenticator");
      c.send(RawClient.frame(4, 0, 2, 0x07, RawClient.query("SELECT * FROM system.local")));
      RawClient.Response refused = c.read();
      assertThat(refused.errorCode()).isEqualTo(0x000A);
      assertThat(refused.errorMessage()).contains("requires authentication");
      byte[] token = "\0app\0s3cret".getBytes(StandardCharsets.UTF_8);
      c.send(
          RawClient.frame(
              4,
              0,
              3,
              0x0F,
              ByteBuffer.allocate(4 + token.length).putInt(token.length).put(token).array()));
      assertThat(c.read().opcode()).as("AUTH_SUCCESS").isEqualTo(0x10);
      c.send(RawClient.frame(4, 0, 4, 0x07, RawClient.query("SELECT * FROM system.local")));
      assertThat(c.read().opcode()).as("RESULT").isEqualTo(0x08);
    }
  }
}
