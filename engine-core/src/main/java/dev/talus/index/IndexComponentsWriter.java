package dev.talus.index;

import dev.talus.IndexDef;
import dev.talus.data.PartitionKey;
import dev.talus.data.Row;
import dev.talus.io.StorageFs;
import dev.talus.schema.KeyCodec;
import dev.talus.sstable.AttachedWriter;
import dev.talus.sstable.SSTableDescriptor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes the index components of a new SSTable (a flush or compaction output) from its rows as the
 * {@link dev.talus.sstable.SSTableWriter} appends them, with the row ids the data file's order
 * gives ({@link IndexCollector}): one pass, the SSTable is never read back. Driven by the SSTable's
 * transaction ({@link AttachedWriter}): the components are synced under their temporary names
 * before the SSTable's TOC is written and renamed into place before its components are, so a
 * committed SSTable has every one of them and an aborted one (a failed or full disk, a cancelled
 * compaction) leaves none. On commit it records in {@code written} which index definitions it
 * wrote, for {@link IndexWrites#complete}. Not thread-safe.
 */
final class IndexComponentsWriter implements AttachedWriter {
  private final StorageFs fs;
  private final SSTableDescriptor desc;
  private final List<IndexDef> indexes;
  private final Map<Long, List<IndexDef>> written;
  private IndexCollector collector;
  private List<Path> files = List.of();

  IndexComponentsWriter(
      StorageFs fs,
      SSTableDescriptor desc,
      KeyCodec keys,
      List<IndexDef> indexes,
      Map<Long, List<IndexDef>> written,
      long budget)
      throws IOException {
    this.fs = fs;
    this.desc = desc;
    this.indexes = List.copyOf(indexes);
    this.written = written;
    this.collector = new IndexCollector(fs, desc, keys, indexes, true, budget);
  }

  @Override
  public void partitionStarted(PartitionKey key) {
    collector.startPartition(key.bytes());
  }

  @Override
  public void rowWritten(Row row) throws IOException {
    collector.row(row);
  }

  @Override
  public void prepareToCommit() throws IOException {
    files = collector.finish();
    collector = null; // its terms and vectors are on disk: free them while the SSTable commits
  }

  @Override
  public void commit() throws IOException {
    for (Path file : files) {
      fs.rename(SaiFiles.tmp(file), file);
    }
    written.put(desc.generation(), indexes);
  }

  @Override
  public void abort() {
    written.remove(desc.generation());
    if (collector != null) {
      try {
        collector.close();
      } catch (IOException | RuntimeException ignored) {
        // deleted next
      }
      collector = null;
    }
    List<Path> all = new ArrayList<>();
    all.add(SaiFiles.keys(desc));
    for (IndexDef d : indexes) {
      all.add(SaiFiles.terms(desc, d.name()));
      all.add(SaiFiles.vectors(desc, d.name()));
    }
    for (Path file : all) {
      try {
        fs.delete(SaiFiles.tmp(file));
        fs.delete(file);
      } catch (IOException | RuntimeException ignored) {
        // unlisted: the next open deletes every file of this generation
      }
    }
  }
}
