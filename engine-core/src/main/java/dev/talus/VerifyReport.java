package dev.talus;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@link TalusDb#verify(Path, java.util.function.Consumer)} found: one entry per file or
 * SSTable checked, in the order checked — the schema, then each table's manifest and live SSTables,
 * then the commit-log segments — each either intact or naming its damage. The storage-attached
 * index components of each live SSTable are checked after it; their damage is {@linkplain
 * Checked#rebuildable() rebuildable} (a warning: the data is intact, and the next read that needs
 * the component rebuilds it from its SSTable). Immutable.
 *
 * @param checked every check, in order
 */
public record VerifyReport(List<Checked> checked) {
  public VerifyReport {
    checked = List.copyOf(checked);
  }

  /**
   * One check.
   *
   * @param table the table it belongs to, or null for the schema and the commit log
   * @param what what was checked: {@code "schema"}, {@code "manifest"}, {@code "SSTable 5"}, {@code
   *     "SSTable 5 index row-key map"}, {@code "SSTable 5 index users_by_email"}, {@code
   *     "commit-log segment 3"}
   * @param file the file checked; for a damaged SSTable, the damaged component
   * @param bytes bytes read
   * @param damage null if intact, else what failed
   * @param offset the byte offset of the damage in {@code file} (0 if intact)
   * @param rebuildable true for a storage-attached index component: its damage (or absence) loses
   *     no data, because the component is derived from its SSTable and rebuilt by the next read
   *     that needs it
   */
  public record Checked(
      String table,
      String what,
      Path file,
      long bytes,
      String damage,
      long offset,
      boolean rebuildable) {
    /** A check of stored data (not a rebuildable index component). */
    public Checked(String table, String what, Path file, long bytes, String damage, long offset) {
      this(table, what, file, bytes, damage, offset, false);
    }

    public boolean intact() {
      return damage == null;
    }
  }

  /** The damaged entries, index components included. */
  public List<Checked> damaged() {
    return checked.stream().filter(c -> !c.intact()).toList();
  }

  /** True if nothing is damaged, index components included. */
  public boolean clean() {
    return checked.stream().allMatch(Checked::intact);
  }

  /** The damaged or missing index components: warnings, rebuilt when a read next needs them. */
  public List<Checked> warnings() {
    return checked.stream().filter(c -> !c.intact() && c.rebuildable()).toList();
  }

  /**
   * True if no stored data is damaged: every damage found, if any, is of a rebuildable index
   * component.
   */
  public boolean dataIntact() {
    return checked.stream().allMatch(c -> c.intact() || c.rebuildable());
  }

  /** SSTables checked and found intact. */
  public long intactSSTables() {
    return checked.stream()
        .filter(c -> c.intact() && !c.rebuildable() && c.what().startsWith("SSTable "))
        .count();
  }
}
