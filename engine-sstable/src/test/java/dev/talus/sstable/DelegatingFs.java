package dev.talus.sstable;

import dev.talus.io.FileLockHandle;
import dev.talus.io.ReadableFile;
import dev.talus.io.StorageFs;
import dev.talus.io.WritableFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** A file layer that passes every call on; tests override the calls they make fail. */
class DelegatingFs implements StorageFs {
  private final StorageFs fs;

  DelegatingFs(StorageFs fs) {
    this.fs = fs;
  }

  @Override
  public WritableFile create(Path file) throws IOException {
    return fs.create(file);
  }

  @Override
  public WritableFile openForAppend(Path file) throws IOException {
    return fs.openForAppend(file);
  }

  @Override
  public ReadableFile openForRead(Path file) throws IOException {
    return fs.openForRead(file);
  }

  @Override
  public void rename(Path from, Path to) throws IOException {
    fs.rename(from, to);
  }

  @Override
  public void createLink(Path link, Path existing) throws IOException {
    fs.createLink(link, existing);
  }

  @Override
  public void delete(Path file) throws IOException {
    fs.delete(file);
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
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
