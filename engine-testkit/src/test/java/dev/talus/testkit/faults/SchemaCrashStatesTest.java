package dev.talus.testkit.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.CommitLogSync;
import dev.talus.DataType;
import dev.talus.ManualClock;
import dev.talus.ResultRow;
import dev.talus.SSTableSummary;
import dev.talus.SnapshotDetails;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.UdtValue;
import dev.talus.UserType;
import dev.talus.testkit.FaultInjector;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash states of the schema operations that came with snapshots and user types, enumerated as
 * {@link CrashStatesTest} does: the operation is run once to count its changing file operations,
 * then once per crash point k = 0 … n, halting the file system before operation k + 1, and the
 * database is opened in the <b>durable</b> state (a power loss: only what was fsynced, names only
 * where their directory was fsynced) at every crash point and in the <b>prefix</b> state (a killed
 * process: operations 1 … k on disk) at every crash point of the type change and every fourth (and
 * the last) of the import and the copy; the {@code crash} profile checks both states at every crash
 * point of all three.
 *
 * <ul>
 *   <li><b>type change</b> — ALTER TYPE address ADD zip, ALTER TYPE address RENAME city TO town,
 *       DROP TYPE spare: after any crash, type address is one of its three versions (never a
 *       mixture), at least as new as the last change that returned, and table people's columns use
 *       that very version; spare is gone if its drop returned; values written before read back
 *       (under the new field names, the added field null); and a row with every field written after
 *       the reopen reads back across a flush.
 *   <li><b>import</b> — {@code importSSTables} of a snapshot of people (two SSTables) into table
 *       restore: after any crash, restore holds none or all of the snapshot's rows and SSTables, no
 *       SSTable file in restore's directory is unlisted, and the snapshot's files are unchanged.
 *   <li><b>copy</b> — {@code copyTable(people, copy)}, which snapshots people and imports that: the
 *       same checks on table copy, and people keeps its rows and SSTables.
 * </ul>
 */
class SchemaCrashStatesTest {
  @TempDir Path tmp;

  enum Operation {
    TYPE_CHANGE,
    IMPORT,
    COPY
  }

  enum State {
    PREFIX,
    DURABLE
  }

  private static final int ROWS = 6;

  /** The ids a table of the test may hold: the rows written before, and one written after. */
  private static final List<Integer> IDS = List.of(0, 1, 2, 3, 4, 5, 100);

  private final ManualClock clock = ManualClock.startingAtDefault();

  private Path base;

  /** Crash states in which copyTable's temporary snapshot was left behind. */
  private static int leftSnapshots;

  private TalusOptions options(Path dir) {
    return TalusOptions.builder(dir)
        .commitLogSync(CommitLogSync.BATCH)
        .backgroundCompaction(false)
        .clock(clock)
        .build();
  }

  private static TableSchema people(String name, UserType address) {
    return TableSchema.builder(name)
        .partitionKey("id", DataType.INT)
        .column("addr", DataType.udt(address))
        .column("faddr", DataType.frozen(DataType.udt(address)))
        .column("v", DataType.TEXT)
        .build();
  }

  /**
   * The directory every crash state starts from: types address and spare, table people with rows in
   * two SSTables and a snapshot "snap" of them, empty tables restore and copy of the same shape.
   */
  private Path base() {
    if (base != null) {
      return base;
    }
    base = tmp.resolve("base");
    try (TalusDb db = new FaultInjector(0).open(options(base))) {
      UserType address =
          db.createType(
              UserType.builder("address")
                  .field("street", DataType.TEXT)
                  .field("city", DataType.TEXT)
                  .build());
      db.createType(UserType.builder("spare").field("x", DataType.INT).build());
      Table t = db.createTable(people("people", address));
      for (int i = 0; i < ROWS; i++) {
        Map<String, Object> a = Map.of("street", "s" + i, "city", "Lyon");
        t.insert().value("id", i).value("addr", a).value("faddr", a).value("v", "v" + i).execute();
        if (i == ROWS / 2) {
          t.flush();
        }
      }
      t.flush();
      t.snapshot("snap");
      db.createTable(people("restore", address));
      db.createTable(people("copy", address));
    }
    return base;
  }

  /** What returned before the crash. */
  private static final class Returned {
    int typeChanges;
    boolean imported;
  }

  private static void run(Operation op, TalusDb db, Returned r) {
    switch (op) {
      case TYPE_CHANGE -> {
        db.addTypeField("address", "zip", DataType.INT);
        r.typeChanges = 1;
        db.renameTypeFields("address", Map.of("city", "town"));
        r.typeChanges = 2;
        db.dropType("spare");
        r.typeChanges = 3;
      }
      case IMPORT -> {
        db.table("restore").importSSTables(snapshotDir(db));
        r.imported = true;
      }
      case COPY -> {
        db.copyTable("people", "copy");
        r.imported = true;
      }
    }
  }

