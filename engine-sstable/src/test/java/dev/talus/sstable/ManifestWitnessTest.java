package dev.talus.sstable;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.talus.io.CorruptFileException;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import dev.talus.io.WritableFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The manifest's second witness, the SSTables' TOCs (format 3): an acknowledged edit is recorded in
 * the TOCs of the SSTables it added (or, for an edit that only removes, of those it removed); the
 * lines are part of the TOC's checksum and exact format; a manifest that ends before an edit a TOC
 * records fails the open even when its seal was damaged or deleted too, and so does a deleted
 * manifest beside complete SSTables; an SSTable written but never made live, and an edit synced and
 * sealed whose TOC was not yet rewritten, still open; a TOC that cannot be rewritten leaves the old
 * one and does not fail the edit.
 */
class ManifestWitnessTest {
  @TempDir Path dir;

  private final StorageFs fs = new NioStorageFs();

  private Path toc(long gen) {
    return new SSTableDescriptor(dir, gen).path(Component.TOC);
  }

  private String tocText(long gen) throws IOException {
    return new String(Files2.read(fs, toc(gen)), US_ASCII);
  }

  /** The two witness lines of a format 3 TOC. */
  private static String lines(long added, long removed) {
    return String.format(
        "\nmanifest-edit-added=%019d\nmanifest-edit-removed=%019d\ncrc32c=", added, removed);
  }

  /** An SSTable with a few partitions, committed (its TOC without a witness line). */
  private void sstable(long gen) throws IOException {
    TestData.write(
        fs, dir, gen, TestData.partitions(new Random(gen), 3, 3), SSTableOptions.DEFAULTS);
  }

  @Test
  void theTocRecordsTheEditThatAddedItAndAnEditThatOnlyRemovedIt() throws Exception {
    try (Manifest m = Manifest.open(fs, dir)) {
      long a = m.newGeneration();
      sstable(a);
      int size = tocText(a).length();
      assertThat(tocText(a)).contains(lines(0, 0));
      m.apply(List.of(a), List.of()); // edit 1
      assertThat(tocText(a)).contains(lines(1, 0)).hasSize(size);
      long b = m.newGeneration();
      long c = m.newGeneration();
      sstable(b);
      sstable(c);
      m.apply(List.of(b, c), List.of(a)); // edit 2, a compaction: its outputs name it
      assertThat(tocText(b)).contains(lines(2, 0));
      assertThat(tocText(c)).contains(lines(2, 0));
      assertThat(tocText(a)).contains(lines(1, 0));
      m.apply(List.of(), List.of(b)); // edit 3 only removes: the removed SSTable names it
      assertThat(tocText(b)).contains(lines(2, 3)).hasSize(size);
    }
    assertThat(fs.list(dir)).noneMatch(p -> p.toString().endsWith(".tmp"));
    // a TOC with witness lines opens like any other
    SSTableReader r = SSTableReader.open(fs, dir, 3, ChunkCache.disabled());
    try {
      r.verify();
    } finally {
      r.release();
    }
  }

  @Test
  void witnessLinesArePartOfTheTocsExactFormat() {
    Path p = toc(7);
    byte[] both = Toc.render(3, 7, 5, 9);
    assertThat(Toc.parse(both, p, 7)).isEqualTo(new Toc.Content(3, 5, 9));
    assertThat(Toc.parse(Toc.render(3, 7, 0, 4), p, 7)).isEqualTo(new Toc.Content(3, 0, 4));
    assertThat(Toc.parse(Toc.render(2, 7), p, 7)).isEqualTo(new Toc.Content(2, 0, 0));
    assertThat(Toc.render(3, 7)).hasSize(Toc.render(3, 7, Long.MAX_VALUE, 1).length);
    assertThatThrownBy(() -> Toc.render(2, 7, 5, 0)).isInstanceOf(IllegalArgumentException.class);
    String text = new String(both, US_ASCII);
    assertThat(text).contains(lines(5, 9));
    String five = String.format("added=%019d", 5);
    for (String bad :
        List.of(
            text.replace(five, "added=5"), // not 19 digits
            text.replace(five, "added=" + "0".repeat(18) + "x"),
            text.replace(five, String.format("added=%019d", 6)), // the checksum no longer holds
            text.replace("manifest-edit-added=" + five.substring(6) + "\n", ""),
            swapLines(text),
            text.replace("talus-sstable-toc 3", "talus-sstable-toc 2"))) {
      assertThatThrownBy(() -> Toc.parse(bad.getBytes(US_ASCII), p, 7))
          .as(bad)
          .isInstanceOf(CorruptFileException.class)
          .hasMessageContaining(p.toString());
    }
  }

  private static String swapLines(String toc) {
    String added = String.format("manifest-edit-added=%019d\n", 5);
    String removed = String.format("manifest-edit-removed=%019d\n", 9);
    return toc.replace(added + removed, removed + added);
  }

  /** A manifest of three acknowledged edits over three SSTables; returns its bytes after each. */
  private byte[][] threeEdits() throws Exception {
    byte[][] after = new byte[3][];
    try (Manifest m = Manifest.open(fs, dir)) {
      for (int i = 0; i < 3; i++) {
        long g = m.newGeneration();
        sstable(g);
        m.apply(List.of(g), List.of());
        after[i] = Files2.read(fs, dir.resolve(Manifest.FILE_NAME));
      }
    }
    return after;
  }

