package dev.talus.sstable;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names one SSTable generation in a table directory: its component files are {@code
 * <dir>/nb-<generation>-<Component>}, and while being written {@code ...<Component>.tmp}. Files
 * attached to a generation later (the storage-attached index components, {@code
 * nb-<generation>-Sai...db}) follow the same pattern, so they are removed with it. Immutable and
 * thread-safe.
 */
public record SSTableDescriptor(Path directory, long generation) {
  /** Prefix of every component file name; "nb" echoes Cassandra's naming, the format is ours. */
  public static final String PREFIX = "nb-";

  static final String TMP_SUFFIX = ".tmp";

  private static final Pattern NAME =
      Pattern.compile("nb-(\\d+)-([A-Za-z][A-Za-z0-9_]*\\.(?:db|txt))(\\.tmp)?");

  public SSTableDescriptor {
    if (generation < 0) {
      throw new IllegalArgumentException("generation must be >= 0: " + generation);
    }
  }

  public Path path(Component c) {
    return directory.resolve(PREFIX + generation + "-" + c.suffix());
  }

  /** The file {@code nb-<generation>-<suffix>} beside the components, e.g. an index component. */
  public Path attached(String suffix) {
    return directory.resolve(PREFIX + generation + "-" + suffix);
  }

  /** The prefix of the index components attached to this generation ({@code nb-<gen>-Sai}). */
  public String attachedIndexPrefix() {
    return PREFIX + generation + "-Sai";
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