  private static Path snapshotDir(TalusDb db) {
    return db.snapshots().stream()
        .filter(s -> s.name().equals("snap"))
        .map(SnapshotDetails::directory)
        .findFirst()
        .orElseThrow();
  }

  private long measure(Operation op) {
    Path dir = tmp.resolve(op + "-measure");
    CrashStatesTest.copyTree(base(), dir);
    FaultInjector faults = new FaultInjector(1);
    try (TalusDb db = faults.open(options(dir))) {
      long before = faults.changes();
      Returned r = new Returned();
      run(op, db, r);
      return faults.changes() - before;
    } finally {
      CrashStatesTest.deleteTree(dir);
    }
  }

  /** The durable state at every crash point, the prefix state at every {@code stride}-th. */
  private void enumerate(Operation op, int stride) {
    leftSnapshots = 0;
    long n = measure(op);
    assertThat(n).as("%s changes files", op).isGreaterThan(3);
    int states = 0;
    for (long k = 0; k <= n; k++) {
      for (State s : State.values()) {
        if (s == State.PREFIX && k % stride != 0 && k != n) {
          continue;
        }
        String problem = check(op, k, s);
        if (problem != null) {
          throw new AssertionError(
              op + ", crash after file operation " + k + " of " + n + ", " + s + ": " + problem);
        }
        states++;
      }
    }
    System.out.println(
        "[crash-states] "
            + op
            + ": "
            + n
            + " file operations, "
            + (n + 1)
            + " crash points, "
            + states
            + " crash states checked, 0 failed"
            + (op == Operation.COPY ? ", " + leftSnapshots + " left a temporary snapshot" : ""));
  }

  private String check(Operation op, long k, State state) {
    Path dir = tmp.resolve(op + "-" + k + "-" + state);
    CrashStatesTest.copyTree(base(), dir);
    FaultInjector faults = new FaultInjector(k);
    TalusDb db = faults.open(options(dir));
    Map<String, byte[]> snapshotBefore = files(snapshotDir(db));
    Returned r = new Returned();
    faults.recordOperations(true);
    faults.haltAfter(k);
    try {
      run(op, db, r);
    } catch (RuntimeException expected) {
      // the "machine" stopped in the middle of the operation
    }
    List<String> ops = faults.recordedOperations();
    String last = ops.isEmpty() ? "none" : ops.get(ops.size() - 1);
    if (state == State.PREFIX) {
      FaultInjector.crash(db);
    } else {
      faults.crashAndLoseAllUnsynced(db);
    }
    faults.clear();
    String problem;
    try (TalusDb reopened = faults.open(options(dir))) {
      problem =
          op == Operation.TYPE_CHANGE ? checkTypes(reopened, r) : checkImport(reopened, dir, op, r);
      if (problem == null
          && !Arrays.equals(hash(files(snapshotDir(reopened))), hash(snapshotBefore))) {
        problem = "snapshot snap changed";
      }
    } catch (RuntimeException ex) {
      problem = "reopen failed: " + ex;
    }
    if (problem != null) {
      return problem + " (last operation done: " + last + ")";
    }
    CrashStatesTest.deleteTree(dir);
    return null;
  }

  private static final List<List<String>> ADDRESS_VERSIONS =
      List.of(
          List.of("street", "city"),
          List.of("street", "city", "zip"),
          List.of("street", "town", "zip"));

  private static String checkTypes(TalusDb db, Returned r) {
    UserType address = db.type("address").orElse(null);
    if (address == null) {
      return "type address lost";
    }
    int version = ADDRESS_VERSIONS.indexOf(address.fieldNames());
    if (version < 0) {
      return "type address is half changed: " + address.fieldNames();
    }
    if (version < Math.min(r.typeChanges, 2)) {
      return "type change " + r.typeChanges + " returned, but address is " + address.fieldNames();
    }
    boolean spare = db.type("spare").isPresent();
    if (r.typeChanges == 3 && spare) {
      return "dropped type spare came back";
    }
    if (!spare && version < 2) {
      return "spare dropped before the changes to address that precede it";
    }
    Table t = db.table("people");
    UserType addr = t.schema().column("addr").orElseThrow().type().userType();
    UserType faddr = t.schema().column("faddr").orElseThrow().type().userType();
    if (!addr.equals(address) || !faddr.equals(address)) {
      return "table people uses another version of address than the database: "
          + addr.fieldNames()
          + ", "
          + faddr.fieldNames();
    }
    String city = version == 2 ? "town" : "city";
    for (int i = 0; i < ROWS; i++) {
      ResultRow row = t.select().eq("id", i).execute().iterator().next();
      for (String col : List.of("addr", "faddr")) {
        UdtValue a = row.getUdt(col);
        if (!("s" + i).equals(a.get("street")) || !"Lyon".equals(a.get(city))) {
          return "row " + i + " " + col + " reads " + a.toMap();
        }
        if (version > 0 && a.get("zip") != null) {
          return "row " + i + " " + col + " has a zip it was never given: " + a.toMap();
        }
      }
    }
    Map<String, Object> full = new TreeMap<>();
    for (String f : address.fieldNames()) {
      full.put(f, f.equals("zip") ? 69000 : "new-" + f);
    }
    t.insert().value("id", 100).value("addr", full).value("faddr", full).execute();
    t.flush();
    ResultRow row = t.select().eq("id", 100).execute().iterator().next();
    if (!row.getUdt("addr").toMap().equals(full) || !row.getUdt("faddr").toMap().equals(full)) {
      return "a row written after the reopen reads " + row.getUdt("addr").toMap();
    }
    return null;
  }

