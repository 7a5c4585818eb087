package dev.talus.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The engine's only way to touch files. Every implementation guarantees:
 *
 * <ul>
 *   <li>{@link #create} makes a new, empty file and fails with {@link
 *       java.nio.file.FileAlreadyExistsException} if the name exists (files are written once);
 *   <li>data written to a {@link WritableFile} is durable only after {@link WritableFile#sync}; a
 *       created or renamed name is durable only after {@link #syncDirectory} of its parent;
 *   <li>{@link #rename} is atomic: a reader sees the old name or the new one, never a mix, and it
 *       replaces an existing target;
 *   <li>a missing file raises {@link java.nio.file.NoSuchFileException};
 *   <li>an I/O error is reported as an {@link IOException} and is never retried silently: after a
 *       failed {@link WritableFile#sync} the file's unsynced data must be considered lost.
 * </ul>
 *
 * <p>Implementations are thread-safe; the handles they return are documented separately.
 */
public interface StorageFs {
  /** Creates a new empty file for writing. */
  WritableFile create(Path file) throws IOException;

  /** Opens an existing file for writing at its end (commit log recovery, truncation). */
  WritableFile openForAppend(Path file) throws IOException;

  /** Opens an existing file for positional reads. */
  ReadableFile openForRead(Path file) throws IOException;

  void rename(Path from, Path to) throws IOException;

  /**
   * Gives the existing file {@code existing} a second name {@code link} (a hard link: both names
   * share the same bytes, which stay on disk until the last name is deleted). The new name is
   * durable only after {@link #syncDirectory} of its directory. Fails if {@code link} exists, or if
   * the file system cannot link (another file system, or no hard links).
   */
  void createLink(Path link, Path existing) throws IOException;

  /** Deletes a file or an empty directory; deleting a missing one is not an error. */
  void delete(Path file) throws IOException;

  /** Makes creations, renames and deletions in {@code dir} durable. */
  void syncDirectory(Path dir) throws IOException;

  /** The regular files directly in {@code dir}, sorted by name; empty if it does not exist. */
  List<Path> list(Path dir) throws IOException;

  /** The directories directly in {@code dir}, sorted by name; empty if it does not exist. */
  List<Path> listDirectories(Path dir) throws IOException;

  boolean exists(Path file);

  long size(Path file) throws IOException;

  void createDirectories(Path dir) throws IOException;

  /**
   * Takes an exclusive lock on {@code file} (created if missing) for the life of the returned
   * handle, or throws {@link LockHeldException} at once if another process or another open instance
   * in this JVM holds it.
   */
  FileLockHandle lock(Path file) throws IOException;
}
