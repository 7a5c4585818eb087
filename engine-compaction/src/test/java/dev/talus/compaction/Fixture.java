package dev.talus.compaction;

import dev.talus.compaction.Parts.Part;
import dev.talus.data.Cell;
import dev.talus.data.DeletionIntervals;
import dev.talus.data.DeletionTime;
import dev.talus.data.LiveRows;
import dev.talus.data.LivenessInfo;
import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionMerger;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import dev.talus.sstable.ChunkCache;
import dev.talus.sstable.Manifest;
import dev.talus.sstable.SSTableOptions;
import dev.talus.sstable.SSTableReader;
import dev.talus.sstable.SSTableWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;

/** A table directory with a manifest, real SSTables and random content. Not thread-safe. */
final class Fixture implements AutoCloseable {
  static final long NOW = 1_000_000L;

  final StorageFs fs;
  final Path dir;
  final Manifest manifest;
  final ChunkCache cache = ChunkCache.create(1 << 20);
  final List<SSTableReader> opened = new ArrayList<>();

  Fixture(Path dir) throws IOException {
    this(new NioStorageFs(), dir);
  }

  Fixture(StorageFs fs, Path dir) throws IOException {
    this.fs = fs;
    this.dir = dir;
    this.manifest = Manifest.open(fs, dir);
  }

  /** Writes {@code parts} (any order) as a live SSTable and opens it. */
  ReaderInfo write(List<Part> parts, long createdAt) throws IOException {
    List<Part> sorted = new ArrayList<>(parts);
    sorted.sort(Comparator.comparing(Part::key));
    long gen = manifest.newGeneration();
    SSTableOptions opts =
        SSTableOptions.builder()
            .chunkSize(1024)
            .rowIndexBlockSize(512)
            .createdAt(createdAt)
            .build();
    try (SSTableWriter w = SSTableWriter.create(fs, dir, gen, sorted.size(), opts)) {
      for (Part p : sorted) {
        w.append(
            p.key(),
            p.deletion(),
            DeletionIntervals.of(p.rts()).intervals(),
            p.rows(Slice.ALL, false));
      }
      w.commit();
    }
    manifest.apply(List.of(gen), List.of());
    SSTableReader r = SSTableReader.open(fs, dir, gen, cache);
    opened.add(r);
    return new ReaderInfo(r);
  }

  /**
   * Makes a compaction's result live as the engine's view tracker does: one manifest edit adding
   * the outputs and removing the inputs and expired SSTables, which are then marked obsolete.
   */
  void swap(CompactionTask.Result res) throws IOException {
    manifest.apply(res.outputGenerations(), res.removedGenerations());
    for (ReaderInfo r : res.plan().inputs()) {
      r.reader().markObsolete();
    }
    for (ReaderInfo r : res.plan().expired()) {
      r.reader().markObsolete();
    }
  }

  ReaderInfo write(Part... parts) throws IOException {
    return write(List.of(parts), NOW);
  }

  void track(List<SSTableReader> readers) {
    opened.addAll(readers);
  }

  /** Every key's live rows at {@code now}, merging what {@code sources} hold for it. */
  static Map<PartitionKey, List<Row>> liveContent(
      List<List<? extends PartitionData>> sourcesByKey, long now) {
    Map<PartitionKey, List<Row>> out = new TreeMap<>();
    for (List<? extends PartitionData> sources : sourcesByKey) {
      PartitionKey k = sources.get(0).key();
      PartitionMerger.Merged m = PartitionMerger.merge(k, sources, Slice.ALL, false);
      List<Row> rows = Parts.rows(new LiveRows(m.rows(), now, n -> {}));
      if (!rows.isEmpty()) {
        out.put(k, rows);
      }
    }
    return out;
  }

  /** Live content at {@code now} of in-memory SSTables (lists of parts). */
  static Map<PartitionKey, List<Row>> liveOfParts(List<List<Part>> tables, long now) {
    Map<PartitionKey, List<PartitionData>> byKey = new TreeMap<>();
    for (List<Part> t : tables) {
      for (Part p : t) {
        byKey.computeIfAbsent(p.key(), k -> new ArrayList<>()).add(p);
      }
    }
    return liveContent(new ArrayList<>(byKey.values()), now);
  }

