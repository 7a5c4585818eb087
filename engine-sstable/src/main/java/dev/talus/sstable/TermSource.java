package dev.talus.sstable;

import java.io.Closeable;
import java.io.IOException;
import org.roaringbitmap.RoaringBitmap;

/**
 * A stream of distinct index terms in increasing unsigned byte order, each with the ids of the rows
 * holding it: the terms an {@link IndexTermsWriter} holds in memory, or a run it spilled ({@link
 * IndexTermRun}). Merged by {@link TermMerge}. Not thread-safe.
 */
interface TermSource extends Closeable {
  /** Moves to the next term; false at the end (then the source has checked all it read). */
  boolean next() throws IOException;

  /** The current term (not to be modified). */
  byte[] term();

  /** Adds the current term's row ids to {@code rows}; at most once per term. */
  void rowsInto(RoaringBitmap rows) throws IOException;
}
