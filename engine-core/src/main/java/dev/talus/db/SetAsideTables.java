package dev.talus.db;

import dev.talus.CorruptDataException;
import dev.talus.QuarantinedTable;
import dev.talus.io.CorruptFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tables a database set aside at open under the QUARANTINE policy because their manifest is
 * damaged. Such a table is not opened: nothing in its directory is touched (without the manifest,
 * which files are live is unknown, so none may be deleted), and its commit-log records are kept
 * (its id is never marked flushed). Thread-safe.
 */
final class SetAsideTables {
  private static final Logger LOG = LoggerFactory.getLogger(Database.class);

  private final Map<String, QuarantinedTable> byName = new ConcurrentHashMap<>(); // keyspace.table
  private final Map<Integer, QuarantinedTable> byId = new ConcurrentHashMap<>();

  /**
   * Records table {@code id}, registered as {@code qualified} ({@code keyspace.table}) and shown to
   * users as {@code name}.
   */
  void add(int id, String qualified, String name, Path tableDir, CorruptFileException damage) {
    QuarantinedTable q = new QuarantinedTable(name, tableDir, damage.file(), damage.getMessage());
    byName.put(qualified, q);
    byId.put(id, q);
    LOG.error(
        "Table {} set aside (disk failure policy QUARANTINE): its manifest is damaged: {}. Its"
            + " files in {} are left untouched and it is not served; every other table opens."
            + " Restore the table directory from a backup and reopen to get it back.",
        name,
        damage.getMessage(),
        tableDir);
  }

  /** The set-aside tables, by name. */
  List<QuarantinedTable> list() {
    List<QuarantinedTable> l = new ArrayList<>(byName.values());
    l.sort((a, b) -> a.name().compareTo(b.name()));
    return l;
  }

  /** The ids whose commit-log records must be kept. */
  Set<Integer> ids() {
    return byId.keySet();
  }

  boolean contains(int id) {
    return byId.containsKey(id);
  }

  /** Throws the error for table {@code qualified} ({@code keyspace.table}) if it was set aside. */
  void checkNotSetAside(String qualified) {
    QuarantinedTable q = byName.get(qualified);
    if (q != null) {
      throw new CorruptDataException(
          "table "
              + q.name()
              + " was set aside when the database opened (disk failure policy QUARANTINE): "
              + q.reason()
              + ". Its files in "
              + q.directory()
              + " are untouched; restore the table directory from a backup and reopen",
          q.damagedFile(),
          0,
          null);
    }
  }
}