  /** Live content at {@code now} of readers, looked up key by key. */
  static Map<PartitionKey, List<Row>> liveOfReaders(
      List<SSTableReader> readers, Iterable<PartitionKey> keys, long now) {
    List<List<? extends PartitionData>> byKey = new ArrayList<>();
    for (PartitionKey k : keys) {
      List<PartitionData> sources = new ArrayList<>();
      for (SSTableReader r : readers) {
        PartitionData d = r.partition(k);
        if (d != null) {
          sources.add(d);
        }
      }
      if (!sources.isEmpty()) {
        byKey.add(sources);
      }
    }
    return liveContent(byKey, now);
  }

  static TreeSet<PartitionKey> keys(List<List<Part>> tables) {
    TreeSet<PartitionKey> keys = new TreeSet<>();
    tables.forEach(t -> t.forEach(p -> keys.add(p.key())));
    return keys;
  }

  // ---- random content ----

  /**
   * Random SSTables over a shared key pool, so keys and rows overlap between them. Timestamps are
   * in [1000, 3000); deletion times in [NOW − 2000, NOW]; TTL cells written in the same window.
   */
  static List<List<Part>> randomTables(Random r, int tables, int keyPool, int maxRows) {
    List<PartitionKey> pool = new ArrayList<>();
    for (int i = 0; i < keyPool; i++) {
      pool.add(Parts.key("key-" + i));
    }
    List<List<Part>> out = new ArrayList<>();
    for (int t = 0; t < tables; t++) {
      List<Part> parts = new ArrayList<>();
      for (PartitionKey k : pool) {
        if (r.nextInt(3) != 0) {
          parts.add(randomPart(r, k, maxRows));
        }
      }
      if (parts.isEmpty()) {
        parts.add(randomPart(r, pool.get(0), maxRows));
      }
      out.add(parts);
    }
    return out;
  }

  static long ts(Random r) {
    return 1000 + r.nextInt(2000);
  }

  static long ldt(Random r) {
    return NOW - r.nextInt(2001);
  }

  static Part randomPart(Random r, PartitionKey k, int maxRows) {
    DeletionTime pd = r.nextInt(10) == 0 ? new DeletionTime(ts(r), ldt(r)) : DeletionTime.LIVE;
    List<RangeTombstone> rts = new ArrayList<>();
    int nrt = r.nextInt(4) == 0 ? 1 + r.nextInt(2) : 0;
    for (int i = 0; i < nrt; i++) {
      int a = r.nextInt(maxRows + 1);
      int b = a + r.nextInt(4);
      rts.add(Parts.range(a, b, ts(r), ldt(r)));
    }
    List<RangeTombstone> normalised = DeletionIntervals.of(rts).intervals();
    List<Row> rows = new ArrayList<>();
    for (int c = 0; c <= maxRows; c++) {
      if (r.nextInt(3) == 0) {
        rows.add(randomRow(r, c));
      }
    }
    return new Part(k, pd, normalised, rows);
  }

  static Row randomRow(Random r, int ck) {
    if (r.nextInt(12) == 0) {
      return Row.deletion(Parts.ck(ck), new DeletionTime(ts(r), ldt(r)));
    }
    LivenessInfo l =
        switch (r.nextInt(4)) {
          case 0 -> LivenessInfo.of(ts(r));
          case 1 -> LivenessInfo.expiring(ts(r), 1 + r.nextInt(1500), ldt(r));
          default -> LivenessInfo.EMPTY;
        };
    DeletionTime d = r.nextInt(15) == 0 ? new DeletionTime(ts(r), ldt(r)) : DeletionTime.LIVE;
    List<Cell> cells = new ArrayList<>();
    for (int col = 0; col < 4; col++) {
      if (r.nextInt(2) == 0) {
        cells.add(randomCell(r, col));
      }
    }
    if (l.isEmpty() && d.isLive() && cells.isEmpty()) {
      cells.add(randomCell(r, 0));
    }
    return new Row(Parts.ck(ck), l, d, cells.toArray(new Cell[0]));
  }

  static Cell randomCell(Random r, int col) {
    long ts = ts(r);
    return switch (r.nextInt(6)) {
      case 0 -> Cell.tombstone(col, ts, ldt(r));
      case 1 -> Cell.expiring(col, ts, 1 + r.nextInt(1500), ldt(r), value(r));
      default -> Cell.live(col, ts, value(r));
    };
  }

  static byte[] value(Random r) {
    byte[] b = new byte[r.nextInt(24)];
    r.nextBytes(b);
    return b;
  }

  @Override
  public void close() throws IOException {
    for (SSTableReader r : opened) {
      while (r.refCount() > 0) {
        r.release();
      }
    }
    manifest.close();
  }
}
