package dev.talus.bench.ycsb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The per-read timeline of a YCSB run phase: what it writes, and that it is off by default. */
class ReadTimelineTest {
  @Test
  void offUnlessTheDirectoryIsGiven() {
    assertThat(System.getProperty(ReadTimeline.DIR)).isNull();
    assertThat(ReadTimeline.enabled()).isFalse();
    assertThat(ReadTimeline.current()).isNull();
  }

  @Test
  void writesSlowReadsWithTheirSchedulerTimesAndEngineEvents(@TempDir Path dir) throws Exception {
    System.setProperty(ReadTimeline.DIR, dir.toString());
    String summary;
    try {
      assertThat(ReadTimeline.enabled()).isTrue();
      ReadTimeline t = ReadTimeline.start("phase");
      assertThat(ReadTimeline.current()).isSameAs(t);
      // 5 ms of wall time: 3 ms on a CPU, 2 ms waiting for one
      t.slowRead(
          5_000_000L, new long[] {1_000_000L, 7_000_000L}, new long[] {4_000_000L, 9_000_000L});
      ReadTimeline.LISTENER.onFlush("usertable", 123);
      ReadTimeline.LISTENER.onCompaction("usertable", 456, 400);
      t.close();
      t.close(); // a second close does nothing
      assertThat(ReadTimeline.current()).isNull();
      ReadTimeline.LISTENER.onFlush("usertable", 789); // no phase running: dropped
      summary = t.summary();
    } finally {
      System.clearProperty(ReadTimeline.DIR);
    }
    String file = Files.readString(dir.resolve("phase.tsv"));
    assertThat(file)
        .contains("\tread\t5000 3000 2000\n", "\tflush\t123\n", "\tcompaction\t456\n")
        .doesNotContain("789");
    assertThat(summary)
        .startsWith("phase.tsv: 1 reads over 1000 µs, their time 60% on a CPU, 40% waiting");
  }

  @Test
  void warmupDivisorIsParsedAndChecked() {
    assertThat(RunYcsb.Config.parse().warmupDivisor()).isEqualTo(5);
    RunYcsb.Config c = RunYcsb.Config.parse("--records", "1000", "--warmup-divisor", "1");
    assertThat(c.warmupDivisor()).isEqualTo(1);
    assertThat(c.smaller(c.warmupDivisor()).records()).isEqualTo(1000);
    assertThatThrownBy(() -> RunYcsb.Config.parse("--warmup-divisor", "0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--warmup-divisor");
  }
}
