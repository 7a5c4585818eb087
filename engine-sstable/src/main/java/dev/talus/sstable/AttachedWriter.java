package dev.talus.sstable;

import dev.talus.data.PartitionKey;
import dev.talus.data.Row;
import java.io.IOException;

/**
 * Writes files attached to one SSTable (the storage-attached index components) from its rows as the
 * {@link SSTableWriter} appends them, so that they need not be built by reading the SSTable back.
 * The SSTable writer drives it through its own transaction: every partition and row as it is
 * written, then {@link #prepareToCommit} while the writer prepares (before its TOC is written),
 * {@link #commit} before the writer renames its own components into place (its directory sync then
 * covers both), and {@link #abort} whenever the writer aborts. So a committed SSTable has its
 * attached files complete and synced, and an aborted one leaves none of them. Exceptions from any
 * method fail the SSTable write. Called on the writing thread; not thread-safe.
 */
public interface AttachedWriter {
  /** Makes the attached writer of each new SSTable; set with {@link SSTableOptions.Builder}. */
  @FunctionalInterface
  interface Factory {
    /**
     * The attached writer of the SSTable {@code desc} about to be written, or null if it has no
     * attached files.
     */
    AttachedWriter open(SSTableDescriptor desc) throws IOException;
  }

  /** Partition {@code key} starts; its rows (the static row first, if any) follow. */
  void partitionStarted(PartitionKey key) throws IOException;

  /** Row {@code row} of the current partition was written. */
  void rowWritten(Row row) throws IOException;

  /** Finishes every attached file under a temporary name and forces it to storage. */
  void prepareToCommit() throws IOException;

  /** Renames every attached file into place; the SSTable writer syncs the directory after. */
  void commit() throws IOException;

  /** Deletes every file this writer created, temporary or renamed. Never throws. */
  void abort();
}
