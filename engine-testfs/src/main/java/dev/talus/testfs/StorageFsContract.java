package dev.talus.testfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.io.FileLockHandle;
import dev.talus.io.LockHeldException;
import dev.talus.io.ReadableFile;
import dev.talus.io.StorageFs;
import dev.talus.io.WritableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract of {@link StorageFs}, as its Javadoc states it, checked against one implementation
 * (after Lucene's {@code BaseDirectoryTestCase}). Every implementation — the real one, the
 * fault-injecting one with no fault armed, and any test double — extends this class and supplies
 * {@link #newFs()}; the tests run in a fresh temporary directory each.
 */
// "exports": the file layer's types are exported only to the engine and its test support, the
// only users of this class
@SuppressWarnings("exports")
public abstract class StorageFsContract {
  protected StorageFsContract() {}

  /** A fresh instance for one test, with no fault armed. */
  protected abstract StorageFs newFs() throws IOException;

  @TempDir protected Path dir;

  protected StorageFs fs;

  @BeforeEach
  void createFs() throws IOException {
    fs = newFs();
  }

  private static ByteBuffer bytes(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
  }

  private String read(Path file) throws IOException {
    try (ReadableFile r = fs.openForRead(file)) {
      ByteBuffer b = ByteBuffer.allocate((int) r.size());
      assertThat(r.read(b, 0)).isEqualTo(b.capacity());
      return new String(b.array(), StandardCharsets.UTF_8);
    }
  }

  private Path file(String name, String content) throws IOException {
    Path p = dir.resolve(name);
    try (WritableFile w = fs.create(p)) {
      w.write(bytes(content));
      w.sync();
    }
    return p;
  }

  @Test
  void createMakesANewEmptyFileAndRefusesAnExistingName() throws IOException {
    Path p = dir.resolve("a");
    try (WritableFile w = fs.create(p)) {
      assertThat(w.size()).isZero();
    }
    assertThat(fs.exists(p)).isTrue();
    assertThat(fs.size(p)).isZero();
    assertThatThrownBy(() -> fs.create(p)).isInstanceOf(FileAlreadyExistsException.class);
  }

  @Test
  void writesAppendInOrderAndPositionalWritesLandWhereTheySay() throws IOException {
    Path p = dir.resolve("a");
    try (WritableFile w = fs.create(p)) {
      w.write(bytes("hello "));
      w.write(bytes("world"));
      assertThat(w.size()).isEqualTo(11);
      w.write(bytes("W"), 6);
      w.write(bytes("!"), 11);
      assertThat(w.size()).isEqualTo(12);
      w.sync();
    }
    assertThat(read(p)).isEqualTo("hello World!");
    assertThat(fs.size(p)).isEqualTo(12);
  }

  @Test
  void readsStopAtTheEndOfTheFile() throws IOException {
    Path p = file("a", "0123456789");
    try (ReadableFile r = fs.openForRead(p)) {
      assertThat(r.size()).isEqualTo(10);
      ByteBuffer b = ByteBuffer.allocate(4);
      assertThat(r.read(b, 8)).isEqualTo(2);
      assertThat(new String(b.array(), 0, 2, StandardCharsets.UTF_8)).isEqualTo("89");
      assertThat(r.read(ByteBuffer.allocate(4), 10)).isZero();
      assertThat(r.read(ByteBuffer.allocate(4), 100)).isZero();
    }
  }

  @Test
  void openForAppendWritesAtTheEndAndTruncateCutsTheFile() throws IOException {
    Path p = file("a", "abcdef");
    try (WritableFile w = fs.openForAppend(p)) {
      assertThat(w.size()).isEqualTo(6);
      w.write(bytes("gh"));
      w.truncate(4);
      assertThat(w.size()).isEqualTo(4);
      w.write(bytes("XY"));
      w.sync();
    }
    assertThat(read(p)).isEqualTo("abcdXY");
  }

  @Test
  void renameMovesTheNameAndReplacesAnExistingTarget() throws IOException {
    Path a = file("a", "new");
    Path b = file("b", "old");
    fs.rename(a, b);
    fs.syncDirectory(dir);
    assertThat(fs.exists(a)).isFalse();
    assertThat(read(b)).isEqualTo("new");
    Path c = dir.resolve("c");
    fs.rename(b, c);
    assertThat(fs.list(dir)).containsExactly(c);
  }

  @Test
  void aLinkIsASecondNameOfTheSameBytesThatOutlivesTheFirst() throws IOException {
    Path a = file("a", "shared");
    Path b = dir.resolve("b");
    fs.createLink(b, a);
    fs.syncDirectory(dir);
    assertThat(read(b)).isEqualTo("shared");
    assertThatThrownBy(() -> fs.createLink(b, a)).isInstanceOf(FileAlreadyExistsException.class);
    fs.delete(a);
    fs.syncDirectory(dir);
    assertThat(read(b)).isEqualTo("shared");
    assertThat(fs.list(dir)).containsExactly(b);
  }

  @Test
  void aFailedRenameOfAMissingFileLeavesTheTargetUntouched() throws IOException {
    Path b = file("b", "kept");
    assertThatThrownBy(() -> fs.rename(dir.resolve("missing"), b))
        .isInstanceOf(NoSuchFileException.class);
    assertThat(read(b)).isEqualTo("kept");
    assertThat(fs.list(dir)).containsExactly(b);
  }

  @Test
  void aDeletedNameCanBeCreatedAgainAndSyncingTheDirectoryKeepsIt() throws IOException {
    Path a = file("a", "first");
    fs.delete(a);
    fs.syncDirectory(dir);
    Path again = file("a", "second");
    fs.syncDirectory(dir);
    fs.syncDirectory(dir); // repeating a directory sync is harmless
    assertThat(read(again)).isEqualTo("second");
    assertThat(fs.list(dir)).containsExactly(a);
  }

  @Test
  void renameWithinADirectoryKeepsTheBytesAnOpenReaderSees() throws IOException {
    Path tmp = file("x.tmp", "payload");
    try (ReadableFile r = fs.openForRead(tmp)) {
      fs.rename(tmp, dir.resolve("x"));
      fs.syncDirectory(dir);
      ByteBuffer b = ByteBuffer.allocate(7);
      assertThat(r.read(b, 0)).isEqualTo(7);
      assertThat(new String(b.array(), StandardCharsets.UTF_8)).isEqualTo("payload");
    }
    assertThat(read(dir.resolve("x"))).isEqualTo("payload");
    assertThat(fs.exists(tmp)).isFalse();
  }

  @Test
  void aMissingFileRaisesNoSuchFileException() {
    Path missing = dir.resolve("missing");
    assertThat(fs.exists(missing)).isFalse();
    assertThatThrownBy(() -> fs.openForRead(missing)).isInstanceOf(NoSuchFileException.class);
    assertThatThrownBy(() -> fs.openForAppend(missing)).isInstanceOf(NoSuchFileException.class);
    assertThatThrownBy(() -> fs.size(missing)).isInstanceOf(NoSuchFileException.class);
    assertThatThrownBy(() -> fs.rename(missing, dir.resolve("x")))
        .isInstanceOf(NoSuchFileException.class);
  }

  @Test
  void deleteRemovesAFileAndAMissingOneIsNotAnError() throws IOException {
    Path p = file("a", "x");
    fs.delete(p);
    assertThat(fs.exists(p)).isFalse();
    fs.delete(p);
    fs.delete(dir.resolve("never-was"));
    assertThat(fs.list(dir)).isEmpty();
  }

  @Test
  void listGivesTheRegularFilesSortedByNameAndNothingForAMissingDirectory() throws IOException {
    Path c = file("c", "3");
    Path a = file("a", "1");
    Path b = file("b", "2");
    fs.createDirectories(dir.resolve("sub").resolve("deeper"));
    assertThat(fs.list(dir)).containsExactly(a, b, c);
    assertThat(fs.list(dir.resolve("sub"))).isEmpty();
    assertThat(fs.list(dir.resolve("no-such-directory"))).isEmpty();
  }

  @Test
  void listDirectoriesGivesTheDirectoriesSortedByNameAndDeleteRemovesAnEmptyOne()
      throws IOException {
    file("f", "1");
    fs.createDirectories(dir.resolve("b").resolve("deeper"));
    fs.createDirectories(dir.resolve("a"));
    assertThat(fs.listDirectories(dir)).containsExactly(dir.resolve("a"), dir.resolve("b"));
    assertThat(fs.listDirectories(dir.resolve("no-such-directory"))).isEmpty();
    fs.delete(dir.resolve("a"));
    assertThat(fs.listDirectories(dir)).containsExactly(dir.resolve("b"));
  }

  @Test
  void createDirectoriesMakesEveryParentAndMayBeRepeated() throws IOException {
    Path deep = dir.resolve("x").resolve("y").resolve("z");
    fs.createDirectories(deep);
    fs.createDirectories(deep);
    assertThat(fs.exists(deep)).isTrue();
    Path f = deep.resolve("f");
    try (WritableFile w = fs.create(f)) {
      w.write(bytes("in a new directory"));
      w.sync();
    }
    fs.syncDirectory(deep);
    assertThat(read(f)).isEqualTo("in a new directory");
  }

  @Test
  void aLockIsExclusiveUntilItsHandleIsClosedAndCloseIsIdempotent() throws IOException {
    Path lockFile = dir.resolve("LOCK");
    FileLockHandle held = fs.lock(lockFile);
    assertThat(fs.exists(lockFile)).isTrue();
    assertThatThrownBy(() -> fs.lock(lockFile)).isInstanceOf(LockHeldException.class);
    held.close();
    held.close();
    try (FileLockHandle again = fs.lock(lockFile)) {
      assertThat(again).isNotNull();
    }
  }

  @Test
  void concurrentPositionalReadsEachSeeTheirOwnBytes() throws Exception {
    StringBuilder content = new StringBuilder();
    for (int i = 0; i < 1000; i++) {
      content.append((char) ('a' + i % 26));
    }
    Path p = file("a", content.toString());
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (ReadableFile r = fs.openForRead(p)) {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int offset = t * 250;
        results.add(
            pool.submit(
                () -> {
                  for (int round = 0; round < 200; round++) {
                    ByteBuffer b = ByteBuffer.allocate(250);
                    if (r.read(b, offset) != 250) {
                      return false;
                    }
                    String got = new String(b.array(), StandardCharsets.UTF_8);
                    if (!got.equals(content.substring(offset, offset + 250))) {
                      return false;
                    }
                  }
                  return true;
                }));
      }
      for (Future<Boolean> f : results) {
        assertThat(f.get()).isTrue();
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
