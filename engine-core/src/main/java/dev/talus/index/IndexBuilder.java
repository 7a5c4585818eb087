package dev.talus.index;

import dev.talus.IndexDef;
import dev.talus.data.PartitionData;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import dev.talus.io.StorageFs;
import dev.talus.schema.KeyCodec;
import dev.talus.sstable.IndexRowKeysWriter;
import dev.talus.sstable.IndexTermsWriter;
import dev.talus.sstable.SSTableDescriptor;
import dev.talus.sstable.SSTableReader;
import dev.talus.sstable.SSTableScanner;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Writes the index components of one SSTable by reading it once from end to end: every row but the
 * static row gets the next row id (in the SSTable's order) in the row-key map, and each index adds
 * the terms of the row's value of its column ({@link IndexTerms#terms}: one for a whole value, one
 * per element of a collection), if the row holds a value there. A tombstoned cell adds nothing; a
 * cell that has expired by now is still indexed (reads recheck every candidate row, so it never
 * returns). Row ids depend only on the SSTable, so a component rebuilt later matches the others. A
 * vector index writes its vectors (and, for many, their graph) instead of terms ({@link
 * VectorWriters}). Each file is written under a temporary name, synced, then renamed into place,
 * and the directory synced: a crash leaves a whole component or none. Stateless.
 */
final class IndexBuilder {
  private IndexBuilder() {}

  /**
   * Writes the components of {@code reader} for {@code indexes}, and the row-key map if {@code
   * withKeys}; files of those names must not exist. The caller holds a reference on the reader.
   */
  static void build(
      StorageFs fs, SSTableReader reader, KeyCodec keys, List<IndexDef> indexes, boolean withKeys)
      throws IOException {
    if (indexes.isEmpty() && !withKeys) {
      return;
    }
    SSTableDescriptor d = reader.descriptor();
    long gen = reader.generation();
    int n = indexes.size();
    IndexTerms.Source[] sources = new IndexTerms.Source[n];
    IndexTermsWriter[] writers = new IndexTermsWriter[n];
    VectorWriters vectors = new VectorWriters(keys, indexes);
    for (int i = 0; i < n; i++) {
      sources[i] = vectors.has(i) ? null : IndexTerms.source(indexes.get(i), keys);
      writers[i] = new IndexTermsWriter();
    }
    Path keysFile = SaiFiles.keys(d);
    Path keysTmp = SaiFiles.tmp(keysFile);
    List<Path> written = new ArrayList<>();
    fs.delete(keysTmp);
    IndexRowKeysWriter rowKeys = withKeys ? new IndexRowKeysWriter(fs, keysTmp, gen) : null;
    int rows = 0;
    try (SSTableScanner scan = reader.scanner()) {
      while (scan.hasNext()) {
        PartitionData p = scan.next();
        if (rowKeys != null) {
          rowKeys.startPartition(p.key().bytes());
        }
        for (Iterator<Row> it = p.rows(Slice.ALL, false); it.hasNext(); ) {
          Row r = it.next();
          if (r.isStatic()) {
            continue;
          }
          int rowId = rows++;
          if (rowKeys != null) {
            rowKeys.row(r.clustering());
          }
          vectors.add(r, rowId);
          for (int i = 0; i < n; i++) {
            if (sources[i] != null) {
              IndexTermsWriter w = writers[i];
              IndexTerms.terms(sources[i], r, term -> w.add(term, rowId));
            }
          }
        }
      }
      if (rowKeys != null) {
        rowKeys.finish();
        written.add(keysFile);
      }
    } finally {
      if (rowKeys != null) {
        rowKeys.close();
      }
    }
    for (int i = 0; i < n; i++) {
      if (vectors.has(i)) {
        written.addAll(vectors.write(fs, d, gen, rows, i));
        continue;
      }
      Path file = SaiFiles.terms(d, indexes.get(i).name());
      Path tmp = SaiFiles.tmp(file);
      fs.delete(tmp);
      writers[i].write(fs, tmp, gen, rows);
      written.add(file);
    }
    for (Path file : written) {
      fs.rename(SaiFiles.tmp(file), file);
    }
    fs.syncDirectory(d.directory());
  }
}
