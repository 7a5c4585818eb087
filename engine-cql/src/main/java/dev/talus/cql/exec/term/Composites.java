package dev.talus.cql.exec.term;

import dev.talus.DataType;
import dev.talus.ResultRow;
import dev.talus.TupleValue;
import dev.talus.UdtValue;
import dev.talus.UserType;
import dev.talus.cql.ColumnType;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Receiver;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.parse.ast.SourcePosition;
import dev.talus.cql.parse.ast.Term;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The terms of Cassandra's composite types — {@code [..]} lists and vectors, {@code {..}} sets,
 * {@code {k: v}} maps, {@code (..)} tuples and {@code {f: v}} user-type values — prepared against a
 * receiver of such a type: every element is prepared against the element's type (so constants
 * become values once, and a bind marker inside a literal learns its element type, named as
 * Cassandra names it: {@code value(c)}, {@code key(c)}, {@code c[i]}, {@code c.f}). A literal of
 * constants is a constant; one holding markers is built at each execution. Null elements inside
 * collections are refused as in Cassandra. Static, thread-safe.
 */
final class Composites {
  private Composites() {}

  /** Prepares {@code term} for a receiver of a composite type ({@code !type.isNative()}). */
  static Operand prepare(Term term, Receiver receiver, PrepareContext pc) {
    DataType type = receiver.dataType();
    Source src = pc.source();
    String name = receiver.name();
    switch (type.kind()) {
      case LIST, VECTOR -> {
        if (term instanceof Term.ListLiteral l) {
          return list(l, receiver, pc);
        }
      }
      case SET -> {
        if (term instanceof Term.SetLiteral s) {
          Receiver e = receiver.as("value(" + name + ")", ColumnType.of(type.elementType()));
          return build(
              elements(s.elements(), e, pc),
              receiver,
              s.position(),
              src,
              true,
              v -> Collections.unmodifiableSet(new LinkedHashSet<>(v)));
        }
      }
      case MAP -> {
        if (term instanceof Term.SetLiteral s && s.elements().isEmpty()) {
          return Operand.constant(Map.of(), receiver.type());
        }
        if (term instanceof Term.MapLiteral m) {
          return map(m, receiver, pc);
        }
      }
      case TUPLE -> {
        if (term instanceof Term.TupleLiteral t) {
          return tuple(t, receiver, pc);
        }
      }
      case UDT -> {
        if (term instanceof Term.UdtLiteral u) {
          return udt(u, receiver, pc);
        }
      }
      default -> {}
    }
    String kind =
        term instanceof Term.ListLiteral
            ? "list"
            : term instanceof Term.SetLiteral
                ? "set"
                : term instanceof Term.MapLiteral
                    ? "map"
                    : term instanceof Term.TupleLiteral
                        ? "tuple"
                        : term instanceof Term.UdtLiteral ? "user type" : null;
    if (kind != null) {
      throw src.invalid(
          term.position(),
          "Invalid " + kind + " literal for " + name + " of type " + type.cqlName());
    }
    if (term instanceof Term.Literal l) {
      throw src.invalid(
          l.position(),
          Math.max(1, l.text().length()),
          "Invalid "
              + l.kind()
              + " constant ("
              + l.text()
              + ") for \""
              + name
              + "\" of type "
              + type.cqlName());
    }
    throw src.invalid(
        term.position(), "Cannot assign this value to " + name + " of type " + type.cqlName());
  }

  private static Operand list(Term.ListLiteral l, Receiver receiver, PrepareContext pc) {
    DataType type = receiver.dataType();
    Receiver e = receiver.as("value(" + receiver.name() + ")", ColumnType.of(type.elementType()));
    List<Operand> ops = elements(l.elements(), e, pc);
    if (type.kind() == DataType.Kind.VECTOR) {
      if (ops.size() != type.dimension()) {
        throw pc.source()
            .invalid(
                l.position(),
                "Invalid vector literal for "
                    + receiver.name()
                    + " of type "
                    + type.cqlName()
                    + "; expected "
                    + type.dimension()
                    + " elements, but given "
                    + ops.size());
      }
      boolean floats = type.elementType().equals(DataType.FLOAT);
      return build(
          ops,
          receiver,
          l.position(),
          pc.source(),
          true,
          v -> {
            if (!floats) {
              return List.copyOf(v);
            }
            float[] f = new float[v.size()];
            for (int i = 0; i < f.length; i++) {
              f[i] = ((Number) v.get(i)).floatValue();
            }
            return f;
          });
    }
    return build(ops, receiver, l.position(), pc.source(), true, List::copyOf);
  }

