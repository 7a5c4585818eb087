package dev.talus.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.ClusteringOrder;
import dev.talus.CommitLogSync;
import dev.talus.CompactionOptions;
import dev.talus.CorruptDataException;
import dev.talus.DataType;
import dev.talus.ResultRow;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.db.StorageHook;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage every on-disk component of a database through the file system — single bit flips,
 * truncation, a zeroed 4 KiB block — then open, verify, read and compact through the public API.
 * Every damage must be detected (a {@link CorruptDataException} naming the damaged file) or
 * provably harmless (every read equals the expected data); a wrong answer is a failure. For the
 * commit log a damaged last record is indistinguishable from a torn write and may be dropped: there
 * the answer may also be the expected data minus a suffix of the unflushed writes, counted apart.
 */
class CorruptionDetectionTest {
  @TempDir Path tmp;

  static final int FLIPS = Integer.getInteger("talus.corruption.flips", 200);
  static final int PARTITIONS = 6;
  static final int LOG_ROWS = 40;

  /** How one damage ended. */
  enum Outcome {
    DETECTED_AT_OPEN,
    DETECTED_BY_VERIFY,
    DETECTED_BY_READ,
    DETECTED_BY_COMPACTION,
    HARMLESS,
    TORN_TAIL_PREFIX,
    WRONG_ANSWER,
    UNCLEAR_EXCEPTION
  }

  static TableSchema schema() {
    return TableSchema.builder("c")
        .partitionKey("p", DataType.TEXT)
        .clusteringColumn("c", DataType.INT, ClusteringOrder.DESC)
        .column("v", DataType.TEXT)
        .column("n", DataType.BIGINT)
        .compaction(CompactionOptions.sizeTiered().minThreshold(2).build())
        .build();
  }

  static TalusOptions options(Path dir) {
    return TalusOptions.builder(dir)
        .commitLogSync(CommitLogSync.BATCH)
        .commitLogSegmentBytes(64 << 10)
        .backgroundCompaction(false)
        .build();
  }

