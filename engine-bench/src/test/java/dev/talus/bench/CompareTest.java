package dev.talus.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
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
    assertThat(json)
        .contains("\"live_heap_bytes\"", "\"heap_pool_peak_bytes\"", "\"sstables_per_level\"")
        .contains("\"memtable_footprint\"", "\"engine\": \"talus\"", "\"engine\": \"rocksdb\"");
    // every read workload says how many sources its reads consulted, on both engines
    String[] recordTexts = json.split("\"workload\": ");
    int withSources = 0;
    for (String r : recordTexts) {
      if (r.startsWith("\"readrandom\"") || r.startsWith("\"readwhilewriting\"")) {
        Matcher v = Pattern.compile("\"sources_per_read\": ([0-9.]+)").matcher(r);
        assertThat(v.find()).as("sources per read in %s", r).isTrue();
        assertThat(Double.parseDouble(v.group(1))).as("sources per read in %s", r).isPositive();
        withSources++;
      }
    }
    assertThat(withSources).isEqualTo(4);
    // memory: the budget, and what each engine says holds its memory while reads run
    assertThat(json).contains("\"memory_budget_bytes\"", "\"cache_pinned_bytes\"");
    for (String r : recordTexts) {
      if (r.startsWith("\"readrandom\"")) {
        String field = r.contains("\"engine\": \"talus\"") ? "table_reader_bytes" : "cache_bytes";
        Matcher v = Pattern.compile("\"" + field + "\": ([0-9]+)").matcher(r);
        assertThat(v.find()).as("%s in %s", field, r).isTrue();
        assertThat(Long.parseLong(v.group(1))).as("%s in %s", field, r).isPositive();
      }
    }
    assertThat(ImageIO.read(out.resolve("ratios.png").toFile())).isNotNull();
    try (Stream<Path> left = Files.list(data)) {
      assertThat(left).as("benchmark data is deleted").isEmpty();
    }
  }

  @Test
  void workloadsCanBeChosen(@TempDir Path out, @TempDir Path data) throws Exception {
    List<Summary> summaries =
        Compare.run(
            CompareConfig.parse(
                "--scale",
                "0.005",
                "--reps",
                "1",
                "--no-warmup",
                "--workloads",
                "overwrite,fillrandom-1t",
                "--out",
                out.toString(),
                "--dir",
                data.toString()));
    assertThat(summaries)
        .extracting(s -> s.workload() + "/" + s.engine())
        .containsExactly(
            "fillrandom-1t/talus", "fillrandom-1t/rocksdb", "overwrite/talus", "overwrite/rocksdb");
  }

  @Test
  void helpUnknownArgumentsAndMissingDirectories(@TempDir Path tmp) {
    assertThatThrownBy(() -> CompareConfig.parse("--help"))
        .isInstanceOf(CompareConfig.HelpRequested.class)
        .hasMessageContaining("--workloads")
        .hasMessageContaining("--create-dir");
    assertThatThrownBy(() -> CompareConfig.parse("--bogus"))
        .hasMessageStartingWith("unknown argument --bogus");
    assertThatThrownBy(() -> CompareConfig.parse("--workloads", "readrandom,nope"))
        .hasMessageContaining("unknown workload nope");
    assertThatThrownBy(() -> CompareConfig.parse("--scale", "big"))
        .hasMessageContaining("--scale needs a number");
    Path missing = tmp.resolve("not-there");
    assertThatThrownBy(() -> CompareConfig.parse("--dir", missing.toString()))
        .hasMessageContaining("does not exist")
        .hasMessageContaining("--create-dir");
    assertThat(CompareConfig.parse("--dir", missing.toString(), "--create-dir").dataDir())
        .isEqualTo(missing);
    assertThat(CompareConfig.parse("--workloads", "latest50,readrandom").workloads())
        .containsExactly("readrandom", "latest50");
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
