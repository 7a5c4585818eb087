package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.talus.io.CorruptFileException;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableSet;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded damage to the tail of a manifest written by a random sequence of edits (with rewrites):
 * what a crash can leave — an append torn at any byte (cut off, or zero-filled up to and past the
 * record's end), an edit synced but not yet sealed — opens in the last acknowledged state or the
 * edit in flight, and cuts the torn bytes off; what a crash cannot leave — acknowledged edits lost
 * to a truncation, a zeroed or garbage tail, a flipped bit anywhere — fails the open with a {@link
 * CorruptFileException} naming the manifest and an offset, and changes nothing on disk. The seed is
 * printed; {@code -Dtalus.seed=S} replays it, {@code -Dtalus.manifest.tail.cases=N} sets the number
 * of cases (600).
 */
class ManifestTailTest {
  @TempDir Path tmp;

  private final StorageFs fs = new NioStorageFs();

  static final int CASES = Integer.getInteger("talus.manifest.tail.cases", 600);
  static final int EDITS = 40;

  /** The files and live set before an edit, and the files right after it was acknowledged. */
  record Step(
      byte[] manifestBefore,
      byte[] sealBefore,
      NavigableSet<Long> liveBefore,
      byte[] manifestAfter,
      byte[] sealAfter,
      NavigableSet<Long> liveAfter) {}

  enum Kind {
    TORN_CUT,
    TORN_ZEROS,
    SEAL_NOT_WRITTEN,
    LOST_CUT,
    LOST_ZEROS,
    LOST_GARBAGE,
    GARBAGE_APPENDED,
    FLIP
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
      Step s = steps.get(rnd.nextInt(steps.size()));
      Kind kind = Kind.values()[rnd.nextInt(Kind.values().length)];
      String ctx = "seed " + seed + " case " + i + " " + kind;
      int before = s.manifestBefore().length;
      int after = s.manifestAfter().length;
      byte[] m;
      byte[] seal = s.sealAfter();
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
          expected = s.liveBefore();
          keptLength = before;
        }
        case SEAL_NOT_WRITTEN -> {
          // the record was synced, the seal record not (or partly) written: the edit is kept
          m = s.manifestAfter();
          seal = Arrays.copyOf(s.sealAfter(), s.sealBefore().length + rnd.nextInt(12));
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
        default -> throw new AssertionError(kind);
      }
      tried[kind.ordinal()]++;
      write(dir, m, seal);
      if (expected == null) {
        Throwable t = catchThrowable(() -> Manifest.open(fs, dir).close());
        assertThat(t).as(ctx).isInstanceOf(CorruptFileException.class);
        assertThat(t.getMessage())
            .as(ctx)
            .contains(dir.resolve(Manifest.FILE_NAME).toString())
            .contains("offset ");
        assertThat(catchThrowable(() -> Manifest.readLive(fs, dir)))
            .as(ctx)
            .isInstanceOf(CorruptFileException.class);
        assertThat(Files2.read(fs, dir.resolve(Manifest.FILE_NAME))).as(ctx).isEqualTo(m);
        assertThat(Files2.read(fs, dir.resolve(ManifestSeal.FILE_NAME))).as(ctx).isEqualTo(seal);
      } else {
        assertThat(Manifest.readLive(fs, dir)).as(ctx).isEqualTo(expected);
        try (Manifest opened = Manifest.open(fs, dir)) {
          assertThat(opened.liveGenerations()).as(ctx).isEqualTo(expected);
          assertThat(opened.sizeInBytes()).as(ctx + ": torn bytes cut off").isEqualTo(keptLength);
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

  /** A random sequence of acknowledged edits, with a rewrite now and then. */
  private List<Step> history(Random rnd) throws Exception {
    Path dir = tmp.resolve("history");
    List<Step> steps = new ArrayList<>();
    try (Manifest m = Manifest.open(fs, dir)) {
      for (int i = 0; i < EDITS; i++) {
        byte[] mb = read(dir, Manifest.FILE_NAME);
        byte[] sb = read(dir, ManifestSeal.FILE_NAME);
        NavigableSet<Long> liveBefore = m.liveGenerations();
        List<Long> added = new ArrayList<>();
        for (int a = rnd.nextInt(4); a > 0; a--) {
          added.add(m.newGeneration());
        }
        List<Long> removed = new ArrayList<>();
        for (long g : liveBefore) {
          if (rnd.nextInt(3) == 0) {
            removed.add(g);
          }
        }
        m.apply(added, removed);
        steps.add(
            new Step(
                mb,
                sb,
                liveBefore,
                read(dir, Manifest.FILE_NAME),
                read(dir, ManifestSeal.FILE_NAME),
                m.liveGenerations()));
        if (rnd.nextInt(6) == 0) {
          m.rewrite();
        }
      }
    }
    return steps;
  }

  private byte[] read(Path dir, String name) throws Exception {
    return Files2.read(fs, dir.resolve(name));
  }

  private void write(Path dir, byte[] manifest, byte[] seal) throws Exception {
    fs.createDirectories(dir);
    Files2.write(fs, dir.resolve(Manifest.FILE_NAME), manifest);
    Files2.write(fs, dir.resolve(ManifestSeal.FILE_NAME), seal);
  }
}
