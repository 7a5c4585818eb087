package dev.talus.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the side-by-side runner at a tiny scale so the benchmark code cannot rot: every workload
 * runs on both engines, the outputs are written and the data is cleaned up. No timing is checked.
 */
class CompareTest {
  @Test
  void tinyRunWritesEveryWorkloadForBothEngines(@TempDir Path out, @TempDir Path data)
      throws Exception {
    Compare.run(
        CompareConfig.parse(
            "--scale",
            "0.005",
            "--reps",
            "1",
            "--no-warmup",
            "--out",
            out.toString(),
            "--dir",
            data.toString()));

    String json = Files.readString(out.resolve("results.json"));
    Set<String> records = new HashSet<>();
    Matcher m =
        Pattern.compile("\"workload\": \"([^\"]+)\",\\s*\"engine\": \"([^\"]+)\"").matcher(json);
    while (m.find()) {
      records.add(m.group(1) + "/" + m.group(2));
    }
    Set<String> expected = new HashSet<>();
    for (String w : Workloads.NAMES) {
      expected.add(w + "/talus");
      expected.add(w + "/rocksdb");
    }
    assertThat(records).isEqualTo(expected);
    assertThat(json).contains("\"known_differences\"").contains("Durability: WAL_NO_SYNC");
    assertThat(ImageIO.read(out.resolve("ratios.png").toFile())).isNotNull();
    try (Stream<Path> left = Files.list(data)) {
      assertThat(left).as("benchmark data is deleted").isEmpty();
    }
  }

  @Test
  void rocksKeysSortLikeTheClustering() {
    byte[] a = RocksKeys.key(1, -5, BenchEngine.Layout.OLDEST_FIRST);
    byte[] b = RocksKeys.key(1, 7, BenchEngine.Layout.OLDEST_FIRST);
    assertThat(java.util.Arrays.compareUnsigned(a, b)).isNegative();
    byte[] c = RocksKeys.key(1, -5, BenchEngine.Layout.NEWEST_FIRST);
    byte[] d = RocksKeys.key(1, 7, BenchEngine.Layout.NEWEST_FIRST);
    assertThat(java.util.Arrays.compareUnsigned(c, d)).isPositive();
    byte[] p0 = RocksKeys.key(-1, 0, BenchEngine.Layout.OLDEST_FIRST);
    assertThat(java.util.Arrays.compareUnsigned(p0, a)).isNegative();
    assertThat(RocksKeys.hasPrefix(d, RocksKeys.prefix(1))).isTrue();
    assertThat(RocksKeys.hasPrefix(d, RocksKeys.prefix(2))).isFalse();
  }
}
