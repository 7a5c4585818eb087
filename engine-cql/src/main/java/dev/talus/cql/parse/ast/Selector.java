package dev.talus.cql.parse.ast;

import java.util.List;

/**
 * One expression of a {@code SELECT} clause (or of {@code GROUP BY}): a column, a constant, a
 * function or aggregate call, {@code count(*)}, {@code writetime()}/{@code maxwritetime()}/{@code
 * ttl()}, a cast, a field or element or slice selection, arithmetic, a type hint, or a tuple, list,
 * set or map built from other selectors.
 */
public sealed interface Selector
    permits Selector.Column,
        Selector.Value,
        Selector.FunctionCall,
        Selector.CountRows,
        Selector.WritetimeOrTtl,
        Selector.Cast,
        Selector.Field,
        Selector.Element,
        Selector.Slice,
        Selector.Arithmetic,
        Selector.Negation,
        Selector.TypeHint,
        Selector.TupleOf,
        Selector.ListOf,
        Selector.SetOf,
        Selector.MapOf {

  /**
   * Returns where the selector starts.
   *
   * @return the position
   */
  SourcePosition position();

  /**
   * A column.
   *
   * @param name the column
   */
  record Column(Identifier name) implements Selector {
    @Override
    public SourcePosition position() {
      return name.position();
    }
  }

  /**
   * A constant, {@code NULL} or a bind marker.
   *
   * @param term the value
   */
  record Value(Term term) implements Selector {
    @Override
    public SourcePosition position() {
      return term.position();
    }
  }

  /**
   * A scalar function or aggregate: {@code max(v)}, {@code ks.f(a, 1)}, {@code count(1)}.
   *
   * @param name the function's name (unquoted names are in lower case)
   * @param arguments the arguments
   * @param position where it was written
   */
  record FunctionCall(QualifiedName name, List<Selector> arguments, SourcePosition position)
      implements Selector {
    public FunctionCall {
      arguments = List.copyOf(arguments);
    }
  }

  /**
   * {@code count(*)}.
   *
   * @param position where it was written
   */
  record CountRows(SourcePosition position) implements Selector {}

  /** Which cell metadata a {@link WritetimeOrTtl} selector reads. */
  enum MetadataKind {
    WRITETIME("writetime"),
    MAXWRITETIME("maxwritetime"),
    TTL("ttl");

    private final String cql;

    MetadataKind(String cql) {
      this.cql = cql;
    }

    /**
     * Returns the function as written.
     *
     * @return e.g. {@code "writetime"}
     */
    public String cql() {
      return cql;
    }
  }

  /**
   * {@code writetime(c)}, {@code maxwritetime(c)} or {@code ttl(c)}, where {@code c} is a column,
   * possibly with a field or element selection ({@code writetime(m['k'])}).
   *
   * @param kind which metadata
   * @param column the column, a {@link Column} or a {@link Field}/{@link Element}/{@link Slice} of
   *     one
   * @param position where it was written
   */
  record WritetimeOrTtl(MetadataKind kind, Selector column, SourcePosition position)
      implements Selector {}

  /**
   * {@code CAST(selector AS type)}.
   *
   * @param selector what to convert
   * @param type the native type to convert to
   * @param position where it was written
   */
  record Cast(Selector selector, CqlType.Native type, SourcePosition position)
      implements Selector {}

  /**
   * {@code receiver.field}: a field of a UDT value.
   *
   * @param receiver the UDT-valued selector
   * @param field the field
   */
  record Field(Selector receiver, Identifier field) implements Selector {
    @Override
    public SourcePosition position() {
      return receiver.position();
    }
  }

  /**
   * {@code receiver[key]}: one element of a map or set (or list).
   *
   * @param receiver the collection-valued selector
   * @param key the element's key
   */
  record Element(Selector receiver, Term key) implements Selector {
    @Override
    public SourcePosition position() {
      return receiver.position();
    }
  }

  /**
   * {@code receiver[from..to]}, {@code receiver[from..]} or {@code receiver[..to]}: a slice of a
   * map or set, bounds inclusive.
   *
   * @param receiver the collection-valued selector
   * @param from the lower bound, or null when open
   * @param to the upper bound, or null when open
   */
  record Slice(Selector receiver, Term from, Term to) implements Selector {
    @Override
    public SourcePosition position() {
      return receiver.position();
    }
  }

  /**
   * {@code left op right}.
   *
   * @param operator the operator
   * @param left the left operand
   * @param right the right operand
   */
  record Arithmetic(ArithmeticOperator operator, Selector left, Selector right)
      implements Selector {
    @Override
    public SourcePosition position() {
      return left.position();
    }
  }

  /**
   * {@code -selector}.
   *
   * @param operand the negated selector
   * @param position where the minus sign was written
   */
  record Negation(Selector operand, SourcePosition position) implements Selector {}

  /**
   * {@code (type) selector}, e.g. {@code (int) ?}.
   *
   * @param type the type
   * @param selector the selector
   * @param position where it was written
   */
  record TypeHint(CqlType type, Selector selector, SourcePosition position) implements Selector {}

  /**
   * {@code (s1, s2, ...)} with at least two elements (one selector in parentheses is just that
   * selector).
   *
   * @param elements the elements
   * @param position where it was written
   */
  record TupleOf(List<Selector> elements, SourcePosition position) implements Selector {
    public TupleOf {
      elements = List.copyOf(elements);
    }
  }

  /**
   * {@code [s1, s2, ...]}.
   *
   * @param elements the elements
   * @param position where it was written
   */
  record ListOf(List<Selector> elements, SourcePosition position) implements Selector {
    public ListOf {
      elements = List.copyOf(elements);
    }
  }

  /**
   * {@code {s1, s2, ...}}, and {@code {}}.
   *
   * @param elements the elements
   * @param position where it was written
   */
  record SetOf(List<Selector> elements, SourcePosition position) implements Selector {
    public SetOf {
      elements = List.copyOf(elements);
    }
  }

  /**
   * {@code {k1: v1, ...}}: a map, or a UDT value when the keys are field names (decided once the
   * receiver's type is known, as in Cassandra).
   *
   * @param entries the entries
   * @param position where it was written
   */
  record MapOf(List<Entry> entries, SourcePosition position) implements Selector {
    public MapOf {
      entries = List.copyOf(entries);
    }
  }

  /**
   * One {@code key: value} of a {@link MapOf}.
   *
   * @param key the key
   * @param value the value
   */
  record Entry(Selector key, Selector value) {}
}
