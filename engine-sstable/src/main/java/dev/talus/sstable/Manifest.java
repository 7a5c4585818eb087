package dev.talus.sstable;

import dev.talus.data.VarInts;
import dev.talus.io.CorruptFileException;
import dev.talus.io.FileFormat;
import dev.talus.io.ReadableFile;
import dev.talus.io.StorageFs;
import dev.talus.io.WritableFile;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * Which SSTable generations of one table directory are live: an append-only file ({@code
 * MANIFEST.db}) of checksummed edits {added, removed, next generation}, each synced before {@link
 * #apply} returns, so swapping a compaction's inputs for its outputs is one atomic record — a crash
 * leaves the old set or the new set, never both or neither.
 *
 * <p>Opening replays the records. A torn last record (a crash mid-append) is dropped and cut off:
 * that edit never happened. A damaged record followed by more data is corruption and fails the
 * open. Every edit is numbered, and its number is also appended to {@link ManifestSeal the seal}
 * before {@code apply} returns, so a manifest that lost acknowledged edits (truncated, its tail
 * zeroed) fails the open too instead of opening in an earlier state; so does one that ends before
 * an edit the SSTables' own TOCs record ({@link ManifestWitness}), which holds even when the seal
 * was damaged or deleted too. When the file outgrows {@link #REWRITE_THRESHOLD} it is rewritten as
 * one snapshot record through a temporary file, rename and directory sync.
 *
 * <p>A failed fsync during an edit, or any I/O error during a rewrite, is final ({@link
 * #isFailed}): the edit may or may not be on disk (a failed fsync may have dropped it, or a later
 * writeback may still persist it), so every later {@link #apply} and {@link #rewrite} throws,
 * naming the first failure, until the manifest is opened again, which reads what really is on disk.
 * A retried fsync that succeeds would prove nothing (the "fsyncgate" lesson). A failed write of an
 * edit is not final: the file is cut back to its synced end, and the edit did not happen.
 *
 * <p>Thread-safe: every method is synchronized.
 */
public final class Manifest implements Closeable {
  public static final String FILE_NAME = "MANIFEST.db";
  static final String HEADER_NAME = "Manifest";

  /** Format version written: 2 numbers every edit (1, without the numbers, is still read). */
  static final int VERSION = 2;

  /** Size past which an edit rewrites the file as one snapshot record. */
  public static final long REWRITE_THRESHOLD = 64 * 1024;

  /** Record header: payload length (4), CRC32C of the length (4), CRC32C of the payload (4). */
  static final int RECORD_HEADER = 12;

  private final StorageFs fs;
  private final Path dir;
  private final Path file;
  private final Path sealFile;
  private final TreeSet<Long> live = new TreeSet<>();
  private long nextGeneration = 1;

  /** Sequence number of the last edit applied (replayed or acknowledged). */
  private long seq;

  private int version = VERSION;
  private WritableFile out;
  private WritableFile sealOut;
  private boolean closed;
  private IOException failure;

  private Manifest(StorageFs fs, Path dir) {
    this.fs = fs;
    this.dir = dir;
    this.file = dir.resolve(FILE_NAME);
    this.sealFile = dir.resolve(ManifestSeal.FILE_NAME);
  }

  /**
   * Opens (creating if missing) the manifest of {@code dir}, replaying and repairing it. A missing
   * manifest is created only in a directory that shows no sign of an earlier one (no complete
   * SSTable, no sealed edit): otherwise it was deleted, and the open fails.
   */
  public static Manifest open(StorageFs fs, Path dir) throws IOException {
    fs.createDirectories(dir);
    Manifest m = new Manifest(fs, dir);
    if (!fs.exists(m.file)) {
      ManifestWitness.checkNoManifest(fs, dir, m.file, ManifestSeal.read(fs, dir).highest());
      m.rewrite();
    } else {
      long validEnd = m.replay();
      ManifestSeal.Content seal = ManifestSeal.read(fs, dir);
      m.checkSeal(seal, validEnd); // before anything on disk changes
      ManifestWitness.check(fs, dir, m.file, validEnd, m.seq);
      if (m.version < VERSION || !seal.exists()) {
        ManifestWitness.sealRecreated(m.file, m.version, m.seq);
        m.rewrite(); // an older manifest, or a crash while the first one was created
      } else {
        m.out = fs.openForAppend(m.file);
        if (m.out.size() != validEnd) {
          m.out.truncate(validEnd);
          m.out.sync();
        }
        m.sealOut = fs.openForAppend(m.sealFile);
        if (m.sealOut.size() != seal.wholeRecordsLength()) {
          m.sealOut.truncate(seal.wholeRecordsLength());
          m.sealOut.sync();
        }
      }
    }
    return m;
  }

  /**
   * Fails if the seal proves an acknowledged edit that the manifest no longer holds: a truncated or
   * zeroed tail, which the manifest alone cannot tell apart from an append torn by a crash.
   */
  private void checkSeal(ManifestSeal.Content seal, long validEnd) throws CorruptFileException {
    if (seal.highest() > seq) {
      throw new CorruptFileException(
          file,
          validEnd,
          "manifest lost acknowledged edits: its records end at byte "
              + validEnd
              + " with edit "
              + seq
              + ", but "
              + ManifestSeal.FILE_NAME
              + " records edit "
              + seal.highest()
              + " as acknowledged (the file was truncated or its tail overwritten)");
    }
  }

  /**
   * The live generations recorded in {@code dir}'s manifest, read without changing anything: no
   * file is created and a torn tail is not cut off (for offline verification).
   *
   * @throws java.nio.file.NoSuchFileException if the directory has no manifest
   * @throws CorruptFileException if the manifest is damaged or lost acknowledged edits (by its seal
   *     or its SSTables' TOCs)
   */
  public static NavigableSet<Long> readLive(StorageFs fs, Path dir) throws IOException {
    Manifest m = new Manifest(fs, dir);
    long validEnd = m.replay();
    m.checkSeal(ManifestSeal.read(fs, dir), validEnd);
    ManifestWitness.check(fs, dir, m.file, validEnd, m.seq);
    return m.liveGenerations();
  }

  private long replay() throws IOException {
    byte[] b;
    try (ReadableFile f = fs.openForRead(file)) {
      long size = f.size();
      if (size > Integer.MAX_VALUE - 16) {
        throw new CorruptFileException(file, 0, "manifest of " + size + " bytes is implausible");
      }
      ByteBuffer buf = ByteBuffer.allocate((int) size);
      while (buf.hasRemaining() && f.read(buf, buf.position()) > 0) {
        // keep reading
      }
      b = buf.array();
    }
    int hl = FileFormat.headerLength(HEADER_NAME);
    if (b.length < hl) {
      throw new CorruptFileException(file, b.length, "manifest shorter than its header");
    }
    // The header is written with the first snapshot through a temp file, so it is never torn.
    version =
        FileFormat.checkHeader(
            new DataInputStream(new ByteArrayInputStream(b, 0, hl)),
            file,
            HEADER_NAME,
            0,
            1,
            VERSION);
    int p = hl;
    while (p < b.length) {
      int remaining = b.length - p;
      if (remaining < RECORD_HEADER) {
        return p; // torn record header
      }
      ByteBuffer h = ByteBuffer.wrap(b, p, RECORD_HEADER);
      int len = h.getInt();
      int lenCrc = h.getInt();
      int payloadCrc = h.getInt();
      if (lenCrc != crc(ByteBuffer.allocate(4).putInt(len).array(), 0, 4)) {
        if (allZero(b, p + RECORD_HEADER)) {
          // A header written in part (or not at all) and nothing after it: an append torn by a
          // crash, or space it allocated but never wrote.
          return p;
        }
        throw new CorruptFileException(file, p, "manifest record length checksum mismatch");
      }
      if (len < 0 || (long) len > remaining - RECORD_HEADER) {
        return p; // torn payload
      }
      int end = p + RECORD_HEADER + len;
      if (payloadCrc != crc(b, p + RECORD_HEADER, len)) {
        // A crash mid-append leaves the tail of the last record unwritten (zeros), and a record
        // never ends in a zero byte (its last field, the next generation, is a varint >= 1). A
        // complete last record that fails its checksum is damage, not a torn write: dropping it
        // would forget a live SSTable and delete its files.
        if (b[end - 1] == 0 && allZero(b, end)) {
          return p; // the last record, partly written (maybe into space allocated past it)
        }
        throw new CorruptFileException(file, p, "manifest record checksum mismatch");
      }
      long recordSeq;
      try {
        recordSeq =
            applyRecord(new DataInputStream(new ByteArrayInputStream(b, p + RECORD_HEADER, len)));
      } catch (IOException e) {
        throw new CorruptFileException(file, p, "undecodable manifest record", e);
      }
      // The first record (a snapshot) carries the number of the last edit it holds; every later
      // one the next number.
      if (version >= 2 && p > hl && recordSeq != seq + 1) {
        throw new CorruptFileException(
            file, p, "manifest record numbered " + recordSeq + " after edit " + seq);
      }
      seq = recordSeq;
      p = end;
    }
    return p;
  }

  private static boolean allZero(byte[] b, int from) {
    for (int i = Math.max(0, from); i < b.length; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return true;
  }

  /** Applies one record's edit and returns its sequence number (0 in a version 1 manifest). */
  private long applyRecord(DataInputStream in) throws IOException {
    long recordSeq = version >= 2 ? VarInts.readUnsigned(in) : 0;
    int added = VarInts.readLength(in, Integer.MAX_VALUE);
    for (int i = 0; i < added; i++) {
      live.add(VarInts.readUnsigned(in));
    }
    int removed = VarInts.readLength(in, Integer.MAX_VALUE);
    for (int i = 0; i < removed; i++) {
      live.remove(VarInts.readUnsigned(in));
    }
    nextGeneration = Math.max(nextGeneration, VarInts.readUnsigned(in));
    if (in.available() != 0) {
      throw new IOException("trailing bytes in manifest record");
    }
    return recordSeq;
  }

  private static byte[] record(
      long seq, Collection<Long> added, Collection<Long> removed, long next) throws IOException {
    ByteArrayOutputStream payload = new ByteArrayOutputStream();
    DataOutputStream d = new DataOutputStream(payload);
    VarInts.writeUnsigned(d, seq);
    VarInts.writeUnsigned(d, added.size());
    for (long g : added) {
      VarInts.writeUnsigned(d, g);
    }
    VarInts.writeUnsigned(d, removed.size());
    for (long g : removed) {
      VarInts.writeUnsigned(d, g);
    }
    VarInts.writeUnsigned(d, next);
    byte[] p = payload.toByteArray();
    ByteBuffer r = ByteBuffer.allocate(RECORD_HEADER + p.length);
    r.putInt(p.length);
    r.putInt(crc(ByteBuffer.allocate(4).putInt(p.length).array(), 0, 4));
    r.putInt(crc(p, 0, p.length));
    r.put(p);
    return r.array();
  }

  private static int crc(byte[] b, int off, int len) {
    return FileFormat.crc32c(b, off, len);
  }

  /** The live generations, ascending. A copy. */
  public synchronized NavigableSet<Long> liveGenerations() {
    return new TreeSet<>(live);
  }

  /**
   * Hands out a generation number for a new SSTable. It is made durable by the next {@link #apply}
   * (every record carries the counter); a number handed out before a crash may be handed out again,
   * which is safe because its files were never live and are removed at open.
   */
  public synchronized long newGeneration() {
    checkOpen();
    return nextGeneration++;
  }

  /**
   * Atomically adds and removes generations and syncs the record. Removing a generation that is not
   * live, or adding one already live, is an {@link IllegalArgumentException} (a caller bug).
   */
  public synchronized void apply(Collection<Long> added, Collection<Long> removed)
      throws IOException {
    checkOpen();
    for (long g : added) {
      if (live.contains(g) && !removed.contains(g)) {
        throw new IllegalArgumentException("generation " + g + " is already live");
      }
      if (g >= nextGeneration) {
        nextGeneration = g + 1;
      }
    }
    for (long g : removed) {
      if (!live.contains(g)) {
        throw new IllegalArgumentException("generation " + g + " is not live, cannot remove it");
      }
    }
    checkNotFailed();
    byte[] r = record(seq + 1, added, removed, nextGeneration);
    long end = out.size();
    try {
      out.write(ByteBuffer.wrap(r));
    } catch (IOException e) {
      // Nothing of this edit was synced: cutting the file back to its synced end undoes whatever
      // part of the record reached it, and the manifest stays usable (a full disk may be freed).
      try {
        out.truncate(end);
      } catch (IOException t) {
        e.addSuppressed(t);
        throw failed(e);
      }
      throw e;
    }
    try {
      out.sync();
    } catch (IOException e) {
      throw failed(e);
    }
    long sealEnd = sealOut.size();
    try {
      sealOut.write(ByteBuffer.wrap(ManifestSeal.record(seq + 1)));
    } catch (IOException e) {
      // The edit is synced but not acknowledged. Undo it (cut both files back, sync the manifest)
      // so that the caller may clean up and retry; a crash before that keeps the edit, which is
      // allowed for an edit that never returned.
      try {
        sealOut.truncate(sealEnd);
        out.truncate(end);
        out.sync();
      } catch (IOException t) {
        e.addSuppressed(t);
        throw failed(e);
      }
      throw e;
    }
    try {
      sealOut.sync();
    } catch (IOException e) {
      throw failed(e);
    }
    seq++;
    live.removeAll(removed);
    live.addAll(added);
    ManifestWitness.record(fs, dir, seq, added, removed); // sealed: now the TOCs may say so
    if (out.size() > REWRITE_THRESHOLD) {
      rewrite();
    }
  }

  /** True after a failure that makes every later edit throw (see the class comment). */
  public synchronized boolean isFailed() {
    return failure != null;
  }

  private IOException failed(IOException e) {
    failure = e;
    return e;
  }

  private void checkNotFailed() throws IOException {
    if (failure != null) {
      throw new IOException(
          "the manifest "
              + file
              + " accepts no edit after an earlier failure ("
              + failure.getMessage()
              + "); open it again",
          failure);
    }
  }

  /** Rewrites the manifest as a single snapshot record (temp file, sync, rename, dir sync). */
  public synchronized void rewrite() throws IOException {
    checkNotFailed();
    try {
      rewriteFile();
    } catch (IOException e) {
      throw failed(e);
    }
  }

  private void rewriteFile() throws IOException {
    Path tmp = dir.resolve(FILE_NAME + SSTableDescriptor.TMP_SUFFIX);
    Path sealTmp = dir.resolve(ManifestSeal.FILE_NAME + SSTableDescriptor.TMP_SUFFIX);
    fs.delete(tmp);
    fs.delete(sealTmp);
    ByteArrayOutputStream h = new ByteArrayOutputStream();
    FileFormat.writeHeader(new DataOutputStream(h), HEADER_NAME, VERSION, 0);
    byte[] snapshot = record(seq, live, List.of(), nextGeneration);
    try (WritableFile w = fs.create(tmp)) {
      w.write(ByteBuffer.wrap(h.toByteArray()));
      w.write(ByteBuffer.wrap(snapshot));
      w.sync();
    }
    // The new seal holds the same highest number as the old one, so any of the two renames may
    // be lost by a crash without the seal proving more than the manifest holds.
    try (WritableFile w = fs.create(sealTmp)) {
      w.write(ByteBuffer.wrap(ManifestSeal.record(seq)));
      w.sync();
    }
    closeFiles();
    fs.rename(tmp, file);
    fs.rename(sealTmp, sealFile);
    fs.syncDirectory(dir);
    version = VERSION;
    out = fs.openForAppend(file);
    sealOut = fs.openForAppend(sealFile);
  }

  private void closeFiles() throws IOException {
    try {
      if (out != null) {
        out.close();
      }
    } finally {
      out = null;
      if (sealOut != null) {
        WritableFile s = sealOut;
        sealOut = null;
        s.close();
      }
    }
  }

  /** Size of the manifest file in bytes. */
  public synchronized long sizeInBytes() throws IOException {
    return out.size();
  }

  /**
   * Deletes crash leftovers in the directory: temporary files ({@code *.tmp}) and components of
   * generations that are not live. Call it at open, before any writer starts, since a running
   * writer's files are not yet live. Returns the deleted paths.
   */
  public synchronized List<Path> deleteUnlistedFiles() throws IOException {
    checkOpen();
    List<Path> deleted = new ArrayList<>();
    for (Path p : fs.list(dir)) {
      String name = p.getFileName().toString();
      long gen = SSTableDescriptor.generationOf(p);
      boolean tmp = name.endsWith(SSTableDescriptor.TMP_SUFFIX);
      boolean ownTmp = name.startsWith(FILE_NAME) || name.startsWith(ManifestSeal.FILE_NAME);
      if ((tmp && (gen >= 0 || ownTmp)) || (gen >= 0 && !live.contains(gen))) {
        fs.delete(p);
        deleted.add(p);
      }
    }
    if (!deleted.isEmpty()) {
      fs.syncDirectory(dir);
    }
    return deleted;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("manifest of " + dir + " is closed");
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (!closed) {
      closed = true;
      closeFiles();
    }
  }
}
