package dev.talus.testfs;

import dev.talus.testfs.FaultInjectingFs.Op;
import java.io.InterruptedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.EnumMap;
import java.util.Map;

/**
 * The stalls armed in one {@link FaultInjectingFs}: a disk that hangs instead of failing. While a
 * stall is armed for a kind of operation (a write or a file sync) and a file-name glob, every such
 * operation on a matching file blocks before it starts, until {@link #release()}; then it goes on
 * normally. A test sees the blocked threads with {@link #awaitStalled}, so it needs no sleeps.
 * Thread-safe (the monitor guards everything).
 */
final class Stalls {
  private final Map<Op, PathMatcher> armed = new EnumMap<>(Op.class);
  private long releases;
  private int stalled;

  /** Blocks every later {@code op} on a file whose name matches {@code glob}. */
  synchronized void stall(Op op, String glob) {
    if (op != Op.WRITE && op != Op.SYNC) {
      throw new IllegalArgumentException("only writes and file syncs stall, not " + op);
    }
    armed.put(op, FileSystems.getDefault().getPathMatcher("glob:" + glob));
  }

  /** Disarms every stall and lets every blocked operation go on. */
  synchronized void release() {
    armed.clear();
    releases++;
    notifyAll();
  }

  /** Operations blocked now. */
  synchronized int stalled() {
    return stalled;
  }

  /** Waits until at least {@code n} operations are blocked. */
  synchronized void awaitStalled(int n) throws InterruptedException {
    while (stalled < n) {
      wait();
    }
  }

  /** Called before each {@code op} on {@code file}: blocks while a stall for it is armed. */
  synchronized void await(Op op, Path file) throws InterruptedIOException {
    PathMatcher m = armed.get(op);
    if (m == null || file.getFileName() == null || !m.matches(file.getFileName())) {
      return;
    }
    long seen = releases;
    stalled++;
    notifyAll();
    try {
      while (releases == seen) {
        wait();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while the disk stalled on " + file);
    } finally {
      stalled--;
      notifyAll();
    }
  }
}
