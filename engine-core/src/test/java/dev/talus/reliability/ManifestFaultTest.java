package dev.talus.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.io.NioStorageFs;
import dev.talus.sstable.Manifest;
import dev.talus.testfs.FaultInjectingFs;
import dev.talus.testfs.FaultInjectingFs.Fault;
import dev.talus.testfs.FaultInjectingFs.Op;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The manifest under injected faults: a failed fsync of an edit is final (every later edit throws
 * until the manifest is opened again, and the edit is on disk or not, never half); a failed write
 * of an edit is undone and the manifest goes on; a failure of any operation of a rewrite (temporary
 * file write and fsync, rename, directory fsync, delete) is final and leaves, after a power loss, a
 * manifest with exactly the edits that were acknowledged.
 */
class ManifestFaultTest {
  @TempDir Path dir;

  private final FaultInjectingFs fs = new FaultInjectingFs(new NioStorageFs());

  private Manifest openWithEdits(Set<Long> live, int edits) throws IOException {
    Manifest m = Manifest.open(fs, dir);
    for (int i = 0; i < edits; i++) {
      long g = m.newGeneration();
      m.apply(List.of(g), List.of());
      live.add(g);
    }
    return m;
  }

  private Set<Long> reopenAfterPowerLoss(Manifest m) throws IOException {
    m.close();
    fs.simulatePowerLoss();
    try (Manifest again = Manifest.open(fs, dir)) {
      return again.liveGenerations();
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = Fault.class,
      names = {"EIO", "DISK_FULL"})
  void aFailedEditFsyncIsFinal(Fault fault) throws IOException {
    Set<Long> live = new TreeSet<>();
    Manifest m = openWithEdits(live, 3);
    long g = m.newGeneration();
    fs.failNext(Op.SYNC, Manifest.FILE_NAME, fault);
    assertThatThrownBy(() -> m.apply(List.of(g), List.of())).isInstanceOf(IOException.class);
    assertThat(m.isFailed()).isTrue();
    assertThat(m.liveGenerations()).as("not taken in memory").isEqualTo(live);
    long syncsAfterFailure = fs.syncCount();
    assertThatThrownBy(() -> m.apply(List.of(g + 1), List.of()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("accepts no edit after an earlier failure")
        .hasMessageContaining("open it again");
    assertThatThrownBy(m::rewrite).hasMessageContaining("accepts no edit");
    assertThat(fs.syncCount()).as("no fsync is tried again").isEqualTo(syncsAfterFailure);

    Set<Long> after = reopenAfterPowerLoss(m);
    assertThat(after).isEqualTo(live); // fsyncgate: the failed fsync's data is lost
  }

  @Test
  void aFailedEditWriteIsUndoneAndTheManifestGoesOn() throws IOException {
    Set<Long> live = new TreeSet<>();
    Manifest m = openWithEdits(live, 2);
    long g = m.newGeneration();
    fs.failNth(Op.WRITE, 1, Fault.TORN_WRITE);
    assertThatThrownBy(() -> m.apply(List.of(g), List.of())).isInstanceOf(IOException.class);
    assertThat(m.isFailed()).isFalse();
    long g2 = m.newGeneration();
    m.apply(List.of(g2), List.of(live.iterator().next()));
    live.remove(live.iterator().next());
    live.add(g2);
    assertThat(reopenAfterPowerLoss(m)).isEqualTo(live);
  }

  /** Every operation of a rewrite, failed in turn: final, and the reopened set is unchanged. */
  @ParameterizedTest
  @EnumSource(Op.class)
  void everyFailedOperationOfARewriteIsFinalAndLosesNothing(Op op) throws IOException {
    Path base = dir;
    int cases = 0;
    for (int n = 1; ; n++) {
      dir = base.resolve(op + "-" + n);
      Set<Long> live = new TreeSet<>();
      Manifest m = openWithEdits(live, 4);
      m.apply(List.of(), List.of(live.iterator().next())); // a removal the rewrite must keep
      live.remove(live.iterator().next());
      long before = fs.count(op);
      fs.failNth(op, n, Fault.EIO);
      boolean failed;
      try {
        m.rewrite();
        failed = false;
      } catch (IOException e) {
        failed = true;
      }
      fs.clearFaults();
      if (!failed) {
        assertThat(fs.count(op) - before)
            .as("the rewrite made fewer %s than %d", op, n)
            .isLessThan(n);
        m.close();
        break;
      }
      cases++;
      assertThat(m.isFailed()).isTrue();
      assertThatThrownBy(() -> m.apply(List.of(99L), List.of()))
          .hasMessageContaining("accepts no edit");
      assertThat(reopenAfterPowerLoss(m)).as("%s #%d", op, n).isEqualTo(live);
    }
    assertThat(cases).as("a rewrite makes at least one %s", op).isPositive();
  }
}
