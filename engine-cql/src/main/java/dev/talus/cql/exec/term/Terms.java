package dev.talus.cql.exec.term;

import dev.talus.DataType;
import dev.talus.ResultRow;
import dev.talus.cql.ColumnType;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Receiver;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.parse.CqlPrinter;
import dev.talus.cql.parse.ast.CqlType;
import dev.talus.cql.parse.ast.NativeType;
import dev.talus.cql.parse.ast.SourcePosition;
import dev.talus.cql.parse.ast.Term;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Prepares the terms of a statement — constants, {@code NULL}, bind markers, function calls, type
 * hints, casts — against their receivers: a constant becomes its value once (Cassandra's assignment
 * rules: {@code Invalid STRING constant (x) for "k" of type int}), a bind marker learns its type
 * and checks what is bound to it at each execution. Static, thread-safe.
 */
public final class Terms {
  private Terms() {}

  /** True if a value of type {@code from} can be assigned to a receiver of type {@code to}. */
  public static boolean assignable(DataType from, DataType to) {
    return from == to || (from == DataType.ASCII && to == DataType.TEXT);
  }

  /** The native type a parsed type names; a collection or other type is not supported yet. */
  public static DataType nativeType(CqlType type, PrepareContext pc) {
    if (type instanceof CqlType.Native n) {
      return nativeType(n.type());
    }
    throw Types.unsupported(type, pc);
  }

  static DataType nativeType(NativeType t) {
    return switch (t) {
      case VARCHAR, TEXT -> DataType.TEXT;
      case COUNTER -> null;
      default -> DataType.valueOf(t.name());
    };
  }

  /** Prepares {@code term} as a value for {@code receiver} (a native type). */
  public static Operand prepare(Term term, Receiver receiver, PrepareContext pc) {
    Source src = pc.source();
    DataType type = receiver.dataType();
    if (type != null && !type.isNative() && !isGeneric(term)) {
      return Composites.prepare(term, receiver, pc);
    }
    if (term instanceof Term.Literal l) {
      if (!Values.accepts(type, l.kind())) {
        throw src.invalid(
            l.position(),
            Math.max(1, l.text().length()),
            "Invalid "
                + l.kind()
                + " constant ("
                + l.text()
                + ") for \""
                + receiver.name()
                + "\" of type "
                + type.cqlName());
      }
      try {
        return Operand.constant(Values.literal(type, l.kind(), l.text()), ColumnType.of(type));
      } catch (IllegalArgumentException e) {
        throw src.invalid(
            l.position(),
            Math.max(1, l.text().length()),
            "Invalid "
                + l.kind()
                + " constant ("
                + l.text()
                + ") for \""
                + receiver.name()
                + "\" of type "
                + type.cqlName()
                + ": "
                + e.getMessage());
      }
    }
    if (term instanceof Term.Null) {
      return Operand.constant(null, receiver.type());
    }
    if (term instanceof Term.BindMarker m) {
      pc.bind(m, receiver);
      return new Marker(m.index(), receiver, src, m.position());
    }
    if (term instanceof Term.FunctionCall f) {
      if (Functions.nameOf(f.name(), pc).equals("fromjson")) {
        return fromJson(f, receiver, pc);
      }
      return Functions.call(f.name(), f.position(), args(f.arguments(), pc), type, pc);
    }
    if (term instanceof Term.TypeHint h) {
      DataType hinted = nativeType(h.type(), pc);
      if (!assignable(hinted, type)) {
        throw src.invalid(
            h.position(),
            "Cannot assign a value of type "
                + hinted.cqlName()
                + " to \""
                + receiver.name()
                + "\" of type "
                + type.cqlName());
      }
      return prepare(h.term(), receiver.as(receiver.name(), ColumnType.of(hinted)), pc);
    }
    if (term instanceof Term.Cast c) {
      return cast(c, receiver, pc);
    }
    if (term instanceof Term.ListLiteral) {
      throw literalFor("list", term.position(), receiver, src);
    }
    if (term instanceof Term.SetLiteral) {
      throw literalFor("set", term.position(), receiver, src);
    }
    if (term instanceof Term.MapLiteral) {
      throw literalFor("map", term.position(), receiver, src);
    }
    if (term instanceof Term.TupleLiteral) {
      throw literalFor("tuple type", term.position(), receiver, src);
    }
    if (term instanceof Term.UdtLiteral) {
      throw literalFor("user type", term.position(), receiver, src);
    }
    if (term instanceof Term.Arithmetic a) {
      throw src.notYet(
          a.position(),
          1,
          "arithmetic on terms (" + a.operator().symbol() + ")",
          "compute the value in the application");
    }
    throw src.notYet(
        term.position(), 1, "arithmetic on terms (unary -)", "write a negative constant");
  }

