package dev.talus.cql;

import dev.talus.cql.exec.support.Executable;
import java.util.Arrays;
import java.util.List;

/**
 * A statement prepared once by {@link TalusSession#prepare(String)}: parsed, names resolved against
 * the schema, values typed, the read or write planned. Executing it costs what the builder API
 * costs for the same operation — it builds the same engine call from the bound values. Bind values
 * by position or by name with {@link #bind(Object...)} and {@link BoundCql}, or run it at once with
 * {@link #execute(Object...)}.
 *
 * <p>Immutable and thread-safe: one prepared statement may be executed by any number of threads at
 * once. It does not need closing; it stops working when its database closes.
 */
public final class PreparedCql {
  private final TalusSession session;
  private final String query;
  private final String keyspace;
  private final byte[] id;
  private final Executable executable;
  private final List<CqlColumn> variables;

  PreparedCql(
      TalusSession session,
      String query,
      String keyspace,
      byte[] id,
      Executable executable,
      List<CqlColumn> variables) {
    this.session = session;
    this.query = query;
    this.keyspace = keyspace;
    this.id = id;
    this.executable = executable;
    this.variables = List.copyOf(variables);
  }

  /** The statement as given to {@code prepare}. */
  public String query() {
    return query;
  }

  /** The session's keyspace when it was prepared, which unqualified names were resolved in. */
  public java.util.Optional<String> keyspace() {
    return java.util.Optional.ofNullable(keyspace);
  }

  /**
   * The statement's id, as Cassandra computes it (an MD5 of the keyspace and the query): {@link
   * TalusSession#prepared(byte[])} finds it again.
   */
  public byte[] id() {
    return id.clone();
  }

  /**
   * The bind markers in order: each with its name (the marker's, or the column it is bound to) and
   * type.
   */
  public List<CqlColumn> variables() {
    return variables;
  }

  /** The columns of the rows the statement returns (empty if it returns none). */
  public List<CqlColumn> resultColumns() {
    return executable.resultColumns();
  }

  /**
   * Binds a value to every marker, in order ({@link BoundCql#UNSET} leaves one unset).
   *
   * @throws CqlInvalidRequestException if the number of values is not the number of markers
   */
  public BoundCql bind(Object... values) {
    checkCount(values);
    return new BoundCql(this, values.clone(), session.defaultFetchSize(), null, null);
  }

  private void checkCount(Object[] values) {
    if (values.length != variables.size()) {
      throw new CqlInvalidRequestException(
          "There were "
              + variables.size()
              + " markers(?) in CQL but "
              + values.length
              + " bound variables");
    }
  }

  /** A bound statement with every marker unset, to set by position or name. */
  public BoundCql bind() {
    Object[] values = new Object[variables.size()];
    Arrays.fill(values, BoundCql.UNSET);
    return new BoundCql(this, values, session.defaultFetchSize(), null, null);
  }

  /**
   * Binds {@code values} in order and executes: what {@code bind(values).execute()} does, without
   * the bound statement and the copy of the values in between (the execution reads {@code values}
   * before it returns; a result with more pages keeps its own copy).
   *
   * @throws CqlInvalidRequestException if the number of values is not the number of markers
   */
  public CqlResult execute(Object... values) {
    checkCount(values);
    return session.execute(this, values);
  }

  TalusSession session() {
    return session;
  }

  Executable executable() {
    return executable;
  }

  @Override
  public String toString() {
    return "PreparedCql{" + query + "}";
  }
}
