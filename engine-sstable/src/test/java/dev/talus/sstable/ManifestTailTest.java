package dev.talus.sstable;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.talus.io.CorruptFileException;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded damage to the tail of a manifest written by a random sequence of edits (with rewrites),
 * beside the TOCs of the SSTables the edits name (a removed SSTable's files are deleted one edit
 * later, as a released reader deletes them): what a crash can leave — an append torn at any byte
 * (cut off, or zero-filled up to and past the record's end), an edit synced but not yet sealed, a
 * seal deleted with the manifest intact — opens in the last acknowledged state or the edit in
 * flight, and cuts the torn bytes off; what a crash cannot leave — acknowledged edits lost to a
 * truncation, a zeroed or garbage tail, a flipped bit anywhere, and the same losses with the seal's
 * last records cut off or the seal deleted too (the TOCs' witness lines still prove them), or the
 * manifest deleted — fails the open with a {@link CorruptFileException} naming the manifest and an
 * offset, and changes nothing on disk. The seed is printed; {@code -Dtalus.seed=S} replays it,
 * {@code -Dtalus.manifest.tail.cases=N} sets the number of cases (600).
 */
class ManifestTailTest {
  @TempDir Path tmp;

  private final StorageFs fs = new NioStorageFs();

  static final int CASES = Integer.getInteger("talus.manifest.tail.cases", 600);
  static final int EDITS = 40;

  /**
   * The files and live set before an edit (its new SSTables written, their TOCs without a witness),
   * and the files right after it was acknowledged; TOCs by file name.
   */
  record Step(
      byte[] manifestBefore,
      byte[] sealBefore,
      NavigableSet<Long> liveBefore,
      Map<String, byte[]> tocsBefore,
      byte[] manifestAfter,
      byte[] sealAfter,
      NavigableSet<Long> liveAfter,
      Map<String, byte[]> tocsAfter,
      boolean empty) {}

  enum Kind {
    TORN_CUT,
    TORN_ZEROS,
    SEAL_NOT_WRITTEN,
    LOST_CUT,
    LOST_ZEROS,
    LOST_GARBAGE,
    GARBAGE_APPENDED,
    FLIP,
    /** Acknowledged edits cut off the manifest and the seal's last records cut off too. */
    LOST_CUT_SEAL_CUT,
    /** The manifest's tail zeroed and the seal deleted. */
    LOST_ZEROS_SEAL_DELETED,
    /** The manifest deleted (the seal kept or deleted too). */
    MANIFEST_DELETED,
    /** Only the seal deleted: a sound manifest still opens, and gets a new seal. */
    SEAL_DELETED
  }

  @Test
  void crashTailsOpenAndLostAcknowledgedEditsAreReported() throws Exception {
    long seed = Long.getLong("talus.seed", new Random().nextLong());
    System.out.println("ManifestTailTest seed=" + seed + " (replay: -Dtalus.seed=" + seed + ")");
    Random rnd = new Random(seed);
    List<Step> steps = history(rnd);
    int[] tried = new int[Kind.values().length];
    Path dir = tmp.resolve("case");
    for (int i = 0; i < CASES; i++) {
      Kind kind = Kind.values()[rnd.nextInt(Kind.values().length)];
      Step s = steps.get(rnd.nextInt(steps.size()));
      while (s.empty() && kind.compareTo(Kind.LOST_CUT_SEAL_CUT) >= 0) {
        s = steps.get(rnd.nextInt(steps.size())); // Talus makes no empty edit: nothing names it
      }
      String ctx = "seed " + seed + " case " + i + " " + kind;
      int before = s.manifestBefore().length;
      int after = s.manifestAfter().length;
      byte[] m;
      byte[] seal = s.sealAfter();
      Map<String, byte[]> tocs = s.tocsAfter();
      NavigableSet<Long> expected = null; // null: the open must fail
      long keptLength = -1;
      switch (kind) {
        case TORN_CUT, TORN_ZEROS -> {
          // the crash hit while the record was appended: no seal record yet
          int cut = before + rnd.nextInt(after - before);
          m = Arrays.copyOf(s.manifestAfter(), cut);
          if (kind == Kind.TORN_ZEROS) {
            m = Arrays.copyOf(m, after + rnd.nextInt(64)); // space allocated, never written
          }
          seal = s.sealBefore();
          tocs = s.tocsBefore(); // the edit was never synced: no TOC names it
          expected = s.liveBefore();
          keptLength = before;
        }
        case SEAL_NOT_WRITTEN -> {
          // the record was synced, the seal record not (or partly) written: the edit is kept
          m = s.manifestAfter();
          seal = Arrays.copyOf(s.sealAfter(), s.sealBefore().length + rnd.nextInt(12));
          tocs = s.tocsBefore(); // the TOCs are rewritten after the seal record
          expected = s.liveAfter();
          keptLength = after;
        }
        case LOST_CUT -> m = Arrays.copyOf(s.manifestAfter(), rnd.nextInt(after));
        case LOST_ZEROS, LOST_GARBAGE -> {
          m = s.manifestAfter().clone();
          int from = rnd.nextInt(after);
          for (int b = from; b < after; b++) {
            m[b] = kind == Kind.LOST_ZEROS ? 0 : (byte) rnd.nextInt(256);
          }
          if (Arrays.equals(m, s.manifestAfter())) {
            continue; // the fill changed nothing: not a damage
          }
        }
        case GARBAGE_APPENDED -> {
          int g = 1 + rnd.nextInt(40);
          m = Arrays.copyOf(s.manifestAfter(), after + g);
          boolean zerosAfterHeader = true;
          for (int b = after; b < m.length; b++) {
            m[b] = (byte) rnd.nextInt(256);
            zerosAfterHeader &= b < after + Manifest.RECORD_HEADER || m[b] == 0;
          }
          if (zerosAfterHeader) {
            // nothing past one record header's worth of bytes: what a torn append leaves, dropped
            // (the seal proves that no acknowledged edit is among them)
            expected = s.liveAfter();
            keptLength = after;
          }
        }
        case FLIP -> {
          m = s.manifestAfter().clone();
          m[rnd.nextInt(after)] ^= (byte) (1 << rnd.nextInt(8));
        }
        case LOST_CUT_SEAL_CUT -> {
          m = Arrays.copyOf(s.manifestAfter(), rnd.nextInt(after));
          seal = Arrays.copyOf(s.sealAfter(), rnd.nextInt(s.sealBefore().length + 1));
        }
        case LOST_ZEROS_SEAL_DELETED -> {
          m = s.manifestAfter().clone();
          Arrays.fill(m, rnd.nextInt(after), after, (byte) 0);
          seal = null;
          if (Arrays.equals(m, s.manifestAfter())) {
            continue; // the tail was zeros already: not a damage
          }
        }
        case MANIFEST_DELETED -> {
          m = null;
          seal = rnd.nextBoolean() ? null : s.sealAfter();
          if (tocs.isEmpty() && seal == null) {
            expected = new TreeSet<>(); // nothing shows there was a manifest: a new one
            keptLength = -2;
          }
        }
        case SEAL_DELETED -> {
          m = s.manifestAfter();
          seal = null;
          expected = s.liveAfter();
          keptLength = -3; // rewritten, with a new seal
        }
        default -> throw new AssertionError(kind);
      }
      tried[kind.ordinal()]++;
      write(dir, m, seal, tocs);
      if (expected == null) {
        Throwable t = catchThrowable(() -> Manifest.open(fs, dir).close());
        assertThat(t).as(ctx).isInstanceOf(CorruptFileException.class);
        assertThat(t.getMessage())
            .as(ctx)
            .contains(dir.resolve(Manifest.FILE_NAME).toString())
            .contains("offset ");
        if (m != null) {
          assertThat(catchThrowable(() -> Manifest.readLive(fs, dir)))
              .as(ctx)
              .isInstanceOf(CorruptFileException.class);
        }
        assertThat(read(dir, Manifest.FILE_NAME)).as(ctx).isEqualTo(m);
        assertThat(read(dir, ManifestSeal.FILE_NAME)).as(ctx).isEqualTo(seal);
        assertThat(tocs(dir)).as(ctx + ": TOCs unchanged").isEqualTo(fingerprints(tocs));
      } else if (keptLength == -2) {
        try (Manifest created = Manifest.open(fs, dir)) {
          assertThat(created.liveGenerations()).as(ctx).isEmpty();
        }
      } else {
        assertThat(Manifest.readLive(fs, dir)).as(ctx).isEqualTo(expected);
        try (Manifest opened = Manifest.open(fs, dir)) {
          assertThat(opened.liveGenerations()).as(ctx).isEqualTo(expected);
          if (keptLength >= 0) {
            assertThat(opened.sizeInBytes()).as(ctx + ": torn bytes cut off").isEqualTo(keptLength);
          } else {
            assertThat(fs.exists(dir.resolve(ManifestSeal.FILE_NAME)))
                .as(ctx + ": sealed")
                .isTrue();
          }
          long g = opened.newGeneration();
          opened.apply(List.of(g), List.of()); // and the manifest takes edits again
        }
        TreeSet<Long> more = new TreeSet<>(expected);
        try (Manifest again = Manifest.open(fs, dir)) {
          more.add(again.liveGenerations().last());
          assertThat(again.liveGenerations()).as(ctx).isEqualTo(more);
        }
      }
    }
    System.out.println(
        "ManifestTailTest seed="
            + seed
            + ": "
            + CASES
            + " cases over "
            + steps.size()
            + " edits, by kind "
            + Arrays.toString(Kind.values())
            + " = "
            + Arrays.toString(tried)
            + ", 0 failed");
  }

  /**
   * A random sequence of acknowledged edits, with a rewrite now and then. Each added generation
   * gets a format 3 TOC before its edit (as a flush or compaction commits its SSTable first); the
   * TOCs of generations an edit removed are deleted before the next edit.
   */
  private List<Step> history(Random rnd) throws Exception {
    Path dir = tmp.resolve("history");
    List<Step> steps = new ArrayList<>();
    List<Long> removedLast = List.of();
    try (Manifest m = Manifest.open(fs, dir)) {
      for (int i = 0; i < EDITS; i++) {
        for (long g : removedLast) {
          fs.delete(new SSTableDescriptor(dir, g).path(Component.TOC));
        }
        byte[] mb = read(dir, Manifest.FILE_NAME);
        byte[] sb = read(dir, ManifestSeal.FILE_NAME);
        NavigableSet<Long> liveBefore = m.liveGenerations();
        List<Long> added = new ArrayList<>();
        for (int a = rnd.nextInt(4); a > 0; a--) {
          long g = m.newGeneration();
          added.add(g);
          Files2.write(
              fs,
              new SSTableDescriptor(dir, g).path(Component.TOC),
              Toc.render(FormatVersion.CURRENT, g));
        }
        List<Long> removed = new ArrayList<>();
        for (long g : liveBefore) {
          if (rnd.nextInt(3) == 0) {
            removed.add(g);
          }
        }
        Map<String, byte[]> tocsBefore = tocFiles(dir);
        m.apply(added, removed);
        steps.add(
            new Step(
                mb,
                sb,
                liveBefore,
                tocsBefore,
                read(dir, Manifest.FILE_NAME),
                read(dir, ManifestSeal.FILE_NAME),
                m.liveGenerations(),
                tocFiles(dir),
                added.isEmpty() && removed.isEmpty()));
        removedLast = removed;
        if (rnd.nextInt(6) == 0) {
          m.rewrite();
        }
      }
    }
    assertThat(steps)
        .as("the TOCs carry witness lines")
        .anySatisfy(
            st ->
                assertThat(fingerprints(st.tocsAfter()).values())
                    .anySatisfy(t -> assertThat(t).containsPattern(Toc.ADDED + "0*[1-9]")));
    return steps;
  }

  /** The TOC files of {@code dir}, by name. */
  private Map<String, byte[]> tocFiles(Path dir) throws Exception {
    Map<String, byte[]> out = new TreeMap<>();
    for (Path p : fs.list(dir)) {
      if (p.getFileName().toString().endsWith("-TOC.txt")) {
        out.put(p.getFileName().toString(), Files2.read(fs, p));
      }
    }
    return out;
  }

  private Map<String, String> tocs(Path dir) throws Exception {
    return fingerprints(tocFiles(dir));
  }

  private static Map<String, String> fingerprints(Map<String, byte[]> files) {
    Map<String, String> out = new TreeMap<>();
    files.forEach((k, v) -> out.put(k, new String(v, US_ASCII)));
    return out;
  }

  /** The file's bytes, or null if it does not exist. */
  private byte[] read(Path dir, String name) throws Exception {
    Path p = dir.resolve(name);
    return fs.exists(p) ? Files2.read(fs, p) : null;
  }

  /** Replaces the directory's content: manifest and seal (null: none) and these TOCs. */
  private void write(Path dir, byte[] manifest, byte[] seal, Map<String, byte[]> tocs)
      throws Exception {
    fs.createDirectories(dir);
    for (Path p : fs.list(dir)) {
      fs.delete(p);
    }
    if (manifest != null) {
      Files2.write(fs, dir.resolve(Manifest.FILE_NAME), manifest);
    }
    if (seal != null) {
      Files2.write(fs, dir.resolve(ManifestSeal.FILE_NAME), seal);
    }
    for (Map.Entry<String, byte[]> e : tocs.entrySet()) {
      Files2.write(fs, dir.resolve(e.getKey()), e.getValue());
    }
  }
}