  /** Two SSTables, then rows only in the commit log (the database is abandoned, not closed). */
  private static void build(Path dir) {
    TalusDb db = TalusDb.open(options(dir));
    Table t = db.createTable(schema());
    Random rnd = new Random(7);
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < 250; i++) {
        int p = i % PARTITIONS;
        t.insert()
            .value("p", "part-" + p)
            .value("c", i + round * 100)
            .value("v", "value-" + round + "-" + i + "-" + Long.toHexString(rnd.nextLong()))
            .value("n", (long) i * round)
            .execute();
      }
      t.delete().eq("p", "part-1").eq("c", 7 + round).execute();
      t.flush();
    }
    for (int i = 0; i < LOG_ROWS; i++) {
      t.insert().value("p", "log").value("c", i).value("v", "log-" + i).value("n", 1L).execute();
    }
    StorageHook.crash(TalusDb.class, db); // the process dies
  }

  private static List<String> content(Table t) {
    List<String> out = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      for (ResultRow r : t.select().eq("p", "part-" + p).execute()) {
        out.add(p + "/" + r.getInt("c") + "=" + r.getString("v") + "," + r.getLong("n"));
      }
    }
    for (ResultRow r : t.select().eq("p", "log").reversed().execute()) {
      out.add("log/" + r.getInt("c") + "=" + r.getString("v") + "," + r.getLong("n"));
    }
    return out;
  }

  /** The expected content minus the last {@code dropped} commit-log rows. */
  private static List<String> withoutLogSuffix(List<String> expected, int dropped) {
    List<String> out = new ArrayList<>();
    for (String s : expected) {
      if (s.startsWith("log/")) {
        int c = Integer.parseInt(s.substring(4, s.indexOf('=')));
        if (c >= LOG_ROWS - dropped) {
          continue;
        }
      }
      out.add(s);
    }
    return out;
  }

  private record Result(Outcome outcome, String detail) {}

  /** Opens, verifies, reads, compacts and reads again. */
  private static Result evaluate(Path dir, Path damaged, List<String> expected, boolean log) {
    String stage = "open";
    TalusDb db = null;
    try {
      db = TalusDb.open(options(dir));
      Table t = db.table("c");
      stage = "verify";
      t.verify();
      stage = "read";
      Result r = compare(content(t), expected, log);
      if (r != null) {
        return r;
      }
      stage = "compaction";
      t.compact();
      stage = "read";
      r = compare(content(t), expected, log);
      if (r != null) {
        return r;
      }
      return new Result(Outcome.HARMLESS, null);
    } catch (CorruptDataException e) {
      String name = damaged.getFileName().toString();
      boolean named =
          (e.file() != null && e.file().getFileName().toString().equals(name))
              || String.valueOf(e.getMessage()).contains(name);
      if (!named) {
        return new Result(
            Outcome.UNCLEAR_EXCEPTION, stage + ": does not name " + name + ": " + e.getMessage());
      }
      return new Result(
          switch (stage) {
            case "open" -> Outcome.DETECTED_AT_OPEN;
            case "verify" -> Outcome.DETECTED_BY_VERIFY;
            case "read" -> Outcome.DETECTED_BY_READ;
            default -> Outcome.DETECTED_BY_COMPACTION;
          },
          null);
    } catch (RuntimeException e) {
      return new Result(Outcome.UNCLEAR_EXCEPTION, stage + ": " + e);
    } finally {
      if (db != null) {
        try {
          db.close();
        } catch (RuntimeException ignored) {
          // a database that found corruption may fail to close cleanly; the outcome stands
        }
      }
    }
  }

  private static Result compare(List<String> actual, List<String> expected, boolean log) {
    if (actual.equals(expected)) {
      return null;
    }
    if (log) {
      for (int dropped = 1; dropped <= LOG_ROWS; dropped++) {
        if (actual.equals(withoutLogSuffix(expected, dropped))) {
          return new Result(Outcome.TORN_TAIL_PREFIX, "dropped the last " + dropped);
        }
      }
    }
    return new Result(Outcome.WRONG_ANSWER, "expected " + expected + "\n got " + actual);
  }

  /** The files of each component kind. */
  private static Map<String, List<Path>> components(Path dir) throws IOException {
    Map<String, List<Path>> out = new LinkedHashMap<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.filter(Files::isRegularFile).sorted().toList()) {
        String name = p.getFileName().toString();
        String kind;
        if (name.startsWith("nb-")) {
          kind = name.substring(name.indexOf('-', 3) + 1);
        } else if (p.getParent().getFileName().toString().equals("commitlog")) {
          kind = "commit-log segment";
        } else if (name.equals("MANIFEST.db")
            || name.equals("MANIFEST.seal")
            || name.equals("schema.db")) {
          kind = name;
        } else {
          continue; // the lock file
        }
        out.computeIfAbsent(kind, k -> new ArrayList<>()).add(dir.relativize(p));
      }
    }
    return out;
  }

  static void copyTree(Path from, Path to) throws IOException {
    deleteTree(to);
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path q = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(q);
        } else {
          Files.copy(p, q, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  static void deleteTree(Path d) throws IOException {
    if (!Files.exists(d)) {
      return;
    }
    try (Stream<Path> s = Files.walk(d)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  @Test
  void everyDamageToEveryComponentIsDetectedOrHarmless() throws IOException {
    Path pristine = tmp.resolve("pristine");
    build(pristine);
    List<String> expected;
    Path probe = tmp.resolve("probe");
    copyTree(pristine, probe);
    try (TalusDb db = TalusDb.open(options(probe))) {
      expected = content(db.table("c"));
    }
    assertThat(expected).hasSizeGreaterThan(400);
    Map<String, List<Path>> components = components(pristine);
    assertThat(components.keySet())
        .contains(
            "Data.db",
            "Index.db",
            "Filter.db",
            "Stats.db",
            "CompressionInfo.db",
            "TOC.txt",
            "MANIFEST.db",
            "MANIFEST.seal",
            "schema.db",
            "commit-log segment");
    Random rnd = new Random(20260301);
    Path work = tmp.resolve("work");
    Map<String, Map<Outcome, Integer>> report = new TreeMap<>();
    List<String> failures = new ArrayList<>();
    for (Map.Entry<String, List<Path>> c : components.entrySet()) {
      boolean log = c.getKey().equals("commit-log segment");
      int trials = FLIPS + 10;
      for (int trial = 0; trial < trials; trial++) {
        copyTree(pristine, work);
        Path target = work.resolve(c.getValue().get(rnd.nextInt(c.getValue().size())).toString());
        long size = Files.size(target);
        String what;
        try (RandomAccessFile f = new RandomAccessFile(target.toFile(), "rw")) {
          if (trial < FLIPS) {
            long at = (long) (rnd.nextDouble() * size);
            int bit = rnd.nextInt(8);
            f.seek(at);
            int b = f.read();
            f.seek(at);
            f.write(b ^ (1 << bit));
            what = "bit " + bit + " of byte " + at;
          } else if (trial < FLIPS + 5) {
            long len = trial == FLIPS ? 0 : (long) (rnd.nextDouble() * size);
            f.setLength(len);
            what = "truncated to " + len;
          } else {
            long at = trial == FLIPS + 5 ? 0 : (long) (rnd.nextDouble() * size);
            int len = (int) Math.min(4096, size - at);
            f.seek(at);
            f.write(new byte[len]);
            what = "zeroed " + len + " bytes at " + at;
          }
        }
        Result r = evaluate(work, target, expected, log);
        report
            .computeIfAbsent(c.getKey(), k -> new TreeMap<>())
            .merge(r.outcome(), 1, Integer::sum);
        if (r.outcome() == Outcome.WRONG_ANSWER || r.outcome() == Outcome.UNCLEAR_EXCEPTION) {
          failures.add(
              c.getKey()
                  + " ("
                  + target.getFileName()
                  + ", "
                  + what
                  + "): "
                  + r.outcome()
                  + " "
                  + r.detail());
        }
      }
    }
    StringBuilder b =
        new StringBuilder("[corruption] per component (")
            .append(FLIPS)
            .append(" bit flips + 5 truncations + 5 zeroed 4 KiB blocks each):");
    for (Map.Entry<String, Map<Outcome, Integer>> e : report.entrySet()) {
      int detected = 0;
      for (Map.Entry<Outcome, Integer> o : e.getValue().entrySet()) {
        if (o.getKey().name().startsWith("DETECTED")) {
          detected += o.getValue();
        }
      }
      b.append("\n  ")
          .append(e.getKey())
          .append(": detected ")
          .append(detected)
          .append(", ")
          .append(e.getValue());
    }
    b.append("\n  wrong answers or unclear exceptions: ").append(failures.size());
    System.out.println(b);
    assertThat(failures).as(b.toString()).isEmpty();
  }
}
