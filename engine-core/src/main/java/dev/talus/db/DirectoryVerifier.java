package dev.talus.db;

import dev.talus.DirectoryLockedException;
import dev.talus.IndexDef;
import dev.talus.StorageException;
import dev.talus.TableSchema;
import dev.talus.VerifyReport;
import dev.talus.VerifyReport.Checked;
import dev.talus.commitlog.SegmentCheck;
import dev.talus.index.IndexComponentCheck;
import dev.talus.io.CorruptFileException;
import dev.talus.io.FileLockHandle;
import dev.talus.io.LockHeldException;
import dev.talus.io.StorageFs;
import dev.talus.schema.SchemaStore;
import dev.talus.sstable.ChunkCache;
import dev.talus.sstable.Component;
import dev.talus.sstable.Manifest;
import dev.talus.sstable.SSTableDescriptor;
import dev.talus.sstable.SSTableReader;
import dev.talus.write.Mutation;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Checks every stored byte of a closed data directory and reports every damage, without opening the
 * database and without changing anything: no commit-log replay, no flush, no leftover cleanup, no
 * quarantine. The schema, each table's manifest, each live SSTable (every component and chunk, then
 * its storage-attached index components, whose damage is reported as rebuildable) and each
 * commit-log segment are checked on their own, so one damaged file never hides the state of the
 * others. Holds the directory lock while it runs. Single use.
 */
final class DirectoryVerifier {
  private final StorageFs fs;
  private final Path dir;
  private final Consumer<Checked> progress;
  private final List<Checked> checked = new ArrayList<>();
  private final Map<Path, List<IndexDef>> indexes = new TreeMap<>();
  private final Map<Path, TableSchema> schemas = new TreeMap<>();

  DirectoryVerifier(StorageFs fs, Path dir, Consumer<Checked> progress) {
    this.fs = fs;
    this.dir = dir;
    this.progress = progress;
  }

  @SuppressWarnings("try") // the lock is held for the whole check, never read
  VerifyReport run() {
    if (!fs.exists(dir.resolve(SchemaStore.FILE)) && !fs.exists(dir.resolve(Database.LOCK_FILE))) {
      throw new StorageException(
          dir + " is not a Talus data directory (no schema.db or LOCK)", null);
    }
    try (FileLockHandle lock = fs.lock(dir.resolve(Database.LOCK_FILE))) {
      Map<Path, String> tables = schema();
      for (Map.Entry<Path, String> t : tables.entrySet()) {
        table(t.getValue(), t.getKey(), indexes.getOrDefault(t.getKey(), List.of()));
      }
      commitLog();
      return new VerifyReport(checked);
    } catch (LockHeldException e) {
      throw new DirectoryLockedException(
          "data directory "
              + dir
              + " is already open (in this JVM or another process); close that instance first",
          e);
    } catch (IOException e) {
      throw new StorageException("cannot verify " + dir + ": " + e.getMessage(), e);
    }
  }

  /** Checks schema.db; returns table directory → table name (from the directories if damaged). */
  private Map<Path, String> schema() throws IOException {
    Map<Path, String> tables = new TreeMap<>();
    Path file = dir.resolve(SchemaStore.FILE);
    try {
      SchemaStore.Content content = SchemaStore.load(fs, dir);
      report(null, "schema", file, size(file), null);
      for (Map.Entry<Integer, TableSchema> e : content.tables().entrySet()) {
        String name = e.getValue().name();
        Path tdir = dir.resolve("tables").resolve(name + "-" + e.getKey());
        tables.put(tdir, name);
        indexes.put(tdir, content.indexesOf(e.getKey()));
        schemas.put(tdir, e.getValue());
      }
      return tables;
    } catch (CorruptFileException e) {
      report(null, "schema", e);
    }
    Path root = dir.resolve("tables");
    if (fs.exists(root)) {
      for (Path t : fs.listDirectories(root)) {
        String n = t.getFileName().toString();
        tables.put(t, n.lastIndexOf('-') > 0 ? n.substring(0, n.lastIndexOf('-')) : n);
      }
    }
    return tables;
  }

  private void table(String name, Path tdir, List<IndexDef> defs) throws IOException {
    Path manifest = tdir.resolve(Manifest.FILE_NAME);
    NavigableSet<Long> live;
    try {
      live = Manifest.readLive(fs, tdir);
      report(name, "manifest", manifest, size(manifest), null);
    } catch (CorruptFileException e) {
      report(name, "manifest", e);
      return;
    } catch (NoSuchFileException e) {
      report(name, "manifest", new CorruptFileException(manifest, 0, "the manifest is missing"));
      return;
    }
    for (long gen : live) {
      SSTableDescriptor desc = new SSTableDescriptor(tdir, gen);
      String what = "SSTable " + gen;
      SSTableReader r = null;
      try {
        r = SSTableReader.open(fs, tdir, gen, ChunkCache.disabled());
        r.verify();
        report(name, what, desc.path(Component.DATA), r.onDiskSize(), null);
      } catch (CorruptFileException e) {
        report(name, what, e);
      } catch (NoSuchFileException e) {
        Path missing = e.getFile() == null ? desc.path(Component.TOC) : Path.of(e.getFile());
        report(name, what, new CorruptFileException(missing, 0, "the component is missing"));
      } finally {
        if (r != null) {
          r.release();
        }
      }
      for (IndexComponentCheck.Finding f :
          IndexComponentCheck.check(fs, desc, defs, schemas.get(tdir))) {
        Checked c =
            new Checked(
                name,
                what + " " + f.what(),
                f.file(),
                size(f.file()),
                f.damage(),
                f.offset(),
                true);
        checked.add(c);
        progress.accept(c);
      }
    }
  }

  private void commitLog() throws IOException {
    List<Path> segments = SegmentCheck.segments(fs, dir.resolve("commitlog"));
    for (int i = 0; i < segments.size(); i++) {
      Path segment = segments.get(i);
      String what = "commit-log segment " + segment.getFileName();
      try {
        SegmentCheck.check(
            fs,
            segment,
            i == segments.size() - 1,
            (position, payload) -> {
              try {
                Mutation.deserialize(payload);
              } catch (IOException e) {
                throw new CorruptFileException(
                    segment,
                    position.offset(),
                    "record passed its checksum but cannot be decoded: " + e.getMessage());
              }
            });
        report(null, what, segment, size(segment), null);
      } catch (CorruptFileException e) {
        report(null, what, e);
      }
    }
  }

  private long size(Path p) throws IOException {
    return fs.exists(p) ? fs.size(p) : 0;
  }

  private void report(String table, String what, CorruptFileException e) throws IOException {
    Path file = e.file() == null ? dir : e.file();
    String prefix = e.file() + " at offset " + e.offset() + ": ";
    String damage =
        e.getMessage().startsWith(prefix)
            ? e.getMessage().substring(prefix.length())
            : e.getMessage();
    Checked c = new Checked(table, what, file, size(file), damage, e.offset());
    checked.add(c);
    progress.accept(c);
  }

  private void report(String table, String what, Path file, long bytes, String damage) {
    Checked c = new Checked(table, what, file, bytes, damage, 0);
    checked.add(c);
    progress.accept(c);
  }
}
