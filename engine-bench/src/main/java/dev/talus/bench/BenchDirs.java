package dev.talus.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Scratch directories for benchmark data, and their cleanup. Stateless; thread-safe. */
final class BenchDirs {
  /** The system property naming where benchmark data goes (e.g. an NVMe mount). */
  static final String DIR_PROPERTY = "talus.bench.dir";

  private BenchDirs() {}

  /** The base directory: {@code -Dtalus.bench.dir}, else the system temp directory. */
  static Path base() {
    String dir = System.getProperty(DIR_PROPERTY);
    return Path.of(dir != null && !dir.isBlank() ? dir : System.getProperty("java.io.tmpdir"));
  }

  /** A new, empty directory under {@code base} whose name starts with {@code prefix}. */
  static Path create(Path base, String prefix) {
    try {
      Files.createDirectories(base);
      return Files.createTempDirectory(base, prefix);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a benchmark directory under " + base, e);
    }
  }

  /** A new, empty directory under {@link #base()}. */
  static Path create(String prefix) {
    return create(base(), prefix);
  }

  /** Deletes {@code dir} and everything in it; a missing directory is fine. */
  static void delete(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete benchmark directory " + dir, e);
    }
  }

  /** Total size in bytes of the regular files under {@code dir}. */
  static long size(Path dir) {
    return size(dir, "");
  }

  /** Total size of the regular files under {@code dir} whose name ends with {@code suffix}. */
  static long size(Path dir, String suffix) {
    try (Stream<Path> files = Files.walk(dir)) {
      long total = 0;
      for (Path p : files.toList()) {
        if (Files.isRegularFile(p) && p.getFileName().toString().endsWith(suffix)) {
          try {
            total += Files.size(p);
          } catch (IOException e) {
            // a file removed while we walk (RocksDB deletes obsolete files in the background)
          }
        }
      }
      return total;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot measure " + dir, e);
    }
  }
}
