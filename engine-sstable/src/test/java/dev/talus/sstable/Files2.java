package dev.talus.sstable;

import dev.talus.io.ReadableFile;
import dev.talus.io.StorageFs;
import dev.talus.io.WritableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/** Whole-file read and replace through the file layer, for damaging files in tests. */
final class Files2 {
  private Files2() {}

  static byte[] read(StorageFs fs, Path p) throws IOException {
    try (ReadableFile f = fs.openForRead(p)) {
      ByteBuffer b = ByteBuffer.allocate((int) f.size());
      while (b.hasRemaining() && f.read(b, b.position()) > 0) {
        // keep reading
      }
      return b.array();
    }
  }

  static void write(StorageFs fs, Path p, byte[] content) throws IOException {
    fs.delete(p);
    try (WritableFile f = fs.create(p)) {
      f.write(ByteBuffer.wrap(content));
    }
  }
}
