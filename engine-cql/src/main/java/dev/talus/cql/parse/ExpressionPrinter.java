package dev.talus.cql.parse;

import dev.talus.cql.parse.ast.ArithmeticOperator;
import dev.talus.cql.parse.ast.ColumnRef;
import dev.talus.cql.parse.ast.Condition;
import dev.talus.cql.parse.ast.CqlType;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.InValues;
import dev.talus.cql.parse.ast.LiteralKind;
import dev.talus.cql.parse.ast.Properties;
import dev.talus.cql.parse.ast.Property;
import dev.talus.cql.parse.ast.PropertyValue;
import dev.talus.cql.parse.ast.QualifiedName;
import dev.talus.cql.parse.ast.Relation;
import dev.talus.cql.parse.ast.Selector;
import dev.talus.cql.parse.ast.Term;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Prints names, types, terms, selectors, relations, conditions and options as canonical CQL:
 * keywords in upper case, names quoted only where CQL needs it, one space around operators. What it
 * prints parses back to an equal tree.
 */
final class ExpressionPrinter {
  private static final Pattern BARE = Pattern.compile("[a-z][a-z0-9_]*");
  private static final Set<String> LITERAL_WORDS = Set.of("true", "false");
  private static final Set<String> RESERVED_TYPE_NAMES =
      Set.of("byte", "complex", "enum", "date", "interval", "macaddr", "bitstring");

  private ExpressionPrinter() {}

  // ---- names ----

  /** A column, table, keyspace, field, alias, option or marker name. */
  static String name(String n) {
    if (BARE.matcher(n).matches() && !LITERAL_WORDS.contains(n)) {
      Keyword k = Keyword.lookup(n);
      if (k == null || k.usableAsName()) {
        return n;
      }
    }
    return quote(n);
  }

  static String name(Identifier id) {
    return name(id.name());
  }

  /** A column in a selector: {@code json} and {@code distinct} would read as modifiers. */
  static String selectorColumn(Identifier id) {
    String n = id.name();
    return n.equals("json") || n.equals("distinct") ? quote(n) : name(n);
  }

  static String typeName(String n) {
    if (BARE.matcher(n).matches()
        && !LITERAL_WORDS.contains(n)
        && !RESERVED_TYPE_NAMES.contains(n)) {
      Keyword k = Keyword.lookup(n);
      if (k == null || k.usableAsTypeName()) {
        return n;
      }
    }
    return quote(n);
  }

  static String functionName(QualifiedName fn) {
    String n = fn.name().name();
    String printed = n;
    if (!BARE.matcher(n).matches() || LITERAL_WORDS.contains(n)) {
      printed = quote(n);
    } else {
      Keyword k = Keyword.lookup(n);
      if (k != null && !k.usableAsFunctionName()) {
        printed = quote(n);
      }
    }
    return fn.keyspace() == null ? printed : name(fn.keyspace()) + "." + printed;
  }

  static String quote(String n) {
    return "\"" + n.replace("\"", "\"\"") + "\"";
  }

  static String qualified(QualifiedName q) {
    return q.keyspace() == null ? name(q.name()) : name(q.keyspace()) + "." + name(q.name());
  }

  static String string(String s) {
    return "'" + s.replace("'", "''") + "'";
  }

  static <T> String join(List<T> items, Function<T, String> f) {
    return items.stream().map(f).collect(Collectors.joining(", "));
  }

  // ---- types ----

  static String type(CqlType t) {
    if (t instanceof CqlType.Native n) {
      return n.type().cqlName();
    } else if (t instanceof CqlType.ListOf l) {
      return "list<" + type(l.element()) + ">";
    } else if (t instanceof CqlType.SetOf s) {
      return "set<" + type(s.element()) + ">";
    } else if (t instanceof CqlType.MapOf m) {
      return "map<" + type(m.key()) + ", " + type(m.value()) + ">";
    } else if (t instanceof CqlType.Frozen f) {
      return "frozen<" + type(f.inner()) + ">";
    } else if (t instanceof CqlType.TupleOf tu) {
      return "tuple<" + join(tu.elements(), ExpressionPrinter::type) + ">";
    } else if (t instanceof CqlType.VectorOf v) {
      return "vector<" + type(v.element()) + ", " + v.dimension() + ">";
    } else if (t instanceof CqlType.UserDefined u) {
      QualifiedName q = u.name();
      String n = typeName(q.name().name());
      return q.keyspace() == null ? n : name(q.keyspace()) + "." + n;
    } else {
      return string(((CqlType.Custom) t).className());
    }
  }