  /** Terms prepared the same way whatever their receiver's type: NULL, markers, fromJson. */
  private static boolean isGeneric(Term term) {
    return term instanceof Term.Null
        || term instanceof Term.BindMarker
        || (term instanceof Term.FunctionCall f && f.name().name().name().equals("fromjson"));
  }

  private static RuntimeException literalFor(
      String kind, SourcePosition at, Receiver receiver, Source src) {
    // a composite receiver takes its literals in Composites: this one is a native type's
    return src.invalid(
        at,
        "Invalid "
            + kind
            + " literal for "
            + receiver.name()
            + " of type "
            + receiver.type().cql());
  }

  private static Operand cast(Term.Cast c, Receiver receiver, PrepareContext pc) {
    DataType to = nativeType(c.type().type());
    if (to == null) {
      throw Types.unsupported(c.type(), pc);
    }
    ColumnType known = knownType(c.term());
    DataType from;
    if (known instanceof ColumnType.Native n) {
      from = n.type();
    } else if (c.term() instanceof Term.Literal l) {
      from = Values.naturalType(l.kind(), l.text());
    } else {
      throw pc.source()
          .invalid(c.position(), "Cannot infer the type of the value of CAST; add a type hint");
    }
    UnaryOperator<Object> conversion = Casts.of(from, to);
    if (conversion == null) {
      throw pc.source()
          .invalid(
              c.position(),
              "Cannot cast a value of type " + from.cqlName() + " to " + to.cqlName());
    }
    if (receiver != null && receiver.dataType() != null && !assignable(to, receiver.dataType())) {
      throw pc.source()
          .invalid(
              c.position(),
              "Type error: cannot assign a value of type "
                  + to.cqlName()
                  + " to \""
                  + receiver.name()
                  + "\" of type "
                  + receiver.dataType().cqlName());
    }
    Operand inner = prepare(c.term(), Receiver.of("cast", from), pc);
    Operand op = new Converted(inner, conversion, ColumnType.of(to));
    return inner.isConstant() ? Operand.constant(op.eval(null, null), op.type()) : op;
  }

  private static Operand fromJson(Term.FunctionCall f, Receiver receiver, PrepareContext pc) {
    if (f.arguments().size() != 1) {
      throw pc.source()
          .invalid(
              f.position(),
              "Invalid number of arguments in call to function fromjson: 1 required but "
                  + f.arguments().size()
                  + " provided");
    }
    Operand json = prepare(f.arguments().get(0), Receiver.of("fromjson", DataType.TEXT), pc);
    DataType type = receiver.dataType();
    Source src = pc.source();
    Operand op =
        new Operand() {
          @Override
          public Object eval(ExecContext ctx, ResultRow row) {
            Object text = json.eval(ctx, row);
            if (text == null || text == ExecContext.UNSET) {
              return text;
            }
            try {
              return Json.toValue(type, Json.parse((String) text));
            } catch (IllegalArgumentException e) {
              throw src.invalid(
                  f.position(),
                  "Error decoding JSON value for " + receiver.name() + ": " + e.getMessage());
            }
          }

          @Override
          public ColumnType type() {
            return receiver.type();
          }
        };
    return json.isConstant() ? Operand.constant(op.eval(null, null), op.type()) : op;
  }

