package dev.talus.cql.exec.support;

import dev.talus.PagingState;
import dev.talus.TalusDb;
import java.util.ArrayList;
import java.util.List;

/**
 * One execution of a prepared statement: the session it runs in, the bound values (by marker index;
 * {@link #UNSET} for an unset one), the page size and paging state, the default timestamp, and the
 * warnings it raises. Not thread-safe: one execution, one thread.
 */
public final class ExecContext {
  /** The value of a bind marker that was left unset (the native protocol's "unset" value). */
  public static final Object UNSET =
      new Object() {
        @Override
        public String toString() {
          return "UNSET";
        }
      };

  private final SessionState session;
  private final Object[] values;
  private final int pageSize;
  private final PagingState pagingState;
  private final Long timestamp;
  private List<String> warnings;

  /**
   * @param session the session
   * @param values the bound values, one per marker
   * @param pageSize rows per page; {@link Integer#MAX_VALUE} for one page
   * @param pagingState where to resume, or null
   * @param timestamp the write timestamp for writes that give none, or null for the clock
   */
  public ExecContext(
      SessionState session,
      Object[] values,
      int pageSize,
      PagingState pagingState,
      Long timestamp) {
    this.session = session;
    this.values = values;
    this.pageSize = pageSize;
    this.pagingState = pagingState;
    this.timestamp = timestamp;
  }

  public SessionState session() {
    return session;
  }

  public TalusDb db() {
    return session.db();
  }

  /** The value bound to marker {@code index}: null, {@link #UNSET}, or the caller's object. */
  public Object value(int index) {
    return values[index];
  }

  public int pageSize() {
    return pageSize;
  }

  public PagingState pagingState() {
    return pagingState;
  }

  /** The default write timestamp in microseconds, or null. */
  public Long timestamp() {
    return timestamp;
  }

  /**
   * This execution without its default timestamp, sharing its warnings: a conditional write takes
   * its timestamp from the engine, as Cassandra's take theirs from the Paxos ballot.
   */
  public ExecContext withoutDefaultTimestamp() {
    if (timestamp == null) {
      return this;
    }
    if (warnings == null) {
      warnings = new ArrayList<>(2);
    }
    ExecContext c = new ExecContext(session, values, pageSize, pagingState, null);
    c.warnings = warnings;
    return c;
  }

  public void warn(String warning) {
    if (warnings == null) {
      warnings = new ArrayList<>(2);
    }
    if (!warnings.contains(warning)) {
      warnings.add(warning);
    }
  }

  /** The warnings raised so far. */
  public List<String> warnings() {
    return warnings == null ? List.of() : warnings;
  }
}
