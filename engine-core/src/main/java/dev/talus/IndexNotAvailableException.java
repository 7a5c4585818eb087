package dev.talus;

/**
 * A read that needs a storage-attached index which cannot serve it now: the index is still being
 * built from the table's existing SSTables ({@link IndexStatus.State#BUILDING}; wait with {@link
 * Table#awaitIndexBuilt}), or its build failed ({@link IndexStatus.State#FAILED}; the message says
 * why). The wording follows Cassandra's for an index that is not yet queryable.
 */
public class IndexNotAvailableException extends InvalidQueryException {
  private static final long serialVersionUID = 1L;

  private final String index;
  private final IndexStatus.State state;

  public IndexNotAvailableException(String index, IndexStatus.State state, String message) {
    super(message);
    this.index = index;
    this.state = state;
  }

  /** The index's name. */
  public String index() {
    return index;
  }

  /** Its state when the read was refused: building or failed. */
  public IndexStatus.State state() {
    return state;
  }
}