  private static String checkImport(TalusDb db, Path dbDir, Operation op, Returned r) {
    String target = op == Operation.IMPORT ? "restore" : "copy";
    Table people = db.table("people");
    Table t = db.table(target);
    TreeMap<Integer, String> source = rows(people);
    if (source.size() != ROWS || people.sstables().size() != 2) {
      return "people changed: " + source + ", " + people.sstables().size() + " SSTables";
    }
    TreeMap<Integer, String> got = rows(t);
    int sstables = t.sstables().size();
    boolean none = got.isEmpty() && sstables == 0;
    boolean all = got.equals(source) && sstables == 2;
    if (!none && !all) {
      return target + " is half imported: " + got + ", " + sstables + " SSTables";
    }
    if (r.imported && none) {
      return "the import returned, but " + target + " is empty";
    }
    String stray = strayFiles(dbDir, t);
    if (stray != null) {
      return stray;
    }
    for (SnapshotDetails s : db.snapshots()) {
      if (s.name().equals("snap")) {
        continue;
      }
      // copyTable's temporary snapshot, left by a crash before it was deleted: listed, clearable
      if (op != Operation.COPY || !s.name().startsWith("copy-")) {
        return "unexpected snapshot " + s.name();
      }
      if (r.imported) {
        return "copyTable returned, but its temporary snapshot " + s.name() + " is there";
      }
      leftSnapshots++;
      if (db.clearSnapshot(s.name()) != 1 || Files.exists(s.directory())) {
        return "left snapshot " + s.name() + " not cleared";
      }
    }
    t.insert().value("id", 100).value("v", "after").execute();
    t.flush();
    t.compact();
    if (!"after".equals(rows(t).get(100)) || rows(t).size() != got.size() + 1) {
      return target + " after writing on: " + rows(t);
    }
    return null;
  }

  private static TreeMap<Integer, String> rows(Table t) {
    TreeMap<Integer, String> got = new TreeMap<>();
    for (int id : IDS) {
      for (ResultRow row : t.select().eq("id", id).execute()) {
        got.put(id, row.getString("v"));
      }
    }
    return got;
  }

  /** SSTable files in the table's own directory (snapshots aside) that no live SSTable owns. */
  private static String strayFiles(Path dbDir, Table t) {
    Set<Long> live =
        t.sstables().stream().map(SSTableSummary::generation).collect(Collectors.toSet());
    Path tdir = tableDirectory(dbDir, t);
    List<String> stray = new ArrayList<>();
    try (Stream<Path> s = Files.list(tdir)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        String name = p.getFileName().toString();
        boolean unlisted =
            name.startsWith("nb-") && !live.contains(Long.parseLong(name.split("-")[1]));
        if (name.endsWith(".tmp") || unlisted) {
          stray.add(name);
        }
      }
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
    return stray.isEmpty() ? null : "stray files in " + tdir.getFileName() + ": " + stray;
  }

  private static Path tableDirectory(Path dbDir, Table t) {
    Path tables = dbDir.resolve("tables");
    try (Stream<Path> s = Files.list(tables)) {
      return s.filter(p -> p.getFileName().toString().startsWith(t.schema().name() + "-"))
          .findFirst()
          .orElseThrow();
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  private static Map<String, byte[]> files(Path dir) {
    Map<String, byte[]> out = new TreeMap<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : s.toList()) {
        out.put(p.getFileName().toString(), Files.readAllBytes(p));
      }
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
    return out;
  }

  private static int[] hash(Map<String, byte[]> files) {
    return files.entrySet().stream()
        .mapToInt(e -> e.getKey().hashCode() * 31 + Arrays.hashCode(e.getValue()))
        .toArray();
  }

  @Test
  void everyCrashPointOfATypeChange() {
    enumerate(Operation.TYPE_CHANGE, 1);
  }

  @Test
  void everyCrashPointOfAnImport() {
    enumerate(Operation.IMPORT, 4);
  }

  @Test
  void everyCrashPointOfACopyTable() {
    enumerate(Operation.COPY, 4);
  }

  @Test
  @Tag("slow")
  @Tag("crash")
  void bothStatesAtEveryCrashPointOfAnImportAndACopy() {
    enumerate(Operation.IMPORT, 1);
    enumerate(Operation.COPY, 1);
  }
}
