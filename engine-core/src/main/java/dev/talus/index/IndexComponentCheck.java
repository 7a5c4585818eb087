package dev.talus.index;

import dev.talus.IndexDef;
import dev.talus.TableSchema;
import dev.talus.io.CorruptFileException;
import dev.talus.io.StorageFs;
import dev.talus.sstable.IndexRowKeysReader;
import dev.talus.sstable.IndexTermsReader;
import dev.talus.sstable.SSTableDescriptor;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks, without changing anything, the storage-attached index components of one SSTable for
 * {@code verify}: the row-key map and each index's term dictionary are opened, which checks the
 * header (format, generation), the structure and the checksum end to end, and each dictionary's row
 * count is compared with the row-key map's. Every component is damage that can be rebuilt from its
 * SSTable (the next read that needs it does so), never lost data. Stateless.
 */
public final class IndexComponentCheck {
  /**
   * One component checked.
   *
   * @param what {@code "index row-key map"} or {@code "index i"}
   * @param file the component's file
   * @param damage null if intact, else what failed (a missing file is damage too)
   * @param offset the byte offset of the damage (0 if intact or missing)
   */
  public record Finding(String what, Path file, String damage, long offset) {}

  private IndexComponentCheck() {}

  /** Checks the components of SSTable {@code desc} for {@code indexes}; none if it has none. */
  public static List<Finding> check(StorageFs fs, SSTableDescriptor desc, List<IndexDef> indexes)
      throws IOException {
    return check(fs, desc, indexes, null);
  }

  /**
   * Like {@link #check(StorageFs, SSTableDescriptor, List)}, knowing the table's schema so that a
   * vector index's vector file is checked (null: every index is taken for a term dictionary).
   */
  public static List<Finding> check(
      StorageFs fs, SSTableDescriptor desc, List<IndexDef> indexes, TableSchema schema)
      throws IOException {
    List<Finding> out = new ArrayList<>();
    if (indexes.isEmpty()) {
      return out;
    }
    long gen = desc.generation();
    Path keysFile = SaiFiles.keys(desc);
    int rows = -1;
    try (IndexRowKeysReader keys = IndexRowKeysReader.open(fs, keysFile, gen)) {
      rows = keys.rowCount();
      out.add(new Finding("index row-key map", keysFile, null, 0));
    } catch (CorruptFileException e) {
      out.add(damaged("index row-key map", keysFile, e));
    } catch (NoSuchFileException e) {
      out.add(new Finding("index row-key map", keysFile, "the component is missing", 0));
    }
    for (IndexDef d : indexes) {
      String what = "index " + d.name();
      if (VectorChecks.isVector(schema, d)) {
        out.addAll(VectorChecks.check(fs, desc, d, rows, what));
        continue;
      }
      Path file = SaiFiles.terms(desc, d.name());
      try (IndexTermsReader terms = IndexTermsReader.open(fs, file, gen)) {
        if (rows >= 0 && terms.rowCount() != rows) {
          out.add(
              new Finding(
                  what,
                  file,
                  "row count " + terms.rowCount() + " differs from the row-key map's " + rows,
                  0));
        } else {
          out.add(new Finding(what, file, null, 0));
        }
      } catch (CorruptFileException e) {
        out.add(damaged(what, file, e));
      } catch (NoSuchFileException e) {
        out.add(new Finding(what, file, "the component is missing", 0));
      }
    }
    return out;
  }

  static Finding damaged(String what, Path file, CorruptFileException e) {
    String prefix = e.file() + " at offset " + e.offset() + ": ";
    String damage =
        e.getMessage().startsWith(prefix)
            ? e.getMessage().substring(prefix.length())
            : e.getMessage();
    return new Finding(what, file, damage, e.offset());
  }
}
