package dev.talus.cql.parse.ast;

import java.util.List;
import java.util.Objects;

/**
 * A value in a statement: a constant, {@code NULL}, a bind marker, a collection, tuple or UDT
 * literal, a function call, a type hint, a cast or arithmetic. Terms never name columns. The
 * literal text is kept as written; turning it into a Java value for a given column type is the job
 * of the statement's preparation ({@link Literals} has the conversions that belong to the
 * language).
 */
public sealed interface Term
    permits Term.Literal,
        Term.Null,
        Term.BindMarker,
        Term.ListLiteral,
        Term.SetLiteral,
        Term.MapLiteral,
        Term.UdtLiteral,
        Term.TupleLiteral,
        Term.FunctionCall,
        Term.TypeHint,
        Term.Cast,
        Term.Arithmetic,
        Term.Negation {

  /**
   * Returns where the term starts.
   *
   * @return the position
   */
  SourcePosition position();

  /**
   * A constant.
   *
   * @param kind how it was written
   * @param text its text: the unescaped content for strings, lower case for booleans, {@code NaN},
   *     {@code Infinity} or {@code -Infinity} for those, otherwise as written
   * @param position where it was written
   */
  record Literal(LiteralKind kind, String text, SourcePosition position) implements Term {
    public Literal {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(text, "text");
    }
  }

  /**
   * {@code NULL}.
   *
   * @param position where it was written
   */
  record Null(SourcePosition position) implements Term {}

  /**
   * A bind marker, {@code ?} or {@code :name}. Markers are numbered from 0 in the order they appear
   * in the statement (a batch numbers them across all its statements); a named marker used twice
   * gets two indexes, as in Cassandra.
   *
   * @param index the 0-based index of the marker in its statement
   * @param name the name of {@code :name}, or null for {@code ?}
   * @param position where it was written
   */
  record BindMarker(int index, Identifier name, SourcePosition position) implements Term {}

  /**
   * {@code [t1, t2, ...]}: a list, or a vector.
   *
   * @param elements the elements
   * @param position where it was written
   */
  record ListLiteral(List<Term> elements, SourcePosition position) implements Term {
    public ListLiteral {
      elements = List.copyOf(elements);
    }
  }

  /**
   * {@code {t1, t2, ...}}: a set. {@code {}} is parsed as an empty set; bound to a map column it is
   * the empty map.
   *
   * @param elements the elements
   * @param position where it was written
   */
  record SetLiteral(List<Term> elements, SourcePosition position) implements Term {
    public SetLiteral {
      elements = List.copyOf(elements);
    }
  }

  /**
   * {@code {k1: v1, k2: v2}}: a map whose keys are terms.
   *
   * @param entries the entries, in the order written
   * @param position where it was written
   */
  record MapLiteral(List<MapEntry> entries, SourcePosition position) implements Term {
    public MapLiteral {
      entries = List.copyOf(entries);
    }
  }

  /**
   * One {@code key: value} of a map literal.
   *
   * @param key the key
   * @param value the value
   */
  record MapEntry(Term key, Term value) {}

  /**
   * {@code {field1: v1, field2: v2}}: a user-defined type value, whose keys are field names.
   *
   * @param fields the fields, in the order written
   * @param position where it was written
   */
  record UdtLiteral(List<FieldValue> fields, SourcePosition position) implements Term {
    public UdtLiteral {
      fields = List.copyOf(fields);
    }
  }

  /**
   * One {@code field: value} of a UDT literal.
   *
   * @param field the field's name
   * @param value the value
   */
  record FieldValue(Identifier field, Term value) {}

  /**
   * {@code (t1, t2, ...)}: a tuple. A single term in parentheses is a one-element tuple (CQL has no
   * grouping parentheses in terms).
   *
   * @param elements the elements
   * @param position where it was written
   */
  record TupleLiteral(List<Term> elements, SourcePosition position) implements Term {
    public TupleLiteral {
      elements = List.copyOf(elements);
    }
  }

  /**
   * {@code now()}, {@code toTimestamp(now())}, {@code ks.f(1, ?)}.
   *
   * @param name the function's name (unquoted names are in lower case)
   * @param arguments the arguments
   * @param position where it was written
   */
  record FunctionCall(QualifiedName name, List<Term> arguments, SourcePosition position)
      implements Term {
    public FunctionCall {
      arguments = List.copyOf(arguments);
    }
  }

  /**
   * {@code (type) term}: tells the type of a term whose type cannot be inferred, e.g. {@code (int)
   * ?} or {@code (bigint) 1}.
   *
   * @param type the type
   * @param term the term
   * @param position where it was written
   */
  record TypeHint(CqlType type, Term term, SourcePosition position) implements Term {}

  /**
   * {@code CAST(term AS type)}.
   *
   * @param term the term
   * @param type the native type to convert to
   * @param position where it was written
   */
  record Cast(Term term, CqlType.Native type, SourcePosition position) implements Term {}

  /**
   * {@code left op right}, left-associative, {@code * / %} binding tighter than {@code + -}.
   *
   * @param operator the operator
   * @param left the left operand
   * @param right the right operand
   * @param position where it was written (at the left operand)
   */
  record Arithmetic(ArithmeticOperator operator, Term left, Term right, SourcePosition position)
      implements Term {}

  /**
   * {@code -term} where the term is not a number written with its sign ({@code -1} is a literal).
   *
   * @param operand the negated term
   * @param position where the minus sign was written
   */
  record Negation(Term operand, SourcePosition position) implements Term {}
}
