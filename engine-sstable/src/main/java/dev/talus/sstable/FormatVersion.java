package dev.talus.sstable;

/**
 * The SSTable format versions: every component of an SSTable (the TOC's first line and each binary
 * component's header) carries the version it was written in, and the reader decodes by it.
 *
 * <ul>
 *   <li><b>1</b>: scalar cells, rows, row markers, row, range and partition deletions;
 *   <li><b>2</b>: adds element paths of collection and user-type cells, complex-column deletions,
 *       counter cells, static rows (a reserved clustering), and a complex-deletion count in Stats.
 *       A version 1 file reads unchanged.
 *   <li><b>3</b>: the TOC may carry the manifest's witness lines, written after the manifest edit
 *       that made the SSTable live ({@link ManifestWitness}); the binary components are those of
 *       version 2. A version 2 file reads unchanged (and witnesses nothing).
 *   <li><b>4</b>: Filter.db carries a second Bloom filter, over rows ({@link Filters}); it may be
 *       empty (k = m = 0). A version 3 file reads unchanged, with no row filter.
 *   <li><b>5</b> (written): an Index.db entry with a row index also carries its partition's header
 *       flags, delta bases and deletion, so a point read goes from the entry straight to the
 *       row-index block it needs without reading the partition's first chunk. A version 4 file
 *       reads unchanged, reading the header from Data.
 * </ul>
 *
 * A file of a version newer than {@link #CURRENT} is refused at open with a message naming it.
 * Stateless.
 */
public final class FormatVersion {
  /** The version this build writes. */
  public static final int CURRENT = 5;

  /** The first version whose index entries carry their partition's header (see above). */
  static final int HEADER_IN_INDEX = 5;

  /** The oldest version this build still reads. */
  public static final int OLDEST = 1;

  private FormatVersion() {}
}
