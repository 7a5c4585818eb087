package dev.talus;

import dev.talus.db.TableHandle;
import dev.talus.request.AlterRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Changes a table's schema (CQL's {@code ALTER TABLE}), started with {@link Table#alter()}: add or
 * drop regular and static columns, rename primary key columns, change table options. The changes
 * are applied in the order given and take effect together at {@link #apply()}: one atomic rewrite
 * of the schema file, so a crash leaves the old schema or the new one, never part of it. No data
 * file is rewritten.
 *
 * <ul>
 *   <li>An added column reads as null in every existing row.
 *   <li>A dropped column's data disappears from reads at once and from disk at the next compaction
 *       that rewrites its SSTables. Adding a column of the same name later never brings the old
 *       data back: Talus keeps the dropped column's id out of use for good (Cassandra records the
 *       drop time for the same purpose; see {@code schema/DroppedColumn.java}).
 *   <li>Only partition key and clustering columns can be renamed, as in Cassandra.
 *   <li>No column changes its type, and key columns are neither added nor dropped.
 * </ul>
 *
 * <p>Not thread-safe (one thread builds it); {@link #apply()} is serialised with every other schema
 * change of the database. Reads and writes of the table go on meanwhile: one that started before
 * the change completes against the old schema.
 */
public final class AlterTable {
  private final TableHandle table;
  private final List<AlterRequest.Op> ops = new ArrayList<>();

  AlterTable(TableHandle table) {
    this.table = table;
  }

  /** Adds a regular column; existing rows read it as null. */
  public AlterTable addColumn(String name, DataType type) {
    ops.add(new AlterRequest.AddColumn(name, Objects.requireNonNull(type, "type"), false));
    return this;
  }

  /** Adds a static column (the table must have clustering columns). */
  public AlterTable addStaticColumn(String name, DataType type) {
    ops.add(new AlterRequest.AddColumn(name, Objects.requireNonNull(type, "type"), true));
    return this;
  }

  /**
   * Drops a regular or static column and, for good, the data stored in it.
   *
   * @throws InvalidQueryException at {@link #apply()} for a primary key column or an unknown one
   */
  public AlterTable dropColumn(String name) {
    ops.add(new AlterRequest.DropColumn(Objects.requireNonNull(name, "name")));
    return this;
  }

  /**
   * Renames a partition key or clustering column (stored data is untouched: key columns are stored
   * by position).
   *
   * @throws InvalidQueryException at {@link #apply()} for a regular or static column
   */
  public AlterTable renameColumn(String from, String to) {
    ops.add(
        new AlterRequest.RenameColumn(
            Objects.requireNonNull(from, "from"), Objects.requireNonNull(to, "to")));
    return this;
  }

  /**
   * Changes table options: {@code change} gets a builder holding the table's schema and sets
   * options on it (TTL, gc_grace, compaction, compression, Bloom filter, thresholds). Columns
   * cannot be changed this way: adding one through the builder is refused at {@link #apply()}; use
   * {@link #addColumn}.
   */
  public AlterTable options(UnaryOperator<TableSchema.Builder> change) {
    Objects.requireNonNull(change, "change");
    ops.add(
        new AlterRequest.Options(
            b -> {
              TableSchema before = b.build();
              TableSchema after = change.apply(b).build();
              if (!after.columns().equals(before.columns())) {
                throw new InvalidQueryException(
                    "options() changes table options only; add, drop or rename columns with"
                        + " addColumn, dropColumn and renameColumn");
              }
              return after.toBuilder();
            }));
    return this;
  }

  /** Sets the default TTL of writes that give none ({@link Duration#ZERO}: no expiry). */
  public AlterTable defaultTimeToLive(Duration ttl) {
    return options(b -> b.defaultTimeToLive(ttl));
  }

  /** Sets gc_grace, how long tombstones are kept before compaction may purge them. */
  public AlterTable gcGrace(Duration grace) {
    return options(b -> b.gcGrace(grace));
  }

  /** Sets the compaction strategy and its options; the new one takes over the SSTables. */
  public AlterTable compaction(CompactionOptions compaction) {
    return options(b -> b.compaction(compaction));
  }

  /** Sets the compression of SSTables written from now on (flushes and compactions). */
  public AlterTable compression(Compression compression) {
    return options(b -> b.compression(compression));
  }

  /**
   * Sets the uncompressed chunk size, in KiB, of SSTables written from now on (see {@link
   * TableSchema#chunkLengthKb()}).
   */
  public AlterTable chunkLengthKb(int kib) {
    return options(b -> b.chunkLengthKb(kib));
  }

  /** Sets the Bloom filter false-positive chance of SSTables written from now on. */
  public AlterTable bloomFilterFpChance(double chance) {
    return options(b -> b.bloomFilterFpChance(chance));
  }

  /**
   * Applies every change, durably, and returns the new schema (also {@link Table#schema()} from now
   * on). Nothing is applied if any change is invalid.
   *
   * @throws InvalidQueryException if a change breaks a rule (an unknown column, a key column
   *     dropped, a regular column renamed, a column name taken)
   * @throws InvalidSchemaException if the resulting schema is invalid (e.g. a static column in a
   *     table without clustering columns, a counter column in a table of other columns)
   */
  public TableSchema apply() {
    return table.alter(new AlterRequest(ops));
  }
}
