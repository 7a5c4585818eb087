package dev.talus.cql.parse;

import dev.talus.cql.parse.ast.RawStatement;
import dev.talus.cql.parse.ast.Term;
import java.util.List;

/**
 * One parsed statement with what the executor needs besides its syntax tree.
 *
 * @param statement the syntax tree
 * @param text the statement as written, from its first token to its last (no {@code ;})
 * @param line the 1-based line where it starts (in a script, counted from the top of the file)
 * @param column the 1-based column where it starts
 * @param bindMarkers the statement's bind markers in order; marker {@code i} has index {@code i}
 */
public record ParsedStatement(
    RawStatement statement, String text, int line, int column, List<Term.BindMarker> bindMarkers) {
  public ParsedStatement {
    bindMarkers = List.copyOf(bindMarkers);
  }
}
