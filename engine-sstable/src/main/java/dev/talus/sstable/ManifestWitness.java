package dev.talus.sstable;

import dev.talus.io.CorruptFileException;
import dev.talus.io.ReadableFile;
import dev.talus.io.StorageFs;
import dev.talus.io.WritableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The manifest's second witness, independent of {@code MANIFEST.db} and {@code MANIFEST.seal}: each
 * SSTable's own TOC. Once an edit is synced and sealed, {@link Manifest#apply} rewrites the TOC of
 * every SSTable the edit added with a {@code manifest-edit-added=E} line (an edit that only removes
 * SSTables marks the removed ones {@code manifest-edit-removed=R} instead) — through a temporary
 * file synced before it is renamed over the TOC, so a crash leaves the old TOC or the new one, both
 * whole — and syncs the directory before {@code apply} returns, so an acknowledged edit's witness
 * survives a power loss.
 *
 * <p>A witness line is written only after the edit's record was synced, so it proves that the
 * manifest once held that edit: at open, a manifest whose records end before the highest edit any
 * TOC in its directory names has lost acknowledged edits — whatever happened to the seal — and
 * fails with a {@link CorruptFileException} naming {@code MANIFEST.db}. An SSTable written but
 * never made live (a crash before its edit was synced) carries no witness line, so that state still
 * opens and its files are removed as leftovers. The witness is best effort: a TOC that cannot be
 * rewritten (a full disk) keeps its old content and only weakens the check, and a TOC that does not
 * parse proves nothing here (a live SSTable's TOC is checked when it is opened). Format 1 and 2
 * SSTables carry no witness. Stateless.
 */
final class ManifestWitness {
  private static final Logger LOG = LoggerFactory.getLogger(ManifestWitness.class);

  /** The highest edit the TOCs of a directory vouch for, and the TOC that names it. */
  record Highest(long edit, Path toc, boolean removal) {}

  private ManifestWitness() {}

  /**
   * The highest edit a TOC in {@code dir} vouches for, or null if none does. Reads every TOC file
   * (not the temporary ones) directly in {@code dir}.
   */
  static Highest highest(StorageFs fs, Path dir) throws IOException {
    Highest best = null;
    for (Path p : fs.list(dir)) {
      long gen = SSTableDescriptor.generationOf(p);
      if (gen < 0 || !p.getFileName().toString().endsWith("-" + Component.TOC.suffix())) {
        continue;
      }
      Toc.Content c = read(fs, p, gen);
      if (c == null) {
        continue;
      }
      long edit = Math.max(c.editAdded(), c.editRemoved());
      if (edit != Toc.NONE && (best == null || edit > best.edit())) {
        best = new Highest(edit, p, c.editRemoved() > c.editAdded());
      }
    }
    return best;
  }

  /** Whether {@code dir} holds the TOC of any SSTable (any format): a complete SSTable. */
  static Path anyToc(StorageFs fs, Path dir) throws IOException {
    for (Path p : fs.list(dir)) {
      if (SSTableDescriptor.generationOf(p) >= 0
          && p.getFileName().toString().endsWith("-" + Component.TOC.suffix())) {
        return p;
      }
    }
    return null;
  }

  /** The TOC's content, or null if it is missing, too large or does not parse. */
  private static Toc.Content read(StorageFs fs, Path toc, long gen) throws IOException {
    byte[] b;
    try (ReadableFile f = fs.openForRead(toc)) {
      long size = f.size();
      if (size > 4096) {
        return null;
      }
      ByteBuffer buf = ByteBuffer.allocate((int) size);
      while (buf.hasRemaining() && f.read(buf, buf.position()) > 0) {
        // keep reading
      }
      b = buf.array();
    } catch (NoSuchFileException e) {
      return null; // deleted meanwhile (an obsolete SSTable): it proves nothing
    }
    try {
      return Toc.parse(b, toc, gen);
    } catch (CorruptFileException e) {
      return null;
    }
  }

  /**
   * Records edit {@code edit}, synced and sealed, in the TOCs it concerns — the SSTables it added,
   * or if it added none, those it removed — and syncs the directory, so that the witness is as
   * durable as the edit before {@link Manifest#apply} returns. Never throws: a TOC that cannot be
   * rewritten is logged and left as it was, and a failed directory sync is logged (the renames may
   * or may not survive a crash; either is a valid state, since a witness is only ever written after
   * its edit).
   */
  static void record(
      StorageFs fs, Path dir, long edit, Collection<Long> added, Collection<Long> removed) {
    boolean removal = added.isEmpty();
    boolean renamed = false;
    for (long gen : removal ? removed : added) {
      renamed |= rewrite(fs, new SSTableDescriptor(dir, gen), edit, removal);
    }
    if (renamed) {
      try {
        fs.syncDirectory(dir);
      } catch (IOException | RuntimeException e) {
        LOG.warn("Could not sync {} after recording manifest edit {} in TOCs", dir, edit, e);
      }
    }
  }

  /** Rewrites one TOC with the witness line; returns whether it was renamed into place. */
  private static boolean rewrite(StorageFs fs, SSTableDescriptor desc, long edit, boolean removal) {
    long gen = desc.generation();
    Path toc = desc.path(Component.TOC);
    Path tmp = desc.tmpPath(Component.TOC);
    try {
      Toc.Content c = read(fs, toc, gen);
      if (c == null || c.version() < Toc.WITNESS_VERSION) {
        return false; // no TOC (a test's bare generation), an older format, or a damaged one
      }
      if (removal ? c.editRemoved() != Toc.NONE : c.editAdded() != Toc.NONE) {
        return false;
      }
      byte[] next =
          Toc.render(
              c.version(), gen, removal ? c.editAdded() : edit, removal ? edit : c.editRemoved());
      if (fs.exists(tmp)) {
        fs.delete(tmp); // left by a rewrite that failed: the TOC is still the old one
      }
      try (WritableFile w = fs.create(tmp)) {
        w.write(ByteBuffer.wrap(next));
        w.sync(); // whole before the rename can make it the TOC
      }
      fs.rename(tmp, toc);
      return true;
    } catch (IOException | RuntimeException e) {
      LOG.warn(
          "Could not record manifest edit {} in {} (the check of the manifest at open is weaker"
              + " for it; nothing else is affected)",
          edit,
          toc,
          e);
      try {
        fs.delete(tmp);
      } catch (IOException | RuntimeException ignored) {
        // removed at the next open like any temporary file
      }
      return false;
    }
  }

  /**
   * Fails unless a directory without a manifest looks like one whose manifest was never created (a
   * crash while its table was created): no sealed edit ({@code sealHighest} &lt; 1) and no complete
   * SSTable. Creating an empty manifest there instead would delete every SSTable as a leftover.
   */
  static void checkNoManifest(StorageFs fs, Path dir, Path manifest, long sealHighest)
      throws IOException {
    Path toc = anyToc(fs, dir);
    if (sealHighest < 1 && toc == null) {
      return;
    }
    throw new CorruptFileException(
        manifest,
        0,
        "the manifest is missing, but "
            + (toc != null
                ? toc.getFileName() + " is a complete SSTable"
                : ManifestSeal.FILE_NAME + " records edit " + sealHighest)
            + ": the directory had a manifest, which was deleted; restore the table directory from"
            + " a backup");
  }

  /** Logs that a manifest with no seal (or of format 1) gets a new one, from what it holds. */
  static void sealRecreated(Path manifest, int version, long lastEdit) {
    if (version >= 2 && lastEdit > 0) {
      LOG.warn(
          "{} was missing beside {}; it is written again from the manifest's last edit {}, which"
              + " the SSTables' TOCs do not contradict",
          ManifestSeal.FILE_NAME,
          manifest,
          lastEdit);
    }
  }

  /**
   * Fails if a TOC in {@code dir} vouches for an edit after {@code lastEdit}, the manifest's last
   * complete record, whose records end at byte {@code validEnd} of {@code manifest}.
   */
  static void check(StorageFs fs, Path dir, Path manifest, long validEnd, long lastEdit)
      throws IOException {
    Highest h = highest(fs, dir);
    if (h != null && h.edit() > lastEdit) {
      throw new CorruptFileException(
          manifest,
          validEnd,
          "manifest lost acknowledged edits: its records end at byte "
              + validEnd
              + " with edit "
              + lastEdit
              + ", but "
              + h.toc().getFileName()
              + " records that edit "
              + h.edit()
              + (h.removal() ? " took its SSTable out of the live set" : " made its SSTable live")
              + " (the manifest was truncated, its tail overwritten or replaced by"
              + " an older copy); restore the table directory from a backup");
    }
  }
}
