package dev.talus.cql;

import dev.talus.PagingState;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * What executing one statement returned: rows with their column metadata (a {@code SELECT}, a
 * {@code DESCRIBE}), the new keyspace (a {@code USE}), what changed (a schema statement), or
 * nothing; in each case the warnings Talus attached (options it ignored, a replication factor it
 * cannot honour, ...). A {@code SELECT} returns one page: {@link #pagingState()} is present when
 * more rows may follow, and {@link #fetchNextPage()} reads them. Immutable and thread-safe; the
 * rows are a snapshot.
 */
public final class CqlResult implements Iterable<CqlRow> {
  /** The kind of result, as in the native protocol's {@code RESULT} message. */
  public enum Kind {
    /** Nothing to return: a write, a keyspace or table that already existed, ... */
    VOID,
    /** Rows ({@code SELECT}, {@code DESCRIBE}). */
    ROWS,
    /** The session's keyspace changed ({@code USE}). */
    SET_KEYSPACE,
    /** A keyspace or table was created, altered or dropped. */
    SCHEMA_CHANGE
  }

  private final Kind kind;
  private final List<CqlColumn> columns;
  private final List<CqlRow> rows;
  private final PagingState pagingState;
  private final List<String> warnings;
  private final SchemaChange schemaChange;
  private final String keyspace;
  private final Function<PagingState, CqlResult> nextPage;

  private CqlResult(
      Kind kind,
      List<CqlColumn> columns,
      List<CqlRow> rows,
      PagingState pagingState,
      List<String> warnings,
      SchemaChange schemaChange,
      String keyspace,
      Function<PagingState, CqlResult> nextPage) {
    this.kind = kind;
    this.columns = List.copyOf(columns);
    this.rows = List.copyOf(rows);
    this.pagingState = pagingState;
    this.warnings = List.copyOf(warnings);
    this.schemaChange = schemaChange;
    this.keyspace = keyspace;
    this.nextPage = nextPage;
  }

  /** Rows, with the paging state for the next page (null if this is the last). */
  public static CqlResult rows(
      List<CqlColumn> columns, List<CqlRow> rows, PagingState pagingState, List<String> warnings) {
    return new CqlResult(Kind.ROWS, columns, rows, pagingState, warnings, null, null, null);
  }

  /** The result of every statement that returns nothing and warns of nothing (most writes). */
  private static final CqlResult VOID_RESULT =
      new CqlResult(Kind.VOID, List.of(), List.of(), null, List.of(), null, null, null);

  /** Nothing (one shared instance when there are no warnings: a write allocates no result). */
  public static CqlResult empty(List<String> warnings) {
    return warnings.isEmpty()
        ? VOID_RESULT
        : new CqlResult(Kind.VOID, List.of(), List.of(), null, warnings, null, null, null);
  }

  /** The session now uses {@code keyspace}. */
  public static CqlResult setKeyspace(String keyspace, List<String> warnings) {
    return new CqlResult(
        Kind.SET_KEYSPACE,
        List.of(),
        List.of(),
        null,
        warnings,
        null,
        Objects.requireNonNull(keyspace),
        null);
  }

  /** A schema change. */
  public static CqlResult schemaChange(SchemaChange change, List<String> warnings) {
    return new CqlResult(
        Kind.SCHEMA_CHANGE,
        List.of(),
        List.of(),
        null,
        warnings,
        Objects.requireNonNull(change),
        null,
        null);
  }

  /** This result with warnings added after its own. */
  CqlResult withWarnings(List<String> more) {
    if (more.isEmpty()) {
      return this;
    }
    List<String> all = new java.util.ArrayList<>(warnings);
    all.addAll(more);
    return new CqlResult(kind, columns, rows, pagingState, all, schemaChange, keyspace, nextPage);
  }

  /** This result, able to fetch its next page with {@code next}. */
  CqlResult withNextPage(Function<PagingState, CqlResult> next) {
    return new CqlResult(kind, columns, rows, pagingState, warnings, schemaChange, keyspace, next);
  }

  public Kind kind() {
    return kind;
  }

  /** The columns of the rows (empty unless {@link Kind#ROWS}). */
  public List<CqlColumn> columns() {
    return columns;
  }

  /** The rows of this page. */
  public List<CqlRow> rows() {
    return rows;
  }

  public int size() {
    return rows.size();
  }

  public boolean isEmpty() {
    return rows.isEmpty();
  }

  /** The first row, if any. */
  public Optional<CqlRow> one() {
    return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
  }

  /** Where the next page starts, or empty when this is the last page. */
  public Optional<PagingState> pagingState() {
    return Optional.ofNullable(pagingState);
  }

  /** True if more rows may follow this page. */
  public boolean hasMorePages() {
    return pagingState != null;
  }

  /**
   * Runs the statement that produced this page again from its paging state: the next page.
   *
   * @throws IllegalStateException if this is the last page
   */
  public CqlResult fetchNextPage() {
    if (pagingState == null || nextPage == null) {
      throw new IllegalStateException("this is the last page of the result");
    }
    return nextPage.apply(pagingState);
  }

  /** Warnings about the statement (Cassandra's client warnings), in the order they arose. */
  public List<String> warnings() {
    return warnings;
  }

  /** What a schema statement changed ({@link Kind#SCHEMA_CHANGE}). */
  public Optional<SchemaChange> schemaChange() {
    return Optional.ofNullable(schemaChange);
  }

  /** The keyspace a {@code USE} switched to ({@link Kind#SET_KEYSPACE}). */
  public Optional<String> keyspace() {
    return Optional.ofNullable(keyspace);
  }

  @Override
  public Iterator<CqlRow> iterator() {
    return rows.iterator();
  }

  @Override
  public String toString() {
    return switch (kind) {
      case ROWS ->
          "CqlResult{" + rows.size() + " rows" + (pagingState != null ? ", more" : "") + "}";
      case SET_KEYSPACE -> "CqlResult{USE " + keyspace + "}";
      case SCHEMA_CHANGE -> "CqlResult{" + schemaChange + "}";
      case VOID -> "CqlResult{void}";
    };
  }
}
