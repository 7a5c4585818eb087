package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.data.PartitionKey;
import dev.talus.data.Row;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attached writer an {@link SSTableWriter} drives: it sees every partition and row in the order
 * written, prepares before the TOC exists, commits before the components are in place, and is
 * aborted with the SSTable — including when its own prepare fails.
 */
class AttachedWriterTest {
  @TempDir Path dir;

  private final StorageFs fs = new NioStorageFs();

  /** Records what it is told, and whether the SSTable's TOC existed at each step. */
  private final class Recording implements AttachedWriter {
    final SSTableDescriptor desc;
    final List<String> events = new ArrayList<>();
    boolean failPrepare;

    Recording(SSTableDescriptor desc) {
      this.desc = desc;
    }

    private String toc() {
      return (fs.exists(desc.path(Component.TOC)) ? "toc" : "no toc")
          + (fs.exists(desc.tmpPath(Component.TOC)) ? ", toc.tmp" : "");
    }

    @Override
    public void partitionStarted(PartitionKey key) {
      events.add("partition " + key);
    }

    @Override
    public void rowWritten(Row row) {
      events.add("row");
    }

    @Override
    public void prepareToCommit() throws IOException {
      events.add("prepare (" + toc() + ")");
      if (failPrepare) {
        throw new IOException("No space left on device");
      }
    }

    @Override
    public void commit() {
      events.add("commit (" + toc() + ")");
    }

    @Override
    public void abort() {
      events.add("abort");
    }
  }

  @Test
  void seesEveryPartitionAndRowThenPreparesBeforeTheTocAndCommitsBeforeItIsInPlace()
      throws Exception {
    List<TestData.Partition> parts = TestData.partitions(new Random(3), 5, 8);
    List<Recording> made = new ArrayList<>();
    SSTableOptions options =
        SSTableOptions.builder()
            .attachedWriters(
                d -> {
                  Recording r = new Recording(d);
                  made.add(r);
                  return r;
                })
            .build();
    List<String> expected = new ArrayList<>();
    try (SSTableWriter w = SSTableWriter.create(fs, dir, 1, 5, options)) {
      for (TestData.Partition p : parts) {
        w.append(p.key(), p.deletion(), p.rangeTombstones(), p.rows().iterator());
        expected.add("partition " + p.key());
        p.rows().forEach(r -> expected.add("row"));
      }
      w.commit();
    }
    expected.add("prepare (no toc)");
    expected.add("commit (no toc, toc.tmp)");
    assertThat(made).hasSize(1);
    assertThat(made.get(0).events).isEqualTo(expected);
  }

  @Test
  void aFailedPrepareFailsTheSSTableAndAbortsBoth() throws Exception {
    List<TestData.Partition> parts = TestData.partitions(new Random(4), 2, 4);
    List<Recording> made = new ArrayList<>();
    SSTableOptions options =
        SSTableOptions.builder()
            .attachedWriters(
                d -> {
                  Recording r = new Recording(d);
                  r.failPrepare = true;
                  made.add(r);
                  return r;
                })
            .build();
    try (SSTableWriter w = SSTableWriter.create(fs, dir, 1, 2, options)) {
      for (TestData.Partition p : parts) {
        w.append(p.key(), p.deletion(), p.rangeTombstones(), p.rows().iterator());
      }
      assertThatThrownBy(w::prepareToCommit).hasMessageContaining("No space left");
    }
    assertThat(made.get(0).events).endsWith("prepare (no toc)", "abort");
    assertThat(fs.list(dir)).as("nothing of the SSTable left").isEmpty();
  }

  @Test
  void aFactoryReturningNullAttachesNothing() throws Exception {
    List<TestData.Partition> parts = TestData.partitions(new Random(5), 2, 4);
    SSTableOptions options = SSTableOptions.builder().attachedWriters(d -> null).build();
    try (SSTableWriter w = SSTableWriter.create(fs, dir, 1, 2, options)) {
      for (TestData.Partition p : parts) {
        w.append(p.key(), p.deletion(), p.rangeTombstones(), p.rows().iterator());
      }
      w.commit();
    }
    assertThat(fs.exists(new SSTableDescriptor(dir, 1).path(Component.TOC))).isTrue();
  }
}
