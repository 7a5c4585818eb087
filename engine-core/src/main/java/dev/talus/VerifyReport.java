package dev.talus;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@link TalusDb#verify(Path, java.util.function.Consumer)} found: one entry per file or
 * SSTable checked, in the order checked — the schema, then each table's manifest and live SSTables,
 * then the commit-log segments — each either intact or naming its damage. Immutable.
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
   *     "commit-log segment 3"}
   * @param file the file checked; for a damaged SSTable, the damaged component
   * @param bytes bytes read
   * @param damage null if intact, else what failed
   * @param offset the byte offset of the damage in {@code file} (0 if intact)
   */
  public record Checked(
      String table, String what, Path file, long bytes, String damage, long offset) {
    public boolean intact() {
      return damage == null;
    }
  }

  /** The damaged entries. */
  public List<Checked> damaged() {
    return checked.stream().filter(c -> !c.intact()).toList();
  }

  /** True if nothing is damaged. */
  public boolean clean() {
    return checked.stream().allMatch(Checked::intact);
  }

  /** SSTables checked and found intact. */
  public long intactSSTables() {
    return checked.stream().filter(c -> c.intact() && c.what().startsWith("SSTable ")).count();
  }
}
