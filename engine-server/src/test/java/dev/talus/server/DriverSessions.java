package dev.talus.server;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.config.ProgrammaticDriverConfigLoaderBuilder;
import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * Java driver sessions for the tests, with timeouts far above what a loaded 2-core machine needs,
 * so that no test depends on the speed of the machine.
 */
final class DriverSessions {
  private DriverSessions() {}

  static CqlSession connect(TalusServer server) {
    return connect(server, null);
  }

  static CqlSession connect(TalusServer server, String keyspace) {
    return connect(server, keyspace, "none");
  }

  /** A session whose frames use {@code compression} ({@code none}, {@code lz4}, {@code snappy}). */
  static CqlSession connect(TalusServer server, String keyspace, String compression) {
    return connect(server, keyspace, compression, null);
  }

  /**
   * A session that speaks protocol {@code version} ({@code "V4"}, {@code "V5"}), or negotiates it
   * as the driver does when {@code version} is null.
   */
  static CqlSession connect(
      TalusServer server, String keyspace, String compression, String version) {
    return builder(server, keyspace, compression, version, b -> b).build();
  }

  /**
   * The builder of {@link #connect(TalusServer, String, String, String)}, with {@code more} driver
   * options on top of the generous timeouts.
   */
  static CqlSessionBuilder builder(
      TalusServer server,
      String keyspace,
      String compression,
      String version,
      UnaryOperator<ProgrammaticDriverConfigLoaderBuilder> more) {
    Duration generous = Duration.ofSeconds(60);
    var builder = more.apply(DriverConfigLoader.programmaticBuilder());
    if (version != null) {
      builder = builder.withString(DefaultDriverOption.PROTOCOL_VERSION, version);
    }
    DriverConfigLoader config =
        builder
            .withString(DefaultDriverOption.PROTOCOL_COMPRESSION, compression)
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, generous)
            .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, generous)
            .withDuration(DefaultDriverOption.CONNECTION_SET_KEYSPACE_TIMEOUT, generous)
            .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, generous)
            .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, generous)
            .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, generous)
            .build();
    var b =
        CqlSession.builder()
            .addContactPoint(server.address())
            .withLocalDatacenter("datacenter1")
            .withConfigLoader(config);
    if (keyspace != null) {
      b = b.withKeyspace(keyspace);
    }
    return b;
  }
}