  // ---- terms ----

  static String term(Term t) {
    if (t instanceof Term.Literal l) {
      return l.kind() == LiteralKind.STRING ? string(l.text()) : l.text();
    } else if (t instanceof Term.Null) {
      return "NULL";
    } else if (t instanceof Term.BindMarker m) {
      return m.name() == null ? "?" : ":" + name(m.name());
    } else if (t instanceof Term.ListLiteral l) {
      return "[" + join(l.elements(), ExpressionPrinter::term) + "]";
    } else if (t instanceof Term.SetLiteral s) {
      return "{" + join(s.elements(), ExpressionPrinter::term) + "}";
    } else if (t instanceof Term.MapLiteral m) {
      return "{" + join(m.entries(), e -> term(e.key()) + ": " + term(e.value())) + "}";
    } else if (t instanceof Term.UdtLiteral u) {
      return "{" + join(u.fields(), f -> name(f.field()) + ": " + term(f.value())) + "}";
    } else if (t instanceof Term.TupleLiteral tu) {
      return "(" + join(tu.elements(), ExpressionPrinter::term) + ")";
    } else if (t instanceof Term.FunctionCall f) {
      return functionName(f.name()) + "(" + join(f.arguments(), ExpressionPrinter::term) + ")";
    } else if (t instanceof Term.TypeHint h) {
      return "(" + type(h.type()) + ") " + term(h.term());
    } else if (t instanceof Term.Cast c) {
      return "CAST(" + term(c.term()) + " AS " + type(c.type()) + ")";
    } else if (t instanceof Term.Arithmetic a) {
      // Terms have no grouping parentheses (they would make a tuple), and parsing only ever
      // builds left-deep trees with tighter operators below: no parentheses are needed.
      return term(a.left()) + " " + a.operator().symbol() + " " + term(a.right());
    } else {
      return "- " + term(((Term.Negation) t).operand());
    }
  }

  // ---- selectors ----

  static String selector(Selector s) {
    if (s instanceof Selector.Column c) {
      return selectorColumn(c.name());
    } else if (s instanceof Selector.Value v) {
      return term(v.term());
    } else if (s instanceof Selector.FunctionCall f) {
      return functionName(f.name()) + "(" + join(f.arguments(), ExpressionPrinter::selector) + ")";
    } else if (s instanceof Selector.CountRows) {
      return "count(*)";
    } else if (s instanceof Selector.WritetimeOrTtl w) {
      return w.kind().cql() + "(" + selector(w.column()) + ")";
    } else if (s instanceof Selector.Cast c) {
      return "CAST(" + selector(c.selector()) + " AS " + type(c.type()) + ")";
    } else if (s instanceof Selector.Field f) {
      String receiver = receiver(f.receiver());
      // "7.f" would lex as the float "7." and then f: keep the dot apart from a number
      char last = receiver.charAt(receiver.length() - 1);
      String dot = Character.isDigit(last) || last == '.' ? " ." : ".";
      return receiver + dot + name(f.field());
    } else if (s instanceof Selector.Element e) {
      return receiver(e.receiver()) + "[" + term(e.key()) + "]";
    } else if (s instanceof Selector.Slice sl) {
      return receiver(sl.receiver())
          + "["
          + (sl.from() == null ? "" : term(sl.from()))
          + ".."
          + (sl.to() == null ? "" : term(sl.to()))
          + "]";
    } else if (s instanceof Selector.Arithmetic a) {
      ArithmeticOperator op = a.operator();
      String left = selector(a.left());
      if (a.left() instanceof Selector.Arithmetic l
          && l.operator().precedence() < op.precedence()) {
        left = "(" + left + ")";
      }
      String right = selector(a.right());
      if (a.right() instanceof Selector.Arithmetic r
          && r.operator().precedence() <= op.precedence()) {
        right = "(" + right + ")";
      }
      return left + " " + op.symbol() + " " + right;
    } else if (s instanceof Selector.Negation n) {
      String operand = selector(n.operand());
      return n.operand() instanceof Selector.Arithmetic ? "- (" + operand + ")" : "- " + operand;
    } else if (s instanceof Selector.TypeHint h) {
      String operand = selector(h.selector());
      return "("
          + type(h.type())
          + ") "
          + (isPrimary(h.selector()) ? operand : "(" + operand + ")");
    } else if (s instanceof Selector.TupleOf t) {
      return "(" + join(t.elements(), ExpressionPrinter::selector) + ")";
    } else if (s instanceof Selector.ListOf l) {
      return "[" + join(l.elements(), ExpressionPrinter::selector) + "]";
    } else if (s instanceof Selector.SetOf st) {
      return "{" + join(st.elements(), ExpressionPrinter::selector) + "}";
    } else {
      Selector.MapOf m = (Selector.MapOf) s;
      return "{" + join(m.entries(), e -> selector(e.key()) + ": " + selector(e.value())) + "}";
    }
  }

