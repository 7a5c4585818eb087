package dev.talus;

/**
 * The state of one storage-attached index of a table at one instant: whether queries may use it,
 * how far its build from the table's existing SSTables has come, what its components take on disk
 * and how many queries it served since the database was opened. Immutable.
 *
 * @param name the index name
 * @param column the indexed column
 * @param state {@link State#QUERYABLE}, {@link State#BUILDING} or {@link State#FAILED}
 * @param sstablesBuilt SSTables of the latest build done so far (equal to {@code sstablesToBuild}
 *     once it finished; 0 of 0 for an index created on a table without SSTables)
 * @param sstablesToBuild SSTables the latest build has to go through
 * @param sstablesCovered live SSTables that have the index's term dictionary on disk now
 * @param liveSSTables live SSTables of the table now
 * @param diskBytes bytes of the index's term dictionaries over the live SSTables
 * @param rowKeyMapBytes bytes of the row-key maps over the live SSTables; every index of the table
 *     shares them, so they are reported with each index but exist once
 * @param queriesServed reads that used the index (each read counts once per index it used)
 * @param failure why the build failed, or null unless {@code state} is {@link State#FAILED}
 */
public record IndexStatus(
    String name,
    String column,
    State state,
    int sstablesBuilt,
    int sstablesToBuild,
    int sstablesCovered,
    int liveSSTables,
    long diskBytes,
    long rowKeyMapBytes,
    long queriesServed,
    String failure) {

  /** Whether a query may use an index. */
  public enum State {
    /**
     * Its components are being built from the table's existing SSTables in the background; a read
     * that needs it is refused with {@link IndexNotAvailableException}.
     */
    BUILDING,
    /** Every SSTable it was built for has its components; reads use it. */
    QUERYABLE,
    /**
     * Its build failed for another reason than the database closing; a read that needs it is
     * refused with the reason. Reopening the database builds it again, as does dropping and
     * creating it.
     */
    FAILED
  }
}
