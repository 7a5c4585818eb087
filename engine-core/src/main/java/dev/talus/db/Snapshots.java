package dev.talus.db;

import dev.talus.ColumnDef;
import dev.talus.InvalidQueryException;
import dev.talus.SnapshotDetails;
import dev.talus.StorageException;
import dev.talus.TableSchema;
import dev.talus.io.CorruptFileException;
import dev.talus.io.ReadableFile;
import dev.talus.io.StorageFs;
import dev.talus.io.WritableFile;
import dev.talus.schema.KeyCodec;
import dev.talus.schema.SchemaStore;
import dev.talus.sstable.SSTableReader;
import dev.talus.table.SSTableImport;
import dev.talus.table.SnapshotFiles;
import dev.talus.table.TableStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Snapshots (Cassandra's {@code nodetool snapshot}, {@code listsnapshots}, {@code clearsnapshot})
 * and their way back ({@code nodetool import}). A snapshot of a table is the directory {@code
 * <table directory>/snapshots/<name>/} holding a hard link of every component of every SSTable live
 * when it was taken ({@link SnapshotFiles}), a {@code schema.db} with that table alone (its
 * keyspace, the user types, its schema and dropped columns, in the format of the database's own),
 * and a {@code manifest.json} naming the files and the time. A dropped or truncated table's
 * directory is kept while it holds snapshots. Schema changes and snapshots are serialised on the
 * database. Stateless.
 */
public final class Snapshots {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");
  private static final Pattern CREATED = Pattern.compile("\"created_at\"\\s*:\\s*\"([^\"]+)\"");
  static final String MANIFEST = "manifest.json";

  private Snapshots() {}

  /** Snapshots one table (flushing it first), under the database's lock. */
  static SnapshotDetails take(Database db, TableStore t, String name) {
    db.ctx.checkWritable();
    checkName(name);
    Path dir = t.directory().resolve(SnapshotFiles.SNAPSHOTS).resolve(name);
    if (db.ctx.fs().exists(dir)) {
      throw new InvalidQueryException(
          "snapshot "
              + name
              + " of table "
              + t.schema().name()
              + " already exists ("
              + dir
              + "): clear it first or choose another name");
    }
    t.flush();
    StorageFs fs = db.ctx.fs();
    Instant now = db.ctx.clock().instant();
    try {
      fs.createDirectories(dir);
      List<String> files = SnapshotFiles.linkLive(fs, t, dir);
      SchemaStore.save(fs, dir, schemaOf(db, t));
      writeManifest(fs, dir, files, now);
      fs.syncDirectory(dir.getParent());
      fs.syncDirectory(t.directory());
    } catch (IOException e) {
      deleteSnapshot(fs, dir);
      throw new StorageException(
          "snapshot " + name + " of table " + t.schema().name() + " failed: " + e.getMessage(), e);
    }
    return details(fs, dir, liveGenerations(t));
  }

  /** Snapshots every table under one name (refused before any is taken if one has it). */
  public static List<SnapshotDetails> takeAll(Database db, String name) {
    synchronized (db) {
      db.ctx.checkWritable();
      checkName(name);
      List<TableHandle> tables = new ArrayList<>(db.tables());
      for (TableHandle h : tables) {
        Path dir = h.store().directory().resolve(SnapshotFiles.SNAPSHOTS).resolve(name);
        if (db.ctx.fs().exists(dir)) {
          throw new InvalidQueryException(
              "snapshot "
                  + name
                  + " already exists ("
                  + dir
                  + "): clear it or choose another name");
        }
      }
      List<SnapshotDetails> out = new ArrayList<>();
      for (TableHandle h : tables) {
        out.add(take(db, h.store(), name));
      }
      return out;
    }
  }

  /** Every snapshot of every table directory, dropped and truncated tables' included. */
  public static List<SnapshotDetails> list(Database db) {
    synchronized (db) {
      db.ctx.checkOpen();
      StorageFs fs = db.ctx.fs();
      try {
        List<SnapshotDetails> out = new ArrayList<>();
        for (Path tdir : fs.listDirectories(db.dir.resolve("tables"))) {
          Set<Long> live = liveGenerations(db, tdir);
          for (Path s : fs.listDirectories(tdir.resolve(SnapshotFiles.SNAPSHOTS))) {
            out.add(details(fs, s, live));
          }
        }
        out.sort(
            (a, b) ->
                a.name().equals(b.name())
                    ? (a.keyspace() + "." + a.table()).compareTo(b.keyspace() + "." + b.table())
                    : a.name().compareTo(b.name()));
        return out;
      } catch (IOException e) {
        throw new StorageException("cannot list the snapshots of " + db.dir + ": " + e, e);
      }
    }
  }

  /**
   * Deletes snapshot {@code name} of every table, or every snapshot if {@code name} is null;
   * returns how many snapshot directories (one per table and name) were deleted. The directory of a
   * dropped or truncated table goes with its last snapshot.
   */
  public static int clear(Database db, String name) {
    synchronized (db) {
      db.ctx.checkOpen();
      if (name != null) {
        checkName(name);
      }
      StorageFs fs = db.ctx.fs();
      int cleared = 0;
      try {
        for (Path tdir : fs.listDirectories(db.dir.resolve("tables"))) {
          Path root = tdir.resolve(SnapshotFiles.SNAPSHOTS);
          for (Path s : fs.listDirectories(root)) {
            if (name == null || s.getFileName().toString().equals(name)) {
              deleteSnapshot(fs, s);
              cleared++;
            }
          }
          if (fs.exists(root) && fs.listDirectories(root).isEmpty() && fs.list(root).isEmpty()) {
            fs.delete(root);
          }
          boolean orphan = db.byId.values().stream().noneMatch(t -> t.directory().equals(tdir));
          if (orphan && fs.list(tdir).isEmpty() && fs.listDirectories(tdir).isEmpty()) {
            fs.delete(tdir);
          }
          fs.syncDirectory(tdir.getParent());
        }
      } catch (IOException e) {
        throw new StorageException("cannot clear snapshots in " + db.dir + ": " + e, e);
      }
      return cleared;
    }
  }

  /**
   * Imports the SSTables of snapshot directory {@code source} into table {@code t}, under the
   * database's lock, after checking that the snapshot's schema stores the same key columns and
   * gives each of its column ids the type the table gives it.
   */
  static int importInto(Database db, TableStore t, Path source) {
    db.ctx.checkWritable();
    StorageFs fs = db.ctx.fs();
    try {
      if (!fs.exists(source.resolve(SchemaStore.FILE))) {
        throw new InvalidQueryException(
            "no "
                + SchemaStore.FILE
                + " in "
                + source
                + ": import takes a snapshot directory, whose schema says what the SSTables"
                + " store");
      }
      SchemaStore.Content c = SchemaStore.load(fs, source);
      if (c.tables().size() != 1) {
        throw new InvalidQueryException(
            source
                + " holds "
                + c.tables().size()
                + " table schemas (a data directory?); a snapshot holds its table's alone");
      }
      Map.Entry<Integer, TableSchema> e = c.tables().entrySet().iterator().next();
      checkCompatible(new KeyCodec(e.getValue(), c.droppedOf(e.getKey())), t.keys(), source);
      return SSTableImport.importFrom(db.ctx, db.host, t, source);
    } catch (CorruptFileException e) {
      throw Corruption.translate(e, "import into table " + t.schema().name());
    } catch (IOException e) {
      throw new StorageException(
          "import into table " + t.schema().name() + " failed: " + e.getMessage(), e);
    }
  }

  /**
   * Copies every SSTable of table {@code from} into table {@code to} (flushing {@code from} first),
   * through a temporary snapshot of {@code from} that is deleted afterwards; returns the number of
   * SSTables copied. The tables must store the same columns under the same ids.
   */
  public static int copy(Database db, TableHandle from, TableHandle to) {
    synchronized (db) {
      db.ctx.checkWritable();
      TableStore src = from.store();
      TableStore dst = to.store();
      if (src == dst) {
        throw new InvalidQueryException(
            "cannot copy table " + src.schema().name() + " into itself");
      }
      checkCompatible(src.keys(), dst.keys(), Path.of("table " + src.schema().name()));
      String name = "copy-" + dst.id() + "-" + db.ctx.clock().millis();
      SnapshotDetails s = take(db, src, name);
      try {
        if (SnapshotFiles.generationsIn(db.ctx.fs(), s.directory()).isEmpty()) {
          return 0; // nothing stored yet
        }
        return importInto(db, dst, s.directory());
      } catch (IOException e) {
        throw new StorageException("cannot copy table " + src.schema().name() + ": " + e, e);
      } finally {
        deleteSnapshot(db.ctx.fs(), s.directory());
        try {
          Path root = s.directory().getParent();
          if (db.ctx.fs().listDirectories(root).isEmpty() && db.ctx.fs().list(root).isEmpty()) {
            db.ctx.fs().delete(root);
            db.ctx.fs().syncDirectory(root.getParent());
          }
        } catch (IOException e) {
          // an empty snapshots/ directory is harmless; clearSnapshots removes it
        }
      }
    }
  }

  private static void checkCompatible(KeyCodec from, KeyCodec to, Path source) {
    TableSchema a = from.schema();
    TableSchema b = to.schema();
    boolean keys = keyShape(a.partitionKey()).equals(keyShape(b.partitionKey()));
    keys &= keyShape(a.clustering()).equals(keyShape(b.clustering()));
    if (!keys) {
      throw new InvalidQueryException(
          "the SSTables in "
              + source
              + " have the primary key "
              + keyShape(a.partitionKey())
              + keyShape(a.clustering())
              + ", table "
              + b.name()
              + " has "
              + keyShape(b.partitionKey())
              + keyShape(b.clustering())
              + ": they cannot be imported");
    }
    for (int id = 0; id < from.nextId(); id++) {
      ColumnDef f = from.storedColumn(id);
      ColumnDef g = id < to.nextId() ? to.storedColumn(id) : null;
      boolean bothLive = !from.isDropped(id) && id < to.nextId() && !to.isDropped(id);
      if (g == null
          || !f.type().equals(g.type())
          || f.kind() != g.kind()
          || (bothLive && !f.name().equals(g.name()))) {
        throw new InvalidQueryException(
            "column "
                + f.name()
                + " of the SSTables in "
                + source
                + " is "
                + (g == null
                    ? "unknown to table " + b.name()
                    : "stored as " + g.name() + " " + g.type().cqlName() + " in table " + b.name())
                + ": the SSTables are of a table with other columns, so they cannot be imported");
      }
    }
  }

  private static List<String> keyShape(List<ColumnDef> columns) {
    return columns.stream().map(c -> c.type().cqlName() + " " + c.order()).toList();
  }

  private static SchemaStore.Content schemaOf(Database db, TableStore t) {
    TableSchema s = t.schema();
    String ks = s.keyspace().orElseThrow();
    return new SchemaStore.Content(
        Map.of(ks, db.catalog.keyspaces().get(ks)),
        db.catalog.types(),
        Map.of(t.id(), s),
        Map.of(t.id(), t.keys().dropped()));
  }

  private static void writeManifest(StorageFs fs, Path dir, List<String> files, Instant at)
      throws IOException {
    StringBuilder b = new StringBuilder("{\n  \"files\" : [");
    for (int i = 0; i < files.size(); i++) {
      b.append(i == 0 ? " " : ", ").append('"').append(files.get(i)).append('"');
    }
    b.append(" ],\n  \"created_at\" : \"").append(at).append("\",\n  \"expires_at\" : null\n}\n");
    try (WritableFile f = fs.create(dir.resolve(MANIFEST))) {
      f.write(ByteBuffer.wrap(b.toString().getBytes(StandardCharsets.UTF_8)));
      f.sync();
    }
  }

  private static SnapshotDetails details(StorageFs fs, Path snapshot, Set<Long> live) {
    try {
      long[] sizes = SnapshotFiles.sizes(fs, snapshot, live);
      String keyspace = "?";
      String table = tableOfDirectory(snapshot.getParent().getParent());
      try {
        for (TableSchema s : SchemaStore.load(fs, snapshot).tables().values()) {
          keyspace = s.keyspace().orElse("?");
          table = s.name();
        }
      } catch (IOException | CorruptFileException e) {
        // listed all the same, with the table named after its directory
      }
      return new SnapshotDetails(
          snapshot.getFileName().toString(),
          keyspace,
          table,
          snapshot,
          sizes[0],
          sizes[1],
          createdAt(fs, snapshot.resolve(MANIFEST)));
    } catch (IOException e) {
      throw new StorageException("cannot read snapshot " + snapshot + ": " + e.getMessage(), e);
    }
  }

  private static String tableOfDirectory(Path tdir) {
    String n = tdir.getFileName().toString();
    return n.lastIndexOf('-') > 0 ? n.substring(0, n.lastIndexOf('-')) : n;
  }

  /** The manifest's {@code created_at}; null if it is missing or unreadable. */
  private static Instant createdAt(StorageFs fs, Path manifest) {
    if (!fs.exists(manifest)) {
      return null;
    }
    try (ReadableFile f = fs.openForRead(manifest)) {
      ByteBuffer b = ByteBuffer.allocate((int) Math.min(f.size(), 1 << 20));
      while (b.hasRemaining() && f.read(b, b.position()) > 0) {
        // reads until full
      }
      Matcher m = CREATED.matcher(new String(b.array(), 0, b.position(), StandardCharsets.UTF_8));
      return m.find() ? Instant.parse(m.group(1)) : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static Set<Long> liveGenerations(TableStore t) {
    Set<Long> gens = new HashSet<>();
    for (SSTableReader r : t.tracker().current().sstables()) {
      gens.add(r.generation());
    }
    return gens;
  }

  private static Set<Long> liveGenerations(Database db, Path tdir) {
    for (TableStore t : db.byId.values()) {
      if (t.directory().equals(tdir)) {
        return liveGenerations(t);
      }
    }
    return Set.of();
  }

  /**
   * Deletes a snapshot directory durably: its files, a sync of it (so a power loss cannot bring the
   * names back), the directory, a sync of its parent.
   */
  private static void deleteSnapshot(StorageFs fs, Path dir) {
    try {
      for (Path f : fs.list(dir)) {
        fs.delete(f);
      }
      fs.syncDirectory(dir);
      fs.delete(dir);
      fs.syncDirectory(dir.getParent());
    } catch (IOException e) {
      throw new StorageException("cannot delete snapshot " + dir + ": " + e.getMessage(), e);
    }
  }

  private static void checkName(String name) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new InvalidQueryException(
          "snapshot name '"
              + name
              + "' is not valid: use letters, digits, '_', '-' and '.', not starting with '.' or"
              + " '-'");
    }
  }
}
