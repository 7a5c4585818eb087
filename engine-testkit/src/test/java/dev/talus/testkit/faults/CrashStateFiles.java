package dev.talus.testkit.faults;

import dev.talus.SSTableSummary;
import dev.talus.Table;
import dev.talus.sstable.Manifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Files of the crash-state tests: copying and deleting directories, finding what is left over. */
final class CrashStateFiles {
  private CrashStateFiles() {}

  static Path manifestOf(Path dbDir) {
    try (Stream<Path> s = Files.walk(dbDir)) {
      return s.filter(p -> p.getFileName().toString().equals(Manifest.FILE_NAME))
          .filter(p -> p.getParent().getFileName().toString().startsWith("t-"))
          .findFirst()
          .orElseThrow();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String strayFiles(Path dir, Table t) {
    Set<Long> live =
        t.sstables().stream().map(SSTableSummary::generation).collect(Collectors.toSet());
    List<String> stray = new ArrayList<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        String name = p.getFileName().toString();
        boolean unlisted =
            name.startsWith("nb-") && !live.contains(Long.parseLong(name.split("-")[1]));
        if (name.endsWith(".tmp") || unlisted) {
          stray.add(name);
        }
      }
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
    return stray.isEmpty() ? null : "stray files " + stray;
  }

  static void copyTree(Path from, Path to) {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else if (!p.getFileName().toString().equals("LOCK")) {
          Files.copy(p, target);
        }
      }
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  static void deleteTree(Path d) {
    try (Stream<Path> s = Files.walk(d)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }
}