  private static Operand map(Term.MapLiteral m, Receiver receiver, PrepareContext pc) {
    DataType type = receiver.dataType();
    Receiver k = receiver.as("key(" + receiver.name() + ")", ColumnType.of(type.elementType()));
    Receiver v = receiver.as("value(" + receiver.name() + ")", ColumnType.of(type.valueType()));
    List<Operand> ops = new ArrayList<>();
    for (Term.MapEntry e : m.entries()) {
      ops.add(Terms.prepare(e.key(), k, pc));
      ops.add(Terms.prepare(e.value(), v, pc));
    }
    return build(
        ops,
        receiver,
        m.position(),
        pc.source(),
        true,
        vals -> {
          Map<Object, Object> out = new LinkedHashMap<>();
          for (int i = 0; i < vals.size(); i += 2) {
            out.put(vals.get(i), vals.get(i + 1));
          }
          return Collections.unmodifiableMap(out);
        });
  }

  private static Operand tuple(Term.TupleLiteral t, Receiver receiver, PrepareContext pc) {
    List<DataType> parts = receiver.dataType().componentTypes();
    if (t.elements().size() > parts.size()) {
      throw pc.source()
          .invalid(
              t.position(),
              "Invalid tuple literal for "
                  + receiver.name()
                  + ": too many elements. Type "
                  + receiver.dataType().cqlName()
                  + " expects "
                  + parts.size()
                  + " but got "
                  + t.elements().size());
    }
    List<Operand> ops = new ArrayList<>();
    for (int i = 0; i < t.elements().size(); i++) {
      Receiver r = receiver.as(receiver.name() + "[" + i + "]", ColumnType.of(parts.get(i)));
      ops.add(Terms.prepare(t.elements().get(i), r, pc));
    }
    int size = parts.size();
    return build(
        ops,
        receiver,
        t.position(),
        pc.source(),
        false,
        v -> {
          List<Object> all = new ArrayList<>(v);
          while (all.size() < size) {
            all.add(null);
          }
          return TupleValue.of(all);
        });
  }

  private static Operand udt(Term.UdtLiteral u, Receiver receiver, PrepareContext pc) {
    UserType type = receiver.dataType().userType();
    List<String> fields = new ArrayList<>();
    List<Operand> ops = new ArrayList<>();
    for (Term.FieldValue f : u.fields()) {
      String field = f.field().name();
      int i = type.fieldIndex(field);
      if (i < 0) {
        throw pc.source()
            .invalid(
                f.field(),
                "Unknown field '" + field + "' in value of user defined type " + type.name());
      }
      if (fields.contains(field)) {
        throw pc.source().invalid(f.field(), "Duplicate field '" + field + "' in UDT literal");
      }
      fields.add(field);
      Receiver r =
          receiver.as(receiver.name() + "." + field, ColumnType.of(type.fieldTypes().get(i)));
      ops.add(Terms.prepare(f.value(), r, pc));
    }
    return build(
        ops,
        receiver,
        u.position(),
        pc.source(),
        false,
        v -> {
          Map<String, Object> m = new LinkedHashMap<>();
          for (int i = 0; i < v.size(); i++) {
            m.put(fields.get(i), v.get(i));
          }
          return UdtValue.of(type, m);
        });
  }

  private static List<Operand> elements(List<Term> terms, Receiver r, PrepareContext pc) {
    List<Operand> out = new ArrayList<>(terms.size());
    for (Term t : terms) {
      out.add(Terms.prepare(t, r, pc));
    }
    return out;
  }

  private static Operand build(
      List<Operand> parts,
      Receiver receiver,
      SourcePosition at,
      Source src,
      boolean collection,
      Function<List<Object>, Object> make) {
    Operand op = new Built(List.copyOf(parts), receiver.type(), at, src, collection, make);
    return parts.stream().allMatch(Operand::isConstant)
        ? Operand.constant(op.eval(null, null), receiver.type())
        : op;
  }

  /** A composite value built from its elements' values at each execution. */
  private record Built(
      List<Operand> parts,
      ColumnType type,
      SourcePosition at,
      Source src,
      boolean collection,
      Function<List<Object>, Object> make)
      implements Operand {
    @Override
    public Object eval(ExecContext ctx, ResultRow row) {
      List<Object> values = new ArrayList<>(parts.size());
      for (Operand p : parts) {
        Object v = p.eval(ctx, row);
        if (v == ExecContext.UNSET) {
          throw src.invalid(at, 1, "Invalid unset value in a " + type.cql() + " literal");
        }
        if (v == null && collection) {
          throw src.invalid(at, 1, "null is not supported inside collections");
        }
        values.add(v);
      }
      return make.apply(values);
    }
  }
}
