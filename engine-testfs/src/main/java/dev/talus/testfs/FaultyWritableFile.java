package dev.talus.testfs;

import dev.talus.io.WritableFile;
import dev.talus.testfs.FaultInjectingFs.Fault;
import dev.talus.testfs.FaultInjectingFs.Op;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A writable handle of {@link FaultInjectingFs}: records each completed write as unsynced, injects
 * the armed write and sync faults, and is dead (every call throws) after a simulated power loss.
 * Shares the thread-safety of the file layer's handles; the bookkeeping is guarded by the owning
 * file system.
 */
final class FaultyWritableFile implements WritableFile {
  private final FaultInjectingFs fs;
  final WritableFile file;
  private final FileState state;
  private final Path path;
  private long appendPosition;
  volatile boolean dead;

  FaultyWritableFile(
      FaultInjectingFs fs, Path path, WritableFile file, FileState state, long appendPosition) {
    this.fs = fs;
    this.path = path;
    this.file = file;
    this.state = state;
    this.appendPosition = appendPosition;
  }

  private void checkUsable(String op) throws IOException {
    if (dead) {
      throw new IOException("EIO: " + op + " on a handle opened before a simulated power loss");
    }
    fs.checkAlive(op);
  }

  private void checkChange(String op) throws IOException {
    checkUsable(op);
    fs.checkMutation(op);
  }

  @Override
  public void write(ByteBuffer src) throws IOException {
    long pos = appendPosition;
    int len = src.remaining();
    try {
      write(src, pos);
    } finally {
      appendPosition = pos + (len - src.remaining());
    }
  }

  @Override
  public void write(ByteBuffer src, long position) throws IOException {
    fs.stalls.await(Op.WRITE, path); // outside the gate: a stalled write holds no lock
    fs.withGate(
        () -> {
          checkChange("write " + path.getFileName() + " @" + position + "+" + src.remaining());
          Fault fault = fs.nextFault(Op.WRITE, path);
          int len = src.remaining();
          if (fault == Fault.TORN_WRITE && len > 0) {
            int prefix = fs.random().nextInt(len);
            ByteBuffer part = src.duplicate();
            part.limit(part.position() + prefix);
            file.write(part, position);
            src.position(src.position() + prefix);
            recordWrite(position, prefix);
            throw new IOException(
                "EIO: injected torn write (" + prefix + " of " + len + " bytes written)");
          } else if (fault != null) {
            throw FaultInjectingFs.error(fault, "write #" + fs.writeCount());
          }
          file.write(src, position);
          recordWrite(position, len);
          return null;
        });
  }

  private void recordWrite(long position, long len) {
    if (len > 0) {
      synchronized (fs) {
        state.dirty.add(new long[] {position, len});
      }
    }
  }

  @Override
  public long size() throws IOException {
    checkUsable("size");
    return file.size();
  }

  @Override
  public void sync() throws IOException {
    fs.stalls.await(Op.SYNC, path);
    fs.withGate(
        () -> {
          checkChange("sync " + path.getFileName());
          List<long[]> covered;
          synchronized (fs) {
            covered = new ArrayList<>(state.dirty);
          }
          Fault fault = fs.nextFault(Op.SYNC, path);
          if (fault != null) {
            synchronized (fs) {
              state.syncFailed(covered);
            }
            throw FaultInjectingFs.error(fault, "sync #" + fs.syncCount());
          }
          file.sync();
          synchronized (fs) {
            state.synced(covered);
          }
          return null;
        });
  }

  @Override
  public void truncate(long size) throws IOException {
    fs.withGate(
        () -> {
          checkChange("truncate " + path.getFileName() + " to " + size);
          file.truncate(size);
          synchronized (fs) {
            state.truncated(size);
            appendPosition = Math.min(appendPosition, size);
          }
          return null;
        });
  }

  @Override
  public void close() throws IOException {
    fs.closed(this);
    if (!dead) {
      file.close();
    }
  }

  /** A power loss: every handle in {@code handles} dies, its file is closed, the set emptied. */
  static void killAll(java.util.Collection<FaultyWritableFile> handles) {
    for (FaultyWritableFile h : handles) {
      h.dead = true;
      try {
        h.file.close();
      } catch (IOException ignored) {
        // The "machine" is off; a failing close changes nothing.
      }
    }
    handles.clear();
  }
}
