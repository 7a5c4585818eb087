package dev.talus.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoCommandTest {
  @TempDir Path dir;

  @Test
  void demoAnswersEachQueryInClusteringOrderAndShowsTheRefusal() {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    new DemoCommand(new PrintStream(buf, true, StandardCharsets.UTF_8)).run(dir);
    String out = buf.toString(StandardCharsets.UTF_8);
    // Q1: newest first, limited to 3
    int sure = out.indexOf("sure, 12:30");
    int lunch = out.indexOf("lunch?");
    int hello = out.indexOf("hello");
    assertThat(sure).isPositive().isLessThan(lunch);
    assertThat(lunch).isLessThan(hello);
    assertThat(out.substring(out.indexOf("Q1"), out.indexOf("Q2"))).doesNotContain("morning");
    // Q4 and the refusal
    assertThat(out).contains("general (").contains("random (");
    assertThat(out).contains("Rule:").contains("Fix:");
    assertThat(out)
        .contains("at t+0s:  indicator visible = true")
        .contains("at t+10s: indicator visible = false");
  }

  @Test
  void theIotPartShowsWholeDaysExpiringAndTombstonesPurged() {
    Cli.Result r = Cli.run("demo", "--dir", dir.toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    String out = r.out();
    assertThat(out)
        .contains("readings_by_sensor_day")
        .contains("[####################] 1440/1440 writes, flushed")
        .contains("10-01: 96, 10-02: 96, 10-03: 96, 10-04: 96, 10-05: 96, 480 readings")
        // the deleted partition is gone from the week read
        .contains("s-2 week: 10-01: 96, 10-03: 96, 10-04: 96, 10-05: 96, 384 readings")
        .contains("s-3 on 2026-10-05: 92 readings, 1 tombstone(s) scanned");
    String after = out.substring(out.indexOf("s-1 week now:"));
    assertThat(after).doesNotContain("10-01", "10-02", "10-03").contains("10-05: 96");
    assertThat(out).containsPattern("SSTables dropped whole \\(expired\\) +0 +[1-9]");
    assertThat(out).containsPattern("tombstones purged +0 +[1-9]");
    assertThat(out.lines().count()).isLessThan(80);
  }
}
