package dev.talus.cql.parse.ast;

import java.util.List;

/** The right-hand side of {@code IN}: a parenthesised list, or one bind marker for a whole list. */
public sealed interface InValues permits InValues.Listed, InValues.Marker {

  /**
   * {@code IN (t1, t2, ...)}; may be empty. For a multi-column relation each term is a tuple
   * literal or a bind marker.
   *
   * @param terms the values
   */
  record Listed(List<Term> terms) implements InValues {
    public Listed {
      terms = List.copyOf(terms);
    }
  }

  /**
   * {@code IN ?} or {@code IN :name}: the marker is bound to a list of values.
   *
   * @param marker the marker
   */
  record Marker(Term.BindMarker marker) implements InValues {}
}
