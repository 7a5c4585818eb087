package dev.talus.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class ServerOptionsTest {
  @Test
  void defaultsAreLoopbackAndAnEphemeralPort() {
    ServerOptions o = ServerOptions.defaults();
    assertThat(o.host().isLoopbackAddress()).isTrue();
    assertThat(o.port()).isZero();
    assertThat(o.maxFrameBytes()).isEqualTo(16 * 1024 * 1024);
    assertThat(o.workerThreads()).isEqualTo(4);
  }

  @Test
  void aNonLoopbackAddressIsRefusedSinceThereIsNoAuthentication() throws Exception {
    InetAddress any = InetAddress.getByAddress(new byte[] {0, 0, 0, 0});
    assertThatThrownBy(() -> ServerOptions.builder().host(any).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no authentication");
  }

  @Test
  void nonsenseValuesAreRefused() {
    assertThatThrownBy(() -> ServerOptions.builder().port(65536))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ServerOptions.builder().workerThreads(0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ServerOptions.builder().maxFrameBytes(10))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
