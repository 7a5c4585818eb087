package dev.talus.cql.exec.support;

import dev.talus.Table;
import dev.talus.TalusDb;
import dev.talus.cql.CqlColumn;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.QualifiedName;
import dev.talus.cql.parse.ast.Term;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What preparing one statement knows and collects: the database, the session's keyspace at prepare
 * time, the source for error messages, and — as terms meet their receivers — the type of every bind
 * marker, plus the warnings preparing raised. Not thread-safe: one preparation, one thread.
 */
public final class PrepareContext {
  private final TalusDb db;
  private final String sessionKeyspace;
  private final Source source;
  private final CqlColumn[] variables;
  private final List<String> warnings = new ArrayList<>();

  /**
   * @param db the database
   * @param sessionKeyspace the keyspace of {@code USE}, or null
   * @param source the parsed text
   * @param markerCount how many bind markers the statement has
   */
  public PrepareContext(TalusDb db, String sessionKeyspace, Source source, int markerCount) {
    this.db = db;
    this.sessionKeyspace = sessionKeyspace;
    this.source = source;
    this.variables = new CqlColumn[markerCount];
  }

  public TalusDb db() {
    return db;
  }

  public Source source() {
    return source;
  }

  /** The keyspace of {@code USE} at prepare time, or null. */
  public String sessionKeyspace() {
    return sessionKeyspace;
  }

  /**
   * The keyspace a name means: its own, else the session's, else the database's default keyspace
   * (where tables created through the Java API without a keyspace live — a Talus extension: for
   * Cassandra an unqualified name without {@code USE} is an error).
   */
  public String keyspaceOf(QualifiedName name) {
    if (name.keyspace() != null) {
      return name.keyspace().name();
    }
    return sessionKeyspace != null ? sessionKeyspace : db.options().defaultKeyspace();
  }

  /** Where a name's keyspace was written (its own position, or the name's when unqualified). */
  public Identifier keyspaceIdentifier(QualifiedName name) {
    return name.keyspace() != null ? name.keyspace() : name.name();
  }

  /**
   * The Talus table a name means; Cassandra's errors ({@code keyspace ks does not exist}, {@code
   * table t does not exist}) if there is none.
   */
  public Table table(QualifiedName name) {
    String ks = keyspaceOf(name);
    if (db.keyspace(ks).isEmpty()) {
      throw source.invalid(keyspaceIdentifier(name), "keyspace " + ks + " does not exist");
    }
    return db.findTable(ks, name.name().name())
        .orElseThrow(
            () -> source.invalid(name.name(), "table " + name.name().name() + " does not exist"));
  }

  /** Records the receiver of a bind marker: its name and type for the statement's metadata. */
  public void bind(Term.BindMarker marker, Receiver receiver) {
    String name = marker.name() != null ? marker.name().name() : receiver.name();
    variables[marker.index()] =
        new CqlColumn(receiver.keyspace(), receiver.table(), name, receiver.type());
  }

  /** The markers' metadata, in index order; every marker must have met its receiver. */
  public List<CqlColumn> variables() {
    for (int i = 0; i < variables.length; i++) {
      if (variables[i] == null) {
        throw new IllegalStateException("bind marker " + i + " was never given a type");
      }
    }
    return Arrays.asList(variables.clone());
  }

  public void warn(String warning) {
    if (!warnings.contains(warning)) {
      warnings.add(warning);
    }
  }

  public List<String> warnings() {
    return List.copyOf(warnings);
  }
}
