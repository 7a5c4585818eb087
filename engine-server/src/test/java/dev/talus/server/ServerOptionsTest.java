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
    assertThat(o.maxRequestsPerConnection()).isEqualTo(2048);
    assertThat(o.maxRequests()).isEqualTo(32_768);
    assertThat(o.requestTimeout()).isEqualTo(java.time.Duration.ofSeconds(12));
    assertThat(o.idleTimeout()).isZero();
    assertThat(o.executor()).isNull();
  }

  @Test
  void aNonLoopbackAddressNeedsAUserOrAnExplicitAllowance() throws Exception {
    InetAddress any = InetAddress.getByAddress(new byte[] {0, 0, 0, 0});
    assertThatThrownBy(() -> ServerOptions.builder().host(any).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("requires authentication");
    assertThat(ServerOptions.builder().host(any).user("app", "secret").build().users())
        .containsEntry("app", "secret");
    assertThat(ServerOptions.builder().host(any).allowUnauthenticatedRemote(true).build().host())
        .isEqualTo(any);
    assertThatThrownBy(() -> ServerOptions.builder().user("", "x"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void nonsenseValuesAreRefused() {
    assertThatThrownBy(() -> ServerOptions.builder().port(65536))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ServerOptions.builder().workerThreads(0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ServerOptions.builder().maxFrameBytes(10))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ServerOptions.builder().maxRequestsPerConnection(0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ServerOptions.builder().maxRequests(0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ServerOptions.builder().requestTimeout(java.time.Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ServerOptions.builder().idleTimeout(java.time.Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
