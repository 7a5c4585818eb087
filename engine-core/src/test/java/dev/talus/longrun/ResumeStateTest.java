package dev.talus.longrun;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResumeStateTest {
  @TempDir Path tmp;

  @Test
  void progressSavedByOneRunIsReadByTheNext() {
    Path f = tmp.resolve("state/run.properties");
    ResumeState first = ResumeState.of(f);
    assertThat(first.resumed()).isFalse();
    first.requireSame("cycles", "1000");
    first.put("chunk.PERIODIC.0", 1234);
    first.save();
    assertThat(Files.exists(f.resolveSibling("run.properties.tmp"))).isFalse();

    ResumeState second = ResumeState.of(f);
    assertThat(second.resumed()).isTrue();
    assertThat(second.has("chunk.PERIODIC.0")).isTrue();
    assertThat(second.get("chunk.PERIODIC.0", -1)).isEqualTo(1234);
    assertThat(second.get("chunk.PERIODIC.1", -1)).isEqualTo(-1);
    second.requireSame("cycles", "1000");
    assertThatThrownBy(() -> ResumeState.of(f).requireSame("cycles", "300"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("cycles=1000, not 300");
  }

  @Test
  void withoutAFileNothingIsKept() {
    ResumeState none = ResumeState.none();
    none.put("x", 1);
    none.save();
    assertThat(ResumeState.none().has("x")).isFalse();
  }
}
