package dev.talus.commitlog;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Measures this machine's fsync rate: appends 4 KiB and forces it, in a loop, for 3 seconds. The
 * result bounds what BATCH mode can acknowledge per second with one writer. Not a benchmark of the
 * engine (that is engine-bench's job); run it by hand:
 *
 * <pre>java -cp engine-core/target/test-classes dev.talus.commitlog.FsyncRateProbe [dir]</pre>
 */
public final class FsyncRateProbe {
  private FsyncRateProbe() {}

  public static void main(String[] args) throws IOException {
    Path dir = args.length > 0 ? Path.of(args[0]) : Path.of(System.getProperty("java.io.tmpdir"));
    Path file = Files.createTempFile(dir, "fsync-probe", ".bin");
    ByteBuffer block = ByteBuffer.allocate(4096);
    long syncs = 0;
    long start = System.nanoTime();
    long end = start + 3_000_000_000L;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      while (System.nanoTime() < end) {
        block.clear();
        while (block.hasRemaining()) {
          ch.write(block);
        }
        ch.force(false);
        syncs++;
      }
    } finally {
      Files.deleteIfExists(file);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(
        "%d x (4 KiB append + fdatasync) in %.2f s on %s: %.0f syncs/s, %.3f ms each%n",
        syncs, seconds, dir, syncs / seconds, seconds * 1000 / syncs);
  }
}