  /** The type a term has on its own, or null when it takes its receiver's. */
  static ColumnType knownType(Term t) {
    if (t instanceof Term.TypeHint h) {
      return h.type() instanceof CqlType.Native n && nativeType(n.type()) != null
          ? ColumnType.of(nativeType(n.type()))
          : null;
    }
    if (t instanceof Term.Cast c) {
      return nativeType(c.type().type()) == null
          ? null
          : ColumnType.of(nativeType(c.type().type()));
    }
    if (t instanceof Term.FunctionCall f) {
      DataType r =
          f.name().keyspace() == null || f.name().keyspace().name().equals("system")
              ? Functions.returnType(f.name().name().name(), f.arguments().size())
              : null;
      return r == null ? null : ColumnType.of(r);
    }
    return null;
  }

  /** The arguments of a call written in a term. */
  static List<Arg> args(List<Term> terms, PrepareContext pc) {
    List<Arg> out = new ArrayList<>(terms.size());
    for (Term t : terms) {
      out.add(
          new Arg() {
            @Override
            public SourcePosition position() {
              return t.position();
            }

            @Override
            public ColumnType knownType() {
              return Terms.knownType(t);
            }

            @Override
            public boolean accepts(DataType type) {
              if (t instanceof Term.Literal l) {
                return Values.accepts(type, l.kind());
              }
              return t instanceof Term.Null || t instanceof Term.BindMarker;
            }

            @Override
            public Operand prepare(Receiver receiver) {
              return Terms.prepare(t, receiver, pc);
            }

            @Override
            public String text() {
              return CqlPrinter.print(t);
            }
          });
    }
    return out;
  }

  /**
   * A bind marker: its value is read from the execution and checked against its type (a list of
   * values for {@code IN ?}).
   */
  public record Marker(int index, Receiver receiver, Source source, SourcePosition at)
      implements Operand {
    @Override
    public Object eval(ExecContext ctx, ResultRow row) {
      Object v = ctx.value(index);
      if (v == null || v == ExecContext.UNSET) {
        return v;
      }
      ColumnType t = receiver.type();
      if (t instanceof ColumnType.Native n) {
        if (!Values.bindable(n.type(), v)) {
          throw mismatch(n.type(), v);
        }
        return v;
      }
      if (t instanceof ColumnType.ListOf l && l.element() instanceof ColumnType.Native n) {
        if (!(v instanceof Collection<?> c)) {
          throw mismatch(null, v);
        }
        for (Object e : c) {
          if (e == null) {
            throw source.invalid(
                at, 1, "Invalid null value in the list bound to " + receiver.name());
          }
          if (!Values.bindable(n.type(), e)) {
            throw mismatch(n.type(), e);
          }
        }
        return List.copyOf(c);
      }
      return v;
    }

    private RuntimeException mismatch(DataType element, Object v) {
      String expected =
          element == null
              ? "a java.util.List of values"
              : element.javaType().getName()
                  + (receiver.type() instanceof ColumnType.ListOf ? " in a java.util.List" : "");
      return source.invalid(
          at,
          1,
          "Invalid value for bind marker "
              + index
              + " ("
              + receiver.name()
              + " of type "
              + receiver.type().cql()
              + "): expected "
              + expected
              + ", got "
              + v.getClass().getName());
    }

    @Override
    public ColumnType type() {
      return receiver.type();
    }
  }

  /** A value converted by a cast. */
  record Converted(Operand inner, UnaryOperator<Object> conversion, ColumnType type)
      implements Operand {
    @Override
    public Object eval(ExecContext ctx, ResultRow row) {
      Object v = inner.eval(ctx, row);
      return v == null || v == ExecContext.UNSET ? v : conversion.apply(v);
    }
  }
}
