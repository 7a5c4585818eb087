package dev.talus.data;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LivenessInfoTest {

  private static void assertSupersedes(LivenessInfo winner, LivenessInfo loser) {
    assertThat(winner.supersedes(loser)).as("%s supersedes %s", winner, loser).isTrue();
    assertThat(loser.supersedes(winner)).as("%s supersedes %s", loser, winner).isFalse();
    assertThat(winner.max(loser)).isSameAs(winner);
    assertThat(loser.max(winner)).isSameAs(winner);
  }

  @Test
  void higherTimestampWins() {
    assertSupersedes(LivenessInfo.of(11), LivenessInfo.of(10));
    assertSupersedes(LivenessInfo.of(11), LivenessInfo.expiring(10, 60, 1_000));
    assertSupersedes(LivenessInfo.expiring(11, 1, 0), LivenessInfo.of(10));
  }

  @Test
  void anyMarkerSupersedesEmpty() {
    assertSupersedes(LivenessInfo.of(Long.MIN_VALUE + 1), LivenessInfo.EMPTY);
    assertSupersedes(LivenessInfo.expiring(0, 1, 0), LivenessInfo.EMPTY);
    assertThat(LivenessInfo.EMPTY.supersedes(LivenessInfo.EMPTY)).isFalse();
  }

  @Test
  void sameTimestampExpiringBeatsPlain() {
    assertSupersedes(LivenessInfo.expiring(10, 60, 1_000), LivenessInfo.of(10));
  }

  @Test
  void sameTimestampSameKindLaterExpiryWins() {
    assertSupersedes(LivenessInfo.expiring(10, 10, 1_000), LivenessInfo.expiring(10, 60, 900));
  }

  @Test
  void sameTimestampSameExpirySmallerTtlWins() {
    assertSupersedes(new LivenessInfo(10, 5, 1_000), new LivenessInfo(10, 50, 1_000));
  }

  @Test
  void equalMarkersDoNotSupersedeEachOther() {
    LivenessInfo a = LivenessInfo.expiring(10, 60, 1_000);
    LivenessInfo b = LivenessInfo.expiring(10, 60, 1_000);
    assertThat(a.supersedes(b)).isFalse();
    assertThat(b.supersedes(a)).isFalse();
    assertThat(a.max(b)).isEqualTo(a);
    assertThat(LivenessInfo.of(3).supersedes(LivenessInfo.of(3))).isFalse();
  }

  @Test
  void expiringMarkerIsLiveUntilExactlyItsExpiry() {
    LivenessInfo l = LivenessInfo.expiring(10, 60, 1_000);
    assertThat(l.localExpirationTime()).isEqualTo(1_060);
    assertThat(l.isExpiring()).isTrue();
    assertThat(l.isLive(1_000)).isTrue();
    assertThat(l.isLive(1_059)).isTrue();
    assertThat(l.isLive(1_060)).isFalse();
    assertThat(l.isLive(1_061)).isFalse();
  }

  @Test
  void plainMarkerIsAlwaysLiveAndEmptyNever() {
    assertThat(LivenessInfo.of(10).isLive(Long.MAX_VALUE)).isTrue();
    assertThat(LivenessInfo.of(10).isExpiring()).isFalse();
    assertThat(LivenessInfo.EMPTY.isEmpty()).isTrue();
    assertThat(LivenessInfo.EMPTY.isLive(0)).isFalse();
    assertThat(LivenessInfo.of(10).isEmpty()).isFalse();
  }
}
