package dev.talus.table;

import dev.talus.io.StorageFs;
import dev.talus.sstable.Component;
import dev.talus.sstable.SSTableDescriptor;
import dev.talus.sstable.SSTableReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The SSTable half of a snapshot (after Cassandra's {@code ColumnFamilyStore.snapshot}): every
 * component of every SSTable live at one instant gets a second name (a hard link) in the snapshot
 * directory, so the files stay on disk when a compaction or a drop deletes the live names. The live
 * set is one {@link TableView} taken from the {@link ViewTracker}, and each of its SSTables is
 * referenced while it is linked, so a compaction that swaps files meanwhile cannot delete one
 * before its link exists. Stateless.
 */
public final class SnapshotFiles {
  /** Each table directory keeps its snapshots here, one directory per snapshot name. */
  public static final String SNAPSHOTS = "snapshots";

  private SnapshotFiles() {}

  /**
   * Links every component of the SSTables live now into {@code target} (which must exist), under
   * their own names; returns the names linked, sorted. Syncs {@code target}.
   */
  public static List<String> linkLive(StorageFs fs, TableStore table, Path target)
      throws IOException {
    List<SSTableReader> refs = new ArrayList<>();
    for (SSTableReader r : table.tracker().current().sstables()) {
      if (r.tryRef()) { // false only if it was replaced and released meanwhile: not live any more
        refs.add(r);
      }
    }
    try {
      List<String> names = new ArrayList<>();
      for (SSTableReader r : refs) {
        for (Component c : Component.values()) {
          Path live = r.descriptor().path(c);
          fs.createLink(target.resolve(live.getFileName().toString()), live);
          names.add(live.getFileName().toString());
        }
      }
      fs.syncDirectory(target);
      names.sort(null);
      return names;
    } finally {
      refs.forEach(SSTableReader::release);
    }
  }

  /** The SSTable generations with a complete component set in {@code dir}, ascending. */
  public static Set<Long> generationsIn(StorageFs fs, Path dir) throws IOException {
    Set<Long> gens = new TreeSet<>();
    for (Path p : fs.list(dir)) {
      long g = SSTableDescriptor.generationOf(p);
      if (g >= 0 && p.getFileName().toString().endsWith(Component.TOC.suffix())) {
        gens.add(g);
      }
    }
    return gens;
  }

  /**
   * Bytes of the files in snapshot directory {@code snapshot} of table directory {@code tableDir}
   * that are not also live SSTable files of that table ({@code liveGenerations}): what clearing the
   * snapshot would free (Cassandra's "true size"). A snapshot's SSTable file is a link of the live
   * one of the same name exactly while that generation is live, since a table directory never hands
   * out a generation twice.
   */
  public static long[] sizes(StorageFs fs, Path snapshot, Set<Long> liveGenerations)
      throws IOException {
    long total = 0;
    long own = 0;
    for (Path p : fs.list(snapshot)) {
      long size = fs.size(p);
      total += size;
      long g = SSTableDescriptor.generationOf(p);
      if (g < 0 || !liveGenerations.contains(g)) {
        own += size;
      }
    }
    return new long[] {total, own};
  }
}
