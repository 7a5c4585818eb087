package dev.talus.cql.exec.support;

import dev.talus.TalusDb;

/** What a statement may ask of the session running it. Implementations are thread-safe. */
public interface SessionState {
  TalusDb db();

  /** The keyspace set by {@code USE}, or null. */
  String keyspace();

  /** Switches the session's keyspace ({@code USE}). */
  void useKeyspace(String keyspace);
}
