package dev.talus.table;

import dev.talus.InvalidQueryException;
import dev.talus.StorageException;
import dev.talus.data.PartitionData;
import dev.talus.data.PartitionMerger;
import dev.talus.data.Slice;
import dev.talus.io.CorruptFileException;
import dev.talus.io.StorageFs;
import dev.talus.runtime.DbContext;
import dev.talus.sstable.SSTableReader;
import dev.talus.sstable.SSTableScanner;
import dev.talus.sstable.SSTableWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Makes the SSTables of another directory — a snapshot of this table — live in a table (after
 * Cassandra's {@code nodetool import}). Each source SSTable is checksummed in full, then copied
 * partition by partition, every cell with its write time, TTL and tombstones, into a new SSTable of
 * the table (level 0, under a new generation: a generation is part of every checksum, so files
 * cannot just be renamed); then all the copies join the live set in one manifest edit, so a crash
 * leaves either none or all of them. The copies record no commit-log interval, so they never change
 * which commit-log records the next open replays. The source is only read. Stateless.
 */
public final class SSTableImport {
  private SSTableImport() {}

  /**
   * Imports every complete SSTable in {@code source} into {@code table}; returns how many. The
   * caller has checked that their column ids mean what they mean in the table.
   *
   * @throws InvalidQueryException if {@code source} holds no SSTable; nothing is imported then
   * @throws CorruptFileException if one fails a checksum; nothing is imported then
   */
  public static int importFrom(DbContext ctx, TableHost host, TableStore table, Path source)
      throws IOException {
    StorageFs fs = ctx.fs();
    Set<Long> gens = SnapshotFiles.generationsIn(fs, source);
    if (gens.isEmpty()) {
      throw new InvalidQueryException(
          "no SSTable in " + source + " (expected files named nb-<generation>-<Component>)");
    }
    List<SSTableReader> copies = new ArrayList<>();
    boolean handedOver = false;
    try {
      for (long gen : gens) {
        copies.add(copy(ctx, table, source, gen));
      }
      // From here the tracker owns the copies; if its manifest edit fails, the record may still
      // reach the disk and name them, so they stay (the next open removes them if it does not).
      handedOver = true;
      table.tracker().swap(List.of(), copies);
      host.flushed(table); // new SSTables are live: the strategy may have work
      return copies.size();
    } finally {
      if (!handedOver) {
        for (SSTableReader r : copies) {
          r.markObsolete(); // never live: its files go with the last reference
          r.release();
        }
      }
    }
  }

  /** Verifies source generation {@code gen} and writes a copy of it; returns the copy, opened. */
  private static SSTableReader copy(DbContext ctx, TableStore table, Path source, long gen)
      throws IOException {
    ctx.checkWritable();
    SSTableReader src = SSTableReader.open(ctx.fs(), source, gen, ctx.chunkCache());
    long newGen;
    try {
      src.verify();
      newGen = table.manifest().newGeneration();
      try (SSTableWriter w =
              SSTableWriter.create(
                  ctx.fs(),
                  table.directory(),
                  newGen,
                  Math.max(1, src.stats().partitionCount()),
                  Math.max(1, src.stats().rowCount()),
                  table.sstableOptions(0));
          SSTableScanner partitions = src.scanner()) {
        while (partitions.hasNext()) {
          PartitionData p = partitions.next();
          PartitionMerger.Merged m = PartitionMerger.merge(p.key(), List.of(p), Slice.ALL, false);
          w.append(p.key(), m.partitionDeletion(), m.rangeDeletions().intervals(), m.rows());
        }
        w.prepareToCommit();
        w.commit();
      }
    } catch (IllegalStateException e) {
      throw new StorageException("SSTable " + gen + " in " + source + " is out of order", e);
    } finally {
      src.release();
    }
    return SSTableReader.open(ctx.fs(), table.directory(), newGen, ctx.chunkCache());
  }
}
