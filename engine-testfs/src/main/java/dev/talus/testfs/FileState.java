package dev.talus.testfs;

import dev.talus.io.ReadableFile;
import dev.talus.io.StorageFs;
import dev.talus.io.WritableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * What {@link FaultInjectingFs} knows about one file: whether its name is durable, how much of it
 * is synced, and which written ranges are not (or were lost by a failed sync). Guarded by the
 * owning {@link FaultInjectingFs} instance.
 */
final class FileState {
  boolean nameDurable;
  long syncedSize;

  /** Completed, unsynced writes: {offset, length}, in completion order. */
  final List<long[]> dirty = new ArrayList<>();

  /** Writes a failed sync should have persisted; no later sync makes them durable. */
  final List<long[]> lost = new ArrayList<>();

  /** The state of a file the wrapper has not seen yet: it existed before, so it is durable. */
  static FileState of(Map<Path, FileState> files, StorageFs delegate, Path key) throws IOException {
    FileState st = files.get(key);
    if (st == null) {
      st = new FileState();
      st.nameDurable = true;
      st.syncedSize = delegate.exists(key) ? delegate.size(key) : 0;
      files.put(key, st);
    }
    return st;
  }

  /**
   * A new hard link of a file of {@code size} bytes: its name is not durable yet, its bytes are.
   */
  static FileState linked(long size) {
    FileState st = new FileState();
    st.syncedSize = size;
    return st;
  }

  /**
   * A power loss over every file the wrapper knows: names never made durable are removed, the
   * durable images of names removed without a directory sync come back (and {@code restore} is
   * emptied), and every other file loses what was not synced ({@link #applyLoss}).
   */
  static void loseUnsynced(
      StorageFs delegate, Map<Path, FileState> files, Map<Path, byte[]> restore, Random rnd)
      throws IOException {
    for (Iterator<Map.Entry<Path, FileState>> it = files.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Path, FileState> e = it.next();
      Path path = e.getKey();
      FileState st = e.getValue();
      if (!st.nameDurable || !delegate.exists(path)) {
        delegate.delete(path); // (or it was removed behind the wrapper's back)
        it.remove();
        continue;
      }
      st.applyLoss(delegate, path, rnd);
    }
    for (Map.Entry<Path, byte[]> e : restore.entrySet()) {
      Path path = e.getKey();
      delegate.delete(path);
      // a name whose removal was not durable comes back, and so does its directory if that was
      // removed after it (the directory's own removal cannot be durable while it held the name)
      delegate.createDirectories(path.getParent());
      try (WritableFile f = delegate.create(path)) {
        f.write(ByteBuffer.wrap(e.getValue()), 0);
        f.sync();
      }
      FileState st = new FileState();
      st.nameDurable = true;
      st.syncedSize = e.getValue().length;
      files.put(path, st);
    }
    restore.clear();
  }

  /**
   * Rewrites {@code path} through {@code delegate} as a power loss leaves it: cut to its durable
   * length, unsynced and lost ranges zero-filled; with {@code rnd}, each unsynced write survives
   * whole, in part or not at all.
   */
  void applyLoss(StorageFs delegate, Path path, Random rnd) throws IOException {
    long length = syncedSize;
    List<long[]> zero = new ArrayList<>(lost);
    for (long[] r : dirty) {
      long kept = 0;
      if (rnd != null) {
        int choice = rnd.nextInt(3);
        kept = choice == 0 ? r[1] : choice == 1 ? (long) (rnd.nextDouble() * r[1]) : 0;
      }
      if (kept > 0) {
        length = Math.max(length, r[0] + kept);
      }
      if (kept < r[1]) {
        zero.add(new long[] {r[0] + kept, r[1] - kept});
      }
    }
    try (WritableFile f = delegate.openForAppend(path)) {
      if (f.size() > length) {
        f.truncate(length);
      }
      for (long[] z : zero) {
        long end = Math.min(z[0] + z[1], length);
        if (end > z[0]) {
          f.write(ByteBuffer.allocate((int) (end - z[0])), z[0]);
        }
      }
      f.sync();
    }
    syncedSize = length;
    dirty.clear();
    lost.clear();
  }

  /** The bytes of {@code file} a power loss would leave (without random tails). */
  byte[] durableImage(StorageFs delegate, Path file) throws IOException {
    int len = (int) Math.min(syncedSize, delegate.size(file));
    byte[] out = new byte[len];
    try (ReadableFile r = delegate.openForRead(file)) {
      r.read(ByteBuffer.wrap(out), 0);
    }
    List<long[]> zero = new ArrayList<>(lost);
    zero.addAll(dirty);
    for (long[] z : zero) {
      for (long i = z[0]; i < Math.min(z[0] + z[1], len); i++) {
        out[(int) i] = 0;
      }
    }
    return out;
  }

  /** A sync covered {@code ranges}: they leave the unsynced list. */
  void synced(List<long[]> ranges) {
    removeAll(dirty, ranges);
    for (long[] r : ranges) {
      syncedSize = Math.max(syncedSize, r[0] + r[1]);
    }
  }

  /** A sync of {@code ranges} failed: they are lost for good (fsyncgate). */
  void syncFailed(List<long[]> ranges) {
    removeAll(dirty, ranges);
    lost.addAll(ranges);
  }

  void truncated(long size) {
    syncedSize = Math.min(syncedSize, size);
    clip(dirty, size);
    clip(lost, size);
  }

  private static void removeAll(List<long[]> from, List<long[]> items) {
    Set<long[]> drop = Collections.newSetFromMap(new IdentityHashMap<>());
    drop.addAll(items);
    from.removeIf(drop::contains);
  }

  private static void clip(List<long[]> ranges, long size) {
    for (Iterator<long[]> it = ranges.iterator(); it.hasNext(); ) {
      long[] r = it.next();
      if (r[0] >= size) {
        it.remove();
      } else if (r[0] + r[1] > size) {
        r[1] = size - r[0];
      }
    }
  }
}