  /** A selector that parses as Cassandra's selectionGroupWithoutField. */
  private static boolean isPrimary(Selector s) {
    return !(s instanceof Selector.Arithmetic
        || s instanceof Selector.Negation
        || s instanceof Selector.Field
        || s instanceof Selector.Element
        || s instanceof Selector.Slice);
  }

  /** A selector before {@code .field} or {@code [key]}: operations need parentheses. */
  private static String receiver(Selector s) {
    String printed = selector(s);
    return s instanceof Selector.Arithmetic || s instanceof Selector.Negation
        ? "(" + printed + ")"
        : printed;
  }

  // ---- relations and conditions ----

  static String relation(Relation r) {
    if (r instanceof Relation.Compare c) {
      return name(c.column()) + " " + c.operator().cql() + " " + term(c.value());
    } else if (r instanceof Relation.MapElement m) {
      return name(m.column())
          + "["
          + term(m.key())
          + "] "
          + m.operator().cql()
          + " "
          + term(m.value());
    } else if (r instanceof Relation.In in) {
      return name(in.column()) + " IN " + inValues(in.values());
    } else if (r instanceof Relation.IsNotNull n) {
      return name(n.column()) + " IS NOT NULL";
    } else if (r instanceof Relation.Token t) {
      return "token("
          + join(t.columns(), ExpressionPrinter::name)
          + ") "
          + t.operator().cql()
          + " "
          + term(t.value());
    } else if (r instanceof Relation.MultiColumn m) {
      return "("
          + join(m.columns(), ExpressionPrinter::name)
          + ") "
          + m.operator().cql()
          + " "
          + term(m.value());
    } else if (r instanceof Relation.MultiColumnIn m) {
      return "(" + join(m.columns(), ExpressionPrinter::name) + ") IN " + inValues(m.values());
    } else {
      Relation.CustomIndexExpression e = (Relation.CustomIndexExpression) r;
      return "expr(" + qualified(e.index()) + ", " + term(e.value()) + ")";
    }
  }

  static String inValues(InValues v) {
    if (v instanceof InValues.Marker m) {
      return term(m.marker());
    }
    return "(" + join(((InValues.Listed) v).terms(), ExpressionPrinter::term) + ")";
  }

  static String columnRef(ColumnRef c) {
    if (c instanceof ColumnRef.Element e) {
      return name(e.column()) + "[" + term(e.key()) + "]";
    } else if (c instanceof ColumnRef.Field f) {
      return name(f.column()) + "." + name(f.field());
    }
    return name(c.column());
  }

  static String condition(Condition c) {
    if (c instanceof Condition.In in) {
      return columnRef(in.target()) + " IN " + inValues(in.values());
    }
    Condition.Compare cmp = (Condition.Compare) c;
    return columnRef(cmp.target()) + " " + cmp.operator().cql() + " " + term(cmp.value());
  }

  // ---- options ----

  static String properties(Properties p, String separator) {
    return p.properties().stream()
        .map(ExpressionPrinter::property)
        .collect(Collectors.joining(separator));
  }

  static String property(Property p) {
    return name(p.name()) + " = " + propertyValue(p.value());
  }

  static String propertyValue(PropertyValue v) {
    if (v instanceof PropertyValue.Constant c) {
      return term(c.literal());
    } else if (v instanceof PropertyValue.Word w) {
      return w.word();
    }
    PropertyValue.MapValue m = (PropertyValue.MapValue) v;
    return "{" + join(m.entries(), e -> term(e.key()) + ": " + term(e.value())) + "}";
  }
}
