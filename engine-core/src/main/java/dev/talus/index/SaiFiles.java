package dev.talus.index;

import dev.talus.sstable.SSTableDescriptor;
import java.nio.file.Path;

/**
 * The names of the storage-attached index components of one SSTable generation (docs/indexes.md,
 * docs/file-format.md §12–13): {@code nb-<gen>-SaiKeys.db}, the row-key map all indexes of the
 * SSTable share, and {@code nb-<gen>-SaiTerms_<index>.db}, one term dictionary per index (or {@code
 * nb-<gen>-SaiVector_<index>.db}, the vectors of a vector index, §14, with {@code
 * nb-<gen>-SaiGraph_<index>.db}, their proximity graph, §15, for an SSTable of many vectors). Each
 * is written under {@code .tmp} and renamed into place once synced. Stateless.
 */
final class SaiFiles {
  static final String KEYS = "SaiKeys.db";
  static final String TERMS_PREFIX = "SaiTerms_";
  static final String VECTOR_PREFIX = "SaiVector_";
  static final String GRAPH_PREFIX = "SaiGraph_";

  private SaiFiles() {}

  static Path keys(SSTableDescriptor d) {
    return d.attached(KEYS);
  }

  static Path terms(SSTableDescriptor d, String index) {
    return d.attached(TERMS_PREFIX + index + ".db");
  }

  /** The vector file of vector index {@code index} ({@code nb-<gen>-SaiVector_<index>.db}). */
  static Path vectors(SSTableDescriptor d, String index) {
    return d.attached(VECTOR_PREFIX + index + ".db");
  }

  static Path tmp(Path file) {
    return file.resolveSibling(file.getFileName() + ".tmp");
  }
}
