package dev.talus.compaction;

import dev.talus.io.FileLockHandle;
import dev.talus.io.NioStorageFs;
import dev.talus.io.ReadableFile;
import dev.talus.io.StorageFs;
import dev.talus.io.WritableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * The real file layer, except that the n-th mutating operation (create, write, sync, truncate,
 * rename, directory sync) fails with an IOException. Deletes and reads always work, so cleanup can
 * be checked.
 */
final class FailingFs implements StorageFs {
  private final StorageFs fs = new NioStorageFs();
  private int countdown = -1;

  /** Fail the n-th mutating operation from now (n ≥ 1); −1 never fails. */
  synchronized void failAfter(int n) {
    countdown = n;
  }

  private synchronized void op(String what) throws IOException {
    if (countdown > 0 && --countdown == 0) {
      throw new IOException("injected failure: " + what);
    }
  }

  @Override
  public WritableFile create(Path file) throws IOException {
    op("create " + file.getFileName());
    return wrap(fs.create(file));
  }

  @Override
  public WritableFile openForAppend(Path file) throws IOException {
    op("openForAppend " + file.getFileName());
    return wrap(fs.openForAppend(file));
  }

  private WritableFile wrap(WritableFile f) {
    return new WritableFile() {
      @Override
      public void write(ByteBuffer src) throws IOException {
        op("write");
        f.write(src);
      }

      @Override
      public void write(ByteBuffer src, long position) throws IOException {
        op("write");
        f.write(src, position);
      }

      @Override
      public long size() throws IOException {
        return f.size();
      }

      @Override
      public void sync() throws IOException {
        op("sync");
        f.sync();
      }

      @Override
      public void truncate(long size) throws IOException {
        op("truncate");
        f.truncate(size);
      }

      @Override
      public void close() throws IOException {
        f.close();
      }
    };
  }

  @Override
  public ReadableFile openForRead(Path file) throws IOException {
    return fs.openForRead(file);
  }

  @Override
  public void rename(Path from, Path to) throws IOException {
    op("rename " + from.getFileName());
    fs.rename(from, to);
  }

  @Override
  public void createLink(Path link, Path existing) throws IOException {
    op("link " + link.getFileName());
    fs.createLink(link, existing);
  }

  @Override
  public void delete(Path file) throws IOException {
    fs.delete(file);
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    op("syncDirectory");
    fs.syncDirectory(dir);
  }

  @Override
  public List<Path> list(Path dir) throws IOException {
    return fs.list(dir);
  }

  @Override
  public List<Path> listDirectories(Path dir) throws IOException {
    return fs.listDirectories(dir);
  }

  @Override
  public boolean exists(Path file) {
    return fs.exists(file);
  }

  @Override
  public long size(Path file) throws IOException {
    return fs.size(file);
  }

  @Override
  public void createDirectories(Path dir) throws IOException {
    fs.createDirectories(dir);
  }

  @Override
  public FileLockHandle lock(Path file) throws IOException {
    return fs.lock(file);
  }
}
