package dev.talus.sstable;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names one SSTable generation in a table directory: its component files are {@code
 * <dir>/nb-<generation>-<Component>}, and while being written {@code ...<Component>.tmp}. Immutable
 * and thread-safe.
 */
public record SSTableDescriptor(Path directory, long generation) {
  /** Prefix of every component file name; "nb" echoes Cassandra's naming, the format is ours. */
  public static final String PREFIX = "nb-";

  static final String TMP_SUFFIX = ".tmp";

  private static final Pattern NAME =
      Pattern.compile("nb-(\\d+)-([A-Za-z]+\\.(?:db|txt))(\\.tmp)?");

  public SSTableDescriptor {
    if (generation < 0) {
      throw new IllegalArgumentException("generation must be >= 0: " + generation);
    }
  }

  public Path path(Component c) {
    return directory.resolve(PREFIX + generation + "-" + c.suffix());
  }

  Path tmpPath(Component c) {
    return directory.resolve(PREFIX + generation + "-" + c.suffix() + TMP_SUFFIX);
  }

  /**
   * The generation a component file (final or temporary) belongs to, or -1 if the name is not an
   * SSTable component.
   */
  public static long generationOf(Path file) {
    Matcher m = NAME.matcher(file.getFileName().toString());
    if (!m.matches()) {
      return -1;
    }
    try {
      return Long.parseLong(m.group(1));
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
