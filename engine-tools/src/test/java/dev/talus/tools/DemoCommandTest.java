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
}
