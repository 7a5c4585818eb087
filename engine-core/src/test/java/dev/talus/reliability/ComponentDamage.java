package dev.talus.reliability;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One damage done to an index component file by the damage tests: a flipped bit at an offset, a
 * truncation to a length, or the file's deletion.
 */
record ComponentDamage(Kind kind, long offset) {
  enum Kind {
    FLIP,
    TRUNCATE,
    DELETE
  }

  /**
   * The damages the tests apply in turn to a file of {@code size} bytes: six flips at offsets drawn
   * from {@code rnd}, flips of the first and last byte, a truncation to half, and the deletion.
   */
  static List<ComponentDamage> drawn(Random rnd, long size) {
    List<ComponentDamage> damages = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      damages.add(new ComponentDamage(Kind.FLIP, rnd.nextInt((int) size)));
    }
    damages.add(new ComponentDamage(Kind.FLIP, 0));
    damages.add(new ComponentDamage(Kind.FLIP, size - 1));
    damages.add(new ComponentDamage(Kind.TRUNCATE, size / 2));
    damages.add(new ComponentDamage(Kind.DELETE, 0));
    return damages;
  }

  /** Does this damage to {@code file}. */
  void apply(Path file) throws IOException {
    switch (kind) {
      case FLIP -> {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
          f.seek(offset);
          int b = f.read();
          f.seek(offset);
          f.write(b ^ 0x10);
        }
      }
      case TRUNCATE -> {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
          f.setLength(offset);
        }
      }
      case DELETE -> Files.delete(file);
    }
  }

  @Override
  public String toString() {
    return switch (kind) {
      case FLIP -> "flip at " + offset;
      case TRUNCATE -> "truncation to " + offset;
      case DELETE -> "deletion " + offset;
    };
  }
}
