package dev.talus.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The production file layer over {@link FileChannel}. Thread-safe. Keeps a JVM-wide set of the lock
 * files it holds, by file identity, because a JVM cannot take the same OS lock twice: the second
 * open in one JVM must fail fast like the one from another process, without ever opening (and so,
 * on close, releasing) a channel on a file this JVM has locked.
 */
public final class NioStorageFs implements StorageFs {
  /**
   * Identities of the lock files held in this JVM, shared by every instance so two instances cannot
   * both lock, each with the channel holding its lock. The channel is kept reachable from here on
   * purpose: an identity (device and inode) is unique only while the file is open, and the JDK
   * closes an unreachable channel's descriptor when it is collected — after which a new file (in a
   * later temporary directory, say) can get the same inode and be refused as "locked" by an
   * instance that was never closed. Guarded by itself.
   */
  private static final Map<Object, FileChannel> HELD_LOCKS = new HashMap<>();

  @Override
  public WritableFile create(Path file) throws IOException {
    FileChannel ch =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    return new NioWritableFile(ch);
  }

  @Override
  public WritableFile openForAppend(Path file) throws IOException {
    FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.READ);
    ch.position(ch.size());
    return new NioWritableFile(ch);
  }

  @Override
  public ReadableFile openForRead(Path file) throws IOException {
    FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
    return new NioReadableFile(ch);
  }

  @Override
  public void rename(Path from, Path to) throws IOException {
    Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  @Override
  public void delete(Path file) throws IOException {
    Files.deleteIfExists(file);
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    }
  }

  @Override
  public List<Path> listDirectories(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<Path> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.filter(Files::isDirectory).sorted().forEach(out::add);
    }
    return out;
  }

  @Override
  public List<Path> list(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<Path> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.filter(Files::isRegularFile).sorted().forEach(out::add);
    }
    return out;
  }

  @Override
  public boolean exists(Path file) {
    return Files.exists(file);
  }

  @Override
  public long size(Path file) throws IOException {
    return Files.size(file);
  }

  @Override
  public void createDirectories(Path dir) throws IOException {
    Files.createDirectories(dir);
  }

  @Override
  public FileLockHandle lock(Path file) throws IOException {
    // Serialised so that checking, creating and locking the file is one step per JVM.
    synchronized (HELD_LOCKS) {
      // The file's identity, not its name: the same file reached through a symlink or another
      // spelling must be refused before a channel is opened, because closing any channel on a
      // locked file releases this process's OS lock on it (POSIX), letting another process in.
      Object existing = identity(file);
      if (existing != null && HELD_LOCKS.containsKey(existing)) {
        throw new LockHeldException(file + " is locked by another open instance in this JVM");
      }
      FileChannel ch = null;
      Object key = null;
      try {
        try {
          ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (FileAlreadyExistsException e) {
          throw new LockHeldException(file + " cannot be opened: " + e.getMessage());
        }
        key = identity(file);
        if (key == null || HELD_LOCKS.putIfAbsent(key, ch) != null) {
          // Not reachable in practice: the file exists now and was not held a moment ago.
          key = null;
          throw new LockHeldException(file + " is locked by another open instance in this JVM");
        }
        FileLock lock;
        try {
          lock = ch.tryLock();
        } catch (OverlappingFileLockException e) {
          lock = null;
        }
        if (lock == null) {
          throw new LockHeldException(file + " is locked by another process");
        }
        FileChannel channel = ch;
        FileLock held = lock;
        Object heldKey = key;
        return new FileLockHandle() {
          private boolean closed;

          @Override
          public synchronized void close() throws IOException {
            if (closed) {
              return;
            }
            closed = true;
            try {
              held.release();
            } finally {
              channel.close();
              synchronized (HELD_LOCKS) {
                HELD_LOCKS.remove(heldKey);
              }
            }
          }
        };
      } catch (IOException | RuntimeException e) {
        if (ch != null) {
          ch.close();
        }
        if (key != null) {
          HELD_LOCKS.remove(key);
        }
        throw e;
      }
    }
  }

  /** The file's identity (device and inode where available), or null if it does not exist. */
  private static Object identity(Path file) throws IOException {
    if (!Files.exists(file)) {
      return null;
    }
    Object key = Files.readAttributes(file, BasicFileAttributes.class).fileKey();
    return key != null ? key : file.toRealPath();
  }

  private static final class NioWritableFile implements WritableFile {
    private final FileChannel ch;

    NioWritableFile(FileChannel ch) {
      this.ch = ch;
    }

    @Override
    public void write(ByteBuffer src) throws IOException {
      while (src.hasRemaining()) {
        ch.write(src);
      }
    }

    @Override
    public void write(ByteBuffer src, long position) throws IOException {
      long p = position;
      while (src.hasRemaining()) {
        p += ch.write(src, p);
      }
    }

    @Override
    public long size() throws IOException {
      return ch.size();
    }

    @Override
    public void sync() throws IOException {
      ch.force(false);
    }

    @Override
    public void truncate(long size) throws IOException {
      ch.truncate(size);
      if (ch.position() > size) {
        ch.position(size);
      }
    }

    @Override
    public void close() throws IOException {
      ch.close();
    }
  }

  private static final class NioReadableFile implements ReadableFile {
    private final FileChannel ch;

    NioReadableFile(FileChannel ch) {
      this.ch = ch;
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      int total = 0;
      while (dst.hasRemaining()) {
        int n = ch.read(dst, position + total);
        if (n < 0) {
          break;
        }
        total += n;
      }
      return total;
    }

    @Override
    public long size() throws IOException {
      return ch.size();
    }

    @Override
    public void close() throws IOException {
      ch.close();
    }
  }
}
