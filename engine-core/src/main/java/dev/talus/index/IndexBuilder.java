package dev.talus.index;

import dev.talus.IndexDef;
import dev.talus.data.PartitionData;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import dev.talus.io.StorageFs;
import dev.talus.schema.KeyCodec;
import dev.talus.sstable.SSTableDescriptor;
import dev.talus.sstable.SSTableReader;
import dev.talus.sstable.SSTableScanner;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;

/**
 * Writes index components of an SSTable that already exists by reading it once from end to end into
 * an {@link IndexCollector}: the path of a background build over existing SSTables, of a component
 * that is missing or damaged, and of an index created while its SSTable was being written. (A flush
 * or compaction output gets its components as it is written, {@link IndexComponentsWriter}.) A
 * tombstoned cell adds nothing; a cell that has expired by now is still indexed (reads recheck
 * every candidate row, so it never returns). Row ids depend only on the SSTable, so a component
 * rebuilt later matches the others. Each file is written under a temporary name, synced, then
 * renamed into place, and the directory synced: a crash leaves a whole component or none. A vector
 * index writes its vectors (and, for many, their graph) instead of terms ({@link VectorWriters}).
 * Stateless.
 */
final class IndexBuilder {
  private IndexBuilder() {}

  /**
   * Writes the components of {@code reader} for {@code indexes}, and the row-key map if {@code
   * withKeys}, holding at most {@code budget} bytes of terms in memory ({@link IndexCollector});
   * files of those names must not exist. The caller holds a reference on the reader.
   */
  static void build(
      StorageFs fs,
      SSTableReader reader,
      KeyCodec keys,
      List<IndexDef> indexes,
      boolean withKeys,
      long budget)
      throws IOException {
    if (indexes.isEmpty() && !withKeys) {
      return;
    }
    SSTableDescriptor d = reader.descriptor();
    List<Path> written;
    try (IndexCollector c = new IndexCollector(fs, d, keys, indexes, withKeys, budget);
        SSTableScanner scan = reader.scanner()) {
      while (scan.hasNext()) {
        PartitionData p = scan.next();
        c.startPartition(p.key().bytes());
        for (Iterator<Row> it = p.rows(Slice.ALL, false); it.hasNext(); ) {
          c.row(it.next());
        }
      }
      written = c.finish();
    }
    for (Path file : written) {
      fs.rename(SaiFiles.tmp(file), file);
    }
    fs.syncDirectory(d.directory());
  }
}
