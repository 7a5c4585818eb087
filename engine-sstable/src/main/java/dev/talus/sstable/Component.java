package dev.talus.sstable;

/**
 * The files making up one SSTable generation. The order is the order they are written and renamed
 * in; {@link #TOC} comes last so its presence marks a complete set. Immutable.
 */
public enum Component {
  DATA("Data.db"),
  COMPRESSION_INFO("CompressionInfo.db"),
  INDEX("Index.db"),
  FILTER("Filter.db"),
  STATS("Stats.db"),
  TOC("TOC.txt");

  private final String suffix;

  Component(String suffix) {
    this.suffix = suffix;
  }

  /** The file name suffix after {@code nb-<generation>-}. */
  public String suffix() {
    return suffix;
  }

  /** The short name written into the component's header (e.g. {@code Data}). */
  String headerName() {
    return suffix.substring(0, suffix.indexOf('.'));
  }
}
