package dev.talus.testfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.io.NioStorageFs;
import dev.talus.io.WritableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FaultInjectingFsTest {
  @TempDir Path dir;

  private final FaultInjectingFs fs = new FaultInjectingFs(new NioStorageFs(), new Random(42));

  private static ByteBuffer bytes(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
  }

  private String content(Path p) throws IOException {
    return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
  }

  @Test
  void unsyncedTailIsDroppedAndSyncedPrefixKept() throws IOException {
    Path f = dir.resolve("a");
    WritableFile w = fs.create(f);
    w.write(bytes("hello "));
    w.sync();
    fs.syncDirectory(dir);
    w.write(bytes("world"));
    assertThat(content(f)).isEqualTo("hello world");

    fs.simulatePowerLoss();

    assertThat(content(f)).isEqualTo("hello ");
    assertThatThrownBy(() -> w.write(bytes("x"))).isInstanceOf(IOException.class);
    // After the "reboot" the wrapper keeps working.
    try (WritableFile w2 = fs.openForAppend(f)) {
      w2.write(bytes("again"));
      w2.sync();
    }
    fs.simulatePowerLoss();
    assertThat(content(f)).isEqualTo("hello again");
  }

  @Test
  void fileWithoutDirectorySyncDisappears() throws IOException {
    Path f = dir.resolve("new");
    try (WritableFile w = fs.create(f)) {
      w.write(bytes("data"));
      w.sync();
    }
    fs.simulatePowerLoss();
    assertThat(Files.exists(f)).isFalse();
  }

  @Test
  void aLinkWithoutDirectorySyncDisappearsAndASyncedOneStays() throws IOException {
    Path a = dir.resolve("a");
    try (WritableFile w = fs.create(a)) {
      w.write(bytes("data"));
      w.sync();
    }
    fs.syncDirectory(dir);
    fs.createLink(dir.resolve("lost"), a);
    fs.simulatePowerLoss();
    assertThat(Files.exists(dir.resolve("lost"))).isFalse();
    assertThat(content(a)).isEqualTo("data");
    fs.createLink(dir.resolve("kept"), a);
    fs.syncDirectory(dir);
    fs.delete(a);
    fs.syncDirectory(dir);
    fs.simulatePowerLoss();
    assertThat(content(dir.resolve("kept"))).isEqualTo("data");
    assertThat(Files.exists(a)).isFalse();
  }

  @Test
  void deleteAndRenameWithoutDirectorySyncAreUndone() throws IOException {
    Path a = dir.resolve("a");
    Path b = dir.resolve("b");
    Path c = dir.resolve("c");
    for (Path p : new Path[] {a, b}) {
      try (WritableFile w = fs.create(p)) {
        w.write(bytes(p.getFileName().toString()));
        w.sync();
      }
    }
    fs.syncDirectory(dir);
    fs.delete(a);
    fs.rename(b, c);
    assertThat(Files.exists(a)).isFalse();

    fs.simulatePowerLoss();

    assertThat(content(a)).isEqualTo("a");
    assertThat(content(b)).isEqualTo("b");
    assertThat(Files.exists(c)).isFalse();
  }

  @Test
  void renameFollowedByDirectorySyncIsDurable() throws IOException {
    Path tmp = dir.resolve("x.tmp");
    Path fin = dir.resolve("x");
    try (WritableFile w = fs.create(tmp)) {
      w.write(bytes("x"));
      w.sync();
    }
    fs.rename(tmp, fin);
    fs.syncDirectory(dir);
    fs.simulatePowerLoss();
    assertThat(content(fin)).isEqualTo("x");
    assertThat(Files.exists(tmp)).isFalse();
  }

  @Test
  void positionalHoleBelowSyncedWriteIsZeroFilled() throws IOException {
    Path f = dir.resolve("p");
    WritableFile w = fs.create(f);
    fs.syncDirectory(dir);
    w.write(bytes("BBBB"), 4); // a later reservation finished first and was synced
    w.sync();
    w.write(bytes("AAAA"), 0); // the earlier one lands after the sync
    fs.simulatePowerLoss();
    assertThat(Files.readAllBytes(f)).containsExactly(0, 0, 0, 0, 'B', 'B', 'B', 'B');
  }

  @Test
  void failedSyncLosesItsDataEvenIfALaterSyncSucceeds() throws IOException {
    Path f = dir.resolve("g");
    WritableFile w = fs.create(f);
    fs.syncDirectory(dir);
    w.write(bytes("1111"));
    fs.failSync(1, FaultInjectingFs.Fault.EIO);
    assertThatThrownBy(w::sync).isInstanceOf(IOException.class).hasMessageStartingWith("EIO");
    w.write(bytes("2222"));
    w.sync(); // "succeeds": fsyncgate
    fs.simulatePowerLoss();
    assertThat(content(f)).isEqualTo("\0\0\0\0" + "2222");
  }

  @Test
  void nthWriteFailsOnceAndCountersCount() throws IOException {
    WritableFile w = fs.create(dir.resolve("n"));
    fs.failWrite(3, FaultInjectingFs.Fault.DISK_FULL);
    w.write(bytes("1"));
    w.write(bytes("2"));
    assertThatThrownBy(() -> w.write(bytes("3"))).hasMessage("No space left on device");
    w.write(bytes("4"));
    assertThat(fs.writeCount()).isEqualTo(4);
    assertThat(fs.injectedFaultCount()).isEqualTo(1);
    w.sync();
    assertThat(fs.syncCount()).isEqualTo(1);
    assertThat(content(dir.resolve("n"))).isEqualTo("124");
  }

  @Test
  void aFullDiskFailsEveryMatchingWriteUntilFreed() throws IOException {
    WritableFile data = fs.create(dir.resolve("x-Data.db"));
    WritableFile log = fs.create(dir.resolve("CommitLog-1.log"));
    fs.fillDisk("*.db*");
    for (int i = 0; i < 3; i++) {
      assertThatThrownBy(() -> data.write(bytes("d"))).hasMessage("No space left on device");
    }
    log.write(bytes("l")); // another volume in this model: not full
    fs.freeDisk();
    data.write(bytes("D"));
    assertThat(fs.injectedFaultCount()).isEqualTo(3);
    assertThat(content(dir.resolve("x-Data.db"))).isEqualTo("D");
    fs.fillDisk("*.db*");
    fs.clearFaults(); // clears the full disk too
    data.write(bytes("E"));
    assertThat(content(dir.resolve("x-Data.db"))).isEqualTo("DE");
  }

  @Test
  void aDiskFullAtFsyncFailsEveryMatchingSyncAndTheDataItShouldHaveSyncedStaysLost()
      throws IOException {
    Path f = dir.resolve("x-Data.db");
    WritableFile data = fs.create(f);
    WritableFile log = fs.create(dir.resolve("CommitLog-1.log"));
    fs.syncDirectory(dir);
    fs.fillDiskAtSync("*.db*");
    data.write(bytes("lost")); // the write itself succeeds
    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(data::sync).hasMessage("No space left on device");
    }
    log.write(bytes("l"));
    log.sync(); // not a matching file
    assertThat(fs.injectedFaultCount()).isEqualTo(2);
    fs.freeDisk();
    data.write(bytes("kept"));
    data.sync(); // succeeds, but cannot make the bytes of the failed syncs durable (fsyncgate)
    fs.simulatePowerLoss();
    assertThat(content(f)).isEqualTo("\0\0\0\0kept");
    assertThat(content(dir.resolve("CommitLog-1.log"))).isEqualTo("l");
  }

  @Test
  void failNextWithACountFailsThatManyMatchingOperationsThenStops() throws IOException {
    WritableFile data = fs.create(dir.resolve("x-Data.db"));
    WritableFile other = fs.create(dir.resolve("x-Index.db"));
    fs.failNext(FaultInjectingFs.Op.WRITE, "*-Data.db", FaultInjectingFs.Fault.EIO, 3);
    for (int i = 0; i < 3; i++) {
      other.write(bytes("i")); // not matching: neither failed nor counted against the 3
      assertThatThrownBy(() -> data.write(bytes("d"))).hasMessageStartingWith("EIO");
    }
    data.write(bytes("D"));
    assertThat(fs.injectedFaultCount()).isEqualTo(3);
    assertThat(content(dir.resolve("x-Data.db"))).isEqualTo("D");
    assertThatThrownBy(
            () -> fs.failNext(FaultInjectingFs.Op.WRITE, "*", FaultInjectingFs.Fault.EIO, 0))
        .isInstanceOf(IllegalArgumentException.class);
    fs.failNext(FaultInjectingFs.Op.WRITE, "*-Data.db", FaultInjectingFs.Fault.EIO, 100);
    fs.clearFaults();
    data.write(bytes("E"));
    assertThat(content(dir.resolve("x-Data.db"))).isEqualTo("DE");
  }

  @Test
  void aStalledSyncBlocksUntilReleasedAndOtherFilesGoOn() throws Exception {
    WritableFile stalled = fs.create(dir.resolve("CommitLog-1.log"));
    WritableFile other = fs.create(dir.resolve("x-Data.db"));
    stalled.write(bytes("a"));
    fs.stall(FaultInjectingFs.Op.SYNC, "CommitLog-*");
    java.util.concurrent.CompletableFuture<Void> sync =
        java.util.concurrent.CompletableFuture.runAsync(
            () -> {
              try {
                stalled.sync();
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
    fs.awaitStalled(1);
    other.write(bytes("b")); // the stall holds no lock: other files and writes go on
    other.sync();
    stalled.write(bytes("c")); // only syncs of the log stall
    assertThat(sync).isNotDone();
    fs.releaseStalls();
    sync.get();
    stalled.sync(); // released: no stall any more
    fs.syncDirectory(dir);
    fs.simulatePowerLoss();
    assertThat(content(dir.resolve("x-Data.db"))).isEqualTo("b");
    assertThat(content(dir.resolve("CommitLog-1.log"))).isEqualTo("ac");
  }

  @Test
  void tornWriteStoresAPrefixThenFails() throws IOException {
    Path f = dir.resolve("t");
    WritableFile w = fs.create(f);
    fs.failWrite(1, FaultInjectingFs.Fault.TORN_WRITE);
    assertThatThrownBy(() -> w.write(bytes("0123456789"), 0))
        .hasMessageStartingWith("EIO: injected torn write");
    String got = content(f);
    assertThat("0123456789").startsWith(got);
    assertThat(got.length()).isLessThan(10);
  }

  @Test
  void failEverythingUntilCleared() throws IOException {
    fs.failEverything(true);
    assertThatThrownBy(() -> fs.create(dir.resolve("z"))).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> fs.list(dir)).isInstanceOf(IOException.class);
    fs.clearFaults();
    fs.create(dir.resolve("z")).close();
  }

  @Test
  void failAllSyncs() throws IOException {
    WritableFile w = fs.create(dir.resolve("s"));
    fs.failAllSyncs(FaultInjectingFs.Fault.EIO);
    assertThatThrownBy(w::sync).isInstanceOf(IOException.class);
    assertThatThrownBy(w::sync).isInstanceOf(IOException.class);
    fs.clearFaults();
    w.sync();
  }

  @Test
  void randomPowerLossKeepsSyncedDataAndOnlyPrefixesOfUnsyncedWrites() throws IOException {
    long seed = new Random().nextLong();
    System.out.println("seed=" + seed);
    Random rnd = new Random(seed);
    for (int round = 0; round < 50; round++) {
      Path f = dir.resolve("r" + round);
      WritableFile w = fs.create(f);
      fs.syncDirectory(dir);
      byte[] synced = new byte[rnd.nextInt(100)];
      rnd.nextBytes(synced);
      w.write(ByteBuffer.wrap(synced));
      w.sync();
      byte[] unsynced = new byte[1 + rnd.nextInt(100)];
      rnd.nextBytes(unsynced);
      w.write(ByteBuffer.wrap(unsynced));
      fs.simulatePowerLoss(rnd);
      byte[] got = Files.readAllBytes(f);
      assertThat(got.length)
          .as("seed %d", seed)
          .isBetween(synced.length, synced.length + unsynced.length);
      for (int i = 0; i < got.length; i++) {
        byte expected = i < synced.length ? synced[i] : unsynced[i - synced.length];
        assertThat(got[i]).as("seed %d byte %d", seed, i).isEqualTo(expected);
      }
    }
  }

  private Path durableFile(String name, String content) throws IOException {
    Path p = dir.resolve(name);
    try (WritableFile w = fs.create(p)) {
      w.write(bytes(content));
      w.sync();
    }
    fs.syncDirectory(dir);
    return p;
  }

  @Test
  void aFailedRenameChangesNothingAndIsCounted() throws IOException {
    Path a = durableFile("a", "A");
    Path b = durableFile("b", "B");
    long before = fs.count(FaultInjectingFs.Op.RENAME);
    fs.failNth(FaultInjectingFs.Op.RENAME, 1, FaultInjectingFs.Fault.EIO);
    assertThatThrownBy(() -> fs.rename(a, b))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("EIO")
        .hasMessageContaining("rename");
    assertThat(content(a)).isEqualTo("A");
    assertThat(content(b)).isEqualTo("B");
    assertThat(fs.count(FaultInjectingFs.Op.RENAME)).isEqualTo(before + 1);
    assertThat(fs.injectedFaultCount()).isEqualTo(1);
    fs.rename(a, b); // the fault fired once
    fs.syncDirectory(dir);
    fs.simulatePowerLoss();
    assertThat(Files.exists(a)).isFalse();
    assertThat(content(b)).isEqualTo("A");
  }

  @Test
  void aFailedDeleteLeavesTheFileAndIsCounted() throws IOException {
    Path a = durableFile("a", "A");
    fs.failNth(FaultInjectingFs.Op.DELETE, 1, FaultInjectingFs.Fault.DISK_FULL);
    assertThatThrownBy(() -> fs.delete(a)).hasMessage("No space left on device");
    assertThat(content(a)).isEqualTo("A");
    fs.delete(dir.resolve("missing")); // counted too
    assertThat(fs.count(FaultInjectingFs.Op.DELETE)).isEqualTo(2);
    fs.delete(a);
    assertThat(Files.exists(a)).isFalse();
  }

  @Test
  void aFailedDirectorySyncMakesNothingDurable() throws IOException {
    Path old = durableFile("old", "gone?");
    Path tmp = dir.resolve("x.tmp");
    try (WritableFile w = fs.create(tmp)) {
      w.write(bytes("x"));
      w.sync();
    }
    fs.rename(tmp, dir.resolve("x"));
    fs.delete(old);
    long before = fs.count(FaultInjectingFs.Op.DIRECTORY_SYNC);
    fs.failNth(FaultInjectingFs.Op.DIRECTORY_SYNC, 1, FaultInjectingFs.Fault.EIO);
    assertThatThrownBy(() -> fs.syncDirectory(dir)).hasMessageContaining("sync of directory");
    assertThat(fs.count(FaultInjectingFs.Op.DIRECTORY_SYNC)).isEqualTo(before + 1);

    fs.simulatePowerLoss();

    assertThat(Files.exists(dir.resolve("x"))).isFalse(); // the rename was never durable
    assertThat(Files.exists(tmp)).isFalse(); // nor was the temporary file's creation
    assertThat(content(old)).isEqualTo("gone?"); // the delete is undone
  }

  @Test
  void failNextHitsOnlyTheNamedFile() throws IOException {
    WritableFile other = fs.create(dir.resolve("CommitLog-1-1.log"));
    WritableFile manifest = fs.create(dir.resolve("MANIFEST.db"));
    fs.failNext(FaultInjectingFs.Op.SYNC, "MANIFEST.db", FaultInjectingFs.Fault.EIO);
    other.write(bytes("log"));
    other.sync();
    manifest.write(bytes("edit"));
    assertThatThrownBy(manifest::sync).hasMessageStartingWith("EIO");
    manifest.sync(); // once
    fs.failNext(FaultInjectingFs.Op.RENAME, "*.tmp", FaultInjectingFs.Fault.EIO);
    Path t = durableFile("nb-1-Data.db.tmp", "d");
    assertThatThrownBy(() -> fs.rename(t, dir.resolve("nb-1-Data.db")))
        .isInstanceOf(IOException.class);
    assertThat(fs.count(FaultInjectingFs.Op.SYNC)).isEqualTo(4);
    assertThat(fs.injectedFaultCount()).isEqualTo(2);
    other.close();
    manifest.close();
  }

  @Test
  void clearFaultsDisarmsEveryKind() throws IOException {
    Path a = durableFile("a", "A");
    for (FaultInjectingFs.Op op : FaultInjectingFs.Op.values()) {
      fs.failNth(op, 1, FaultInjectingFs.Fault.EIO);
      fs.failNext(op, "*", FaultInjectingFs.Fault.EIO);
    }
    fs.clearFaults();
    try (WritableFile w = fs.create(dir.resolve("b"))) {
      w.write(bytes("B"));
      w.sync();
    }
    fs.rename(a, dir.resolve("c"));
    fs.delete(dir.resolve("c"));
    fs.syncDirectory(dir);
    assertThat(fs.injectedFaultCount()).isZero();
  }
}
