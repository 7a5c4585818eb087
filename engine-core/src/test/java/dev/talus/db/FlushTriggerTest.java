package dev.talus.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.DataType;
import dev.talus.TableSchema;
import dev.talus.TalusOptions;
import dev.talus.WriteRejectedException;
import dev.talus.io.FileLockHandle;
import dev.talus.io.NioStorageFs;
import dev.talus.io.ReadableFile;
import dev.talus.io.StorageFs;
import dev.talus.io.WritableFile;
import dev.talus.request.WriteRequest;
import dev.talus.table.TableStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When the write path asks for a flush: past half the memtable space, but counting only the
 * memtables taking writes. A memtable being flushed is about to free its memory; counting it queued
 * a second flush of the nearly empty new memtable behind every flush.
 */
class FlushTriggerTest {
  @TempDir Path dir;

  private static WriteRequest insert(int p, int c) {
    return new WriteRequest(
        WriteRequest.Kind.INSERT,
        List.of(),
        Map.of("p", p, "c", c, "v", "x".repeat(200)),
        List.of(),
        null,
        null);
  }

  @Test
  void aMemtableBeingFlushedDoesNotQueueAnotherFlush() throws Exception {
    BlockingDataFs fs = new BlockingDataFs(new NioStorageFs());
    TalusOptions options =
        TalusOptions.builder(dir)
            .memtableSpaceBytes(1L << 20)
            .writeStallTimeout(Duration.ofMillis(200))
            .build();
    Database db = Database.open(options, fs);
    try {
      TableHandle t =
          db.createTable(
              TableSchema.builder("t")
                  .partitionKey("p", DataType.INT)
                  .clusteringColumn("c", DataType.INT)
                  .column("v", DataType.TEXT)
                  .build(),
              false);
      TableStore store = db.stores().iterator().next();
      int c = 0;
      // fill past half the space: the write that crosses it queues a background flush
      while (db.memtableBytes() <= options.memtableSpaceBytes() / 2) {
        t.write(insert(c % 10, c++));
      }
      // with no writes meanwhile, the flush switches in a new memtable and blocks on its Data file
      assertThat(fs.dataFileWaiting.await(60, TimeUnit.SECONDS)).as("flush started").isTrue();
      assertThat(store.flushQueued().get()).isFalse();
      assertThat(db.memtableBytes()).isGreaterThan(options.memtableSpaceBytes() / 2);

      // the flushing memtable keeps the space over half, but the new memtable is nearly empty
      for (int i = 0; i < 100; i++) {
        t.write(insert(i % 10, c++));
      }
      assertThat(db.memtableBytes()).isGreaterThan(options.memtableSpaceBytes() / 2);
      assertThat(store.activeMemtableBytes()).isLessThan(options.memtableSpaceBytes() / 4);
      assertThat(store.flushQueued().get()).as("a second flush was queued").isFalse();

      // at the limit a writer still asks for a flush (and is refused once the stall times out)
      assertThatThrownBy(
              () -> {
                for (int i = 0; i < 1_000_000; i++) {
                  t.write(insert(i % 10, i));
                }
              })
          .isInstanceOf(WriteRejectedException.class);
      assertThat(store.flushQueued().get()).isTrue();
    } finally {
      fs.release.countDown();
      db.close();
    }
  }

  /** The real file layer, except that the first SSTable Data file waits in create() for release. */
  private static final class BlockingDataFs implements StorageFs {
    private final StorageFs delegate;
    final CountDownLatch dataFileWaiting = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    BlockingDataFs(StorageFs delegate) {
      this.delegate = delegate;
    }

    @Override
    public WritableFile create(Path file) throws IOException {
      if (file.getFileName().toString().contains("-Data.db") && dataFileWaiting.getCount() > 0) {
        dataFileWaiting.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted", e);
        }
      }
      return delegate.create(file);
    }

    @Override
    public WritableFile openForAppend(Path file) throws IOException {
      return delegate.openForAppend(file);
    }

    @Override
    public ReadableFile openForRead(Path file) throws IOException {
      return delegate.openForRead(file);
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
      delegate.rename(from, to);
    }

    @Override
    public void createLink(Path link, Path existing) throws IOException {
      delegate.createLink(link, existing);
    }

    @Override
    public void delete(Path file) throws IOException {
      delegate.delete(file);
    }

    @Override
    public void syncDirectory(Path d) throws IOException {
      delegate.syncDirectory(d);
    }

    @Override
    public List<Path> list(Path d) throws IOException {
      return delegate.list(d);
    }

    @Override
    public List<Path> listDirectories(Path d) throws IOException {
      return delegate.listDirectories(d);
    }

    @Override
    public boolean exists(Path file) {
      return delegate.exists(file);
    }

    @Override
    public long size(Path file) throws IOException {
      return delegate.size(file);
    }

    @Override
    public void createDirectories(Path d) throws IOException {
      delegate.createDirectories(d);
    }

    @Override
    public FileLockHandle lock(Path file) throws IOException {
      return delegate.lock(file);
    }
  }
}