  private void assertLost(byte[] manifest, long offset) throws IOException {
    String name = dir.resolve(Manifest.FILE_NAME).toString();
    for (Throwable t :
        List.of(
            catchThrowable(() -> Manifest.open(fs, dir).close()),
            catchThrowable(() -> Manifest.readLive(fs, dir)))) {
      assertThat(t)
          .isInstanceOf(CorruptFileException.class)
          .hasMessageContaining(name + " at offset " + offset)
          .hasMessageContaining("manifest lost acknowledged edits")
          .hasMessageContaining("nb-3-TOC.txt records that edit 3 made its SSTable live");
    }
    assertThat(Files2.read(fs, dir.resolve(Manifest.FILE_NAME))).isEqualTo(manifest);
    assertThat(fs.exists(toc(3))).isTrue();
  }

  @Test
  void theLastEditCutOffTheManifestAndTheSealIsReported() throws Exception {
    byte[][] after = threeEdits();
    byte[] cut = after[1]; // the third edit's record gone
    Files2.write(fs, dir.resolve(Manifest.FILE_NAME), cut);
    byte[] seal = Files2.read(fs, dir.resolve(ManifestSeal.FILE_NAME));
    Files2.write(
        fs,
        dir.resolve(ManifestSeal.FILE_NAME),
        Arrays.copyOf(seal, seal.length - ManifestSeal.RECORD)); // the seal's last record too
    assertLost(cut, cut.length);
  }

  @Test
  void aDeletedSealNoLongerHidesALostEdit() throws Exception {
    byte[][] after = threeEdits();
    byte[] zeroed = Arrays.copyOf(after[1], after[2].length); // the last record zeroed
    Files2.write(fs, dir.resolve(Manifest.FILE_NAME), zeroed);
    fs.delete(dir.resolve(ManifestSeal.FILE_NAME));
    assertLost(zeroed, after[1].length);
    assertThat(fs.exists(dir.resolve(ManifestSeal.FILE_NAME))).as("not recreated").isFalse();
  }

  @Test
  void aDeletedSealAloneIsRecreatedFromASoundManifest() throws Exception {
    threeEdits();
    fs.delete(dir.resolve(ManifestSeal.FILE_NAME));
    try (Manifest m = Manifest.open(fs, dir)) {
      assertThat(m.liveGenerations()).containsExactly(1L, 2L, 3L);
    }
    assertThat(ManifestSeal.read(fs, dir).highest()).isEqualTo(3);
  }

  @Test
  void aDeletedManifestBesideCompleteSSTablesIsReportedAndNothingIsDeleted() throws Exception {
    threeEdits();
    fs.delete(dir.resolve(Manifest.FILE_NAME));
    fs.delete(dir.resolve(ManifestSeal.FILE_NAME));
    int files = fs.list(dir).size();
    assertThatThrownBy(() -> Manifest.open(fs, dir))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining(dir.resolve(Manifest.FILE_NAME) + " at offset 0")
        .hasMessageContaining("the manifest is missing, but nb-1-TOC.txt is a complete SSTable");
    assertThat(fs.list(dir)).hasSize(files);
    assertThat(fs.exists(dir.resolve(Manifest.FILE_NAME))).isFalse();
  }

  @Test
  void anSSTableWrittenButNeverMadeLiveStillOpensAndIsALeftover() throws Exception {
    threeEdits();
    sstable(4); // the crash came before its edit was synced: no witness line
    try (Manifest m = Manifest.open(fs, dir)) {
      assertThat(m.liveGenerations()).containsExactly(1L, 2L, 3L);
      assertThat(m.deleteUnlistedFiles()).hasSize(Component.values().length);
    }
  }

  @Test
  void anEditSealedBeforeItsTocWasRewrittenOpensWithIt() throws Exception {
    byte[][] after = threeEdits();
    // the crash came after the seal record, before the TOC was rewritten
    Files2.write(fs, toc(3), Toc.render(3, 3));
    try (Manifest m = Manifest.open(fs, dir)) {
      assertThat(m.liveGenerations()).containsExactly(1L, 2L, 3L);
      assertThat(m.sizeInBytes()).isEqualTo(after[2].length);
    }
  }

  @Test
  void aTocThatCannotBeRewrittenKeepsItsContentAndTheEditStands() throws Exception {
    StorageFs failing =
        new DelegatingFs(fs) {
          @Override
          public WritableFile create(Path file) throws IOException {
            if (file.getFileName().toString().endsWith("TOC.txt.tmp")) {
              throw new IOException("No space left on device");
            }
            return super.create(file);
          }
        };
    try (Manifest m = Manifest.open(failing, dir)) {
      long g = m.newGeneration();
      sstable(g);
      byte[] before = Files2.read(fs, toc(g));
      m.apply(List.of(g), List.of());
      assertThat(Files2.read(fs, toc(g))).isEqualTo(before);
      assertThat(m.liveGenerations()).containsExactly(g);
    }
    assertThat(fs.list(dir)).noneMatch(p -> p.toString().endsWith(".tmp"));
    try (Manifest m = Manifest.open(fs, dir)) {
      assertThat(m.liveGenerations()).containsExactly(1L);
    }
  }
}
