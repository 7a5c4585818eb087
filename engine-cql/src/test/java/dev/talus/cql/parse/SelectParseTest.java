package dev.talus.cql.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.cql.parse.ast.ArithmeticOperator;
import dev.talus.cql.parse.ast.CqlType;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.InValues;
import dev.talus.cql.parse.ast.LiteralKind;
import dev.talus.cql.parse.ast.NativeType;
import dev.talus.cql.parse.ast.Operator;
import dev.talus.cql.parse.ast.Ordering;
import dev.talus.cql.parse.ast.QualifiedName;
import dev.talus.cql.parse.ast.Relation;
import dev.talus.cql.parse.ast.SelectStatement;
import dev.talus.cql.parse.ast.Selector;
import dev.talus.cql.parse.ast.SourcePosition;
import dev.talus.cql.parse.ast.Term;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SELECT: the syntax tree of each clause. */
class SelectParseTest {
  private static final SourcePosition P = SourcePosition.NONE;

  private static Identifier id(String n) {
    return Identifier.of(n);
  }

  private static Selector col(String n) {
    return new Selector.Column(id(n));
  }

  private static Term.Literal integer(String text) {
    return new Term.Literal(LiteralKind.INTEGER, text, P);
  }

  private static SelectStatement select(String cql) {
    return Cql.parse(cql, SelectStatement.class);
  }

  private static Selector only(String selectorText) {
    return select("SELECT " + selectorText + " FROM t").selectors().get(0).selector();
  }

  private static Relation where(String relation) {
    return select("SELECT * FROM t WHERE " + relation).where().get(0);
  }

  @Test
  void theClausesOfASelect() {
    SelectStatement s =
        select(
            "SELECT JSON DISTINCT k AS key FROM ks.t WHERE k = 1 GROUP BY k ORDER BY c DESC"
                + " PER PARTITION LIMIT 2 LIMIT ? ALLOW FILTERING");
    assertThat(s.json()).isTrue();
    assertThat(s.distinct()).isTrue();
    assertThat(s.selectors()).hasSize(1);
    assertThat(s.selectors().get(0).alias()).isEqualTo(id("key"));
    assertThat(s.table()).isEqualTo(new QualifiedName(id("ks"), id("t")));
    assertThat(s.where()).containsExactly(new Relation.Compare(id("k"), Operator.EQ, integer("1")));
    assertThat(s.groupBy()).containsExactly(col("k"));
    assertThat(s.orderBy()).containsExactly(new Ordering(id("c"), null, true));
    assertThat(s.perPartitionLimit()).isEqualTo(integer("2"));
    assertThat(s.limit()).isEqualTo(new Term.BindMarker(0, null, P));
    assertThat(s.allowFiltering()).isTrue();
    SelectStatement bare = select("SELECT * FROM t");
    assertThat(bare.isWildcard()).isTrue();
    assertThat(bare.json() || bare.distinct() || bare.allowFiltering()).isFalse();
    assertThat(bare.where()).isEmpty();
    assertThat(bare.limit()).isNull();
  }

  @Test
  void jsonAndDistinctAreColumnsWhenNothingSelectableFollows() {
    assertThat(select("SELECT json FROM t").json()).isFalse();
    assertThat(select("SELECT json FROM t").selectors().get(0).selector()).isEqualTo(col("json"));
    assertThat(select("SELECT distinct, json FROM t").distinct()).isFalse();
    assertThat(select("SELECT json AS j FROM t").selectors().get(0).alias()).isEqualTo(id("j"));
    // as in Cassandra, "json - json" selects JSON of "-json"
    SelectStatement s = select("SELECT json - json FROM t");
    assertThat(s.json()).isTrue();
    assertThat(s.selectors().get(0).selector()).isEqualTo(new Selector.Negation(col("json"), P));
  }

  @Test
  void selectorKinds() {
    assertThat(only("count(*)")).isInstanceOf(Selector.CountRows.class);
    assertThat(only("count(1)"))
        .isEqualTo(
            new Selector.FunctionCall(
                new QualifiedName(null, id("count")),
                List.of(new Selector.Value(integer("1"))),
                P));
    assertThat(only("writetime(m['k'])"))
        .isEqualTo(
            new Selector.WritetimeOrTtl(
                Selector.MetadataKind.WRITETIME,
                new Selector.Element(col("m"), new Term.Literal(LiteralKind.STRING, "k", P)),
                P));
    assertThat(((Selector.WritetimeOrTtl) only("maxwritetime(s)")).kind())
        .isEqualTo(Selector.MetadataKind.MAXWRITETIME);
    assertThat(((Selector.WritetimeOrTtl) only("TTL(v)")).kind())
        .isEqualTo(Selector.MetadataKind.TTL);
    assertThat(only("CAST(v AS text)"))
        .isEqualTo(new Selector.Cast(col("v"), new CqlType.Native(NativeType.TEXT, P), P));
    assertThat(only("u.address.city"))
        .isEqualTo(new Selector.Field(new Selector.Field(col("u"), id("address")), id("city")));
    assertThat(only("s[1..]")).isEqualTo(new Selector.Slice(col("s"), integer("1"), null));
    assertThat(only("s[..2]")).isEqualTo(new Selector.Slice(col("s"), null, integer("2")));
    assertThat(only("ks.f(a, 1)"))
        .isEqualTo(
            new Selector.FunctionCall(
                new QualifiedName(id("ks"), id("f")),
                List.of(col("a"), new Selector.Value(integer("1"))),
                P));
    assertThat(only("(int) ?"))
        .isEqualTo(
            new Selector.TypeHint(
                new CqlType.Native(NativeType.INT, P),
                new Selector.Value(new Term.BindMarker(0, null, P)),
                P));
    assertThat(only("(a, b)")).isEqualTo(new Selector.TupleOf(List.of(col("a"), col("b")), P));
    assertThat(only("(a)")).isEqualTo(col("a"));
    assertThat(only("{a: 1}"))
        .isEqualTo(
            new Selector.MapOf(
                List.of(new Selector.Entry(col("a"), new Selector.Value(integer("1")))), P));
    assertThat(only("{}")).isEqualTo(new Selector.SetOf(List.of(), P));
    assertThat(only("[a]")).isEqualTo(new Selector.ListOf(List.of(col("a")), P));
  }

  @Test
  void arithmeticHasPrecedenceAndLeftAssociativity() {
    Selector a = col("a");
    Selector b = col("b");
    Selector c = col("c");
    assertThat(only("a + b * c"))
        .isEqualTo(
            new Selector.Arithmetic(
                ArithmeticOperator.ADD,
                a,
                new Selector.Arithmetic(ArithmeticOperator.MULTIPLY, b, c)));
    assertThat(only("a - b - c"))
        .isEqualTo(
            new Selector.Arithmetic(
                ArithmeticOperator.SUBTRACT,
                new Selector.Arithmetic(ArithmeticOperator.SUBTRACT, a, b),
                c));
    assertThat(only("(a + b) % c"))
        .isEqualTo(
            new Selector.Arithmetic(
                ArithmeticOperator.MODULO,
                new Selector.Arithmetic(ArithmeticOperator.ADD, a, b),
                c));
    // a signed number where an operator is expected is an operator and a number
    assertThat(only("a -1"))
        .isEqualTo(
            new Selector.Arithmetic(
                ArithmeticOperator.SUBTRACT, a, new Selector.Value(integer("1"))));
    assertThat(only("a - -1"))
        .isEqualTo(
            new Selector.Arithmetic(
                ArithmeticOperator.SUBTRACT, a, new Selector.Value(integer("-1"))));
    assertThat(only("-1")).isEqualTo(new Selector.Value(integer("-1")));
    assertThat(only("- - a")).isEqualTo(new Selector.Negation(new Selector.Negation(a, P), P));
  }

  @Test
  void relationKinds() {
    assertThat(where("a != 1"))
        .isEqualTo(new Relation.Compare(id("a"), Operator.NEQ, integer("1")));
    assertThat(where("a LIKE 'x%'"))
        .isEqualTo(
            new Relation.Compare(
                id("a"), Operator.LIKE, new Term.Literal(LiteralKind.STRING, "x%", P)));
    assertThat(where("m CONTAINS KEY 1"))
        .isEqualTo(new Relation.Compare(id("m"), Operator.CONTAINS_KEY, integer("1")));
    assertThat(where("s CONTAINS 1"))
        .isEqualTo(new Relation.Compare(id("s"), Operator.CONTAINS, integer("1")));
    assertThat(where("m[1] >= 2"))
        .isEqualTo(new Relation.MapElement(id("m"), integer("1"), Operator.GTE, integer("2")));
    assertThat(where("a IN (1, 2)"))
        .isEqualTo(
            new Relation.In(id("a"), new InValues.Listed(List.of(integer("1"), integer("2")))));
    assertThat(where("a IN ()"))
        .isEqualTo(new Relation.In(id("a"), new InValues.Listed(List.of())));
    assertThat(where("a IN :list"))
        .isEqualTo(
            new Relation.In(id("a"), new InValues.Marker(new Term.BindMarker(0, id("list"), P))));
    assertThat(where("a IS NOT NULL")).isEqualTo(new Relation.IsNotNull(id("a")));
    assertThat(where("token(a, b) < 5"))
        .isEqualTo(new Relation.Token(List.of(id("a"), id("b")), Operator.LT, integer("5"), P));
    assertThat(where("(a, b) > (1, 2)"))
        .isEqualTo(
            new Relation.MultiColumn(
                List.of(id("a"), id("b")),
                Operator.GT,
                new Term.TupleLiteral(List.of(integer("1"), integer("2")), P),
                P));
    assertThat(where("(a, b) IN ((1, 2))"))
        .isEqualTo(
            new Relation.MultiColumnIn(
                List.of(id("a"), id("b")),
                new InValues.Listed(
                    List.of(new Term.TupleLiteral(List.of(integer("1"), integer("2")), P))),
                P));
    assertThat(where("(a, b) IN ?"))
        .isEqualTo(
            new Relation.MultiColumnIn(
                List.of(id("a"), id("b")),
                new InValues.Marker(new Term.BindMarker(0, null, P)),
                P));
    assertThat(where("expr(ks.idx, 'q')"))
        .isEqualTo(
            new Relation.CustomIndexExpression(
                new QualifiedName(id("ks"), id("idx")),
                new Term.Literal(LiteralKind.STRING, "q", P),
                P));
    assertThat(where("((a = 1))")).isEqualTo(where("a = 1"));
  }

  @Test
  void annOrdering() {
    Ordering o = select("SELECT * FROM t ORDER BY v ANN OF [1.5, 2] LIMIT 5").orderBy().get(0);
    assertThat(o.column()).isEqualTo(id("v"));
    assertThat(o.annOf())
        .isEqualTo(
            new Term.ListLiteral(
                List.of(new Term.Literal(LiteralKind.FLOAT, "1.5", P), integer("2")), P));
    assertThat(o.descending()).isFalse();
  }

  @Test
  void bindMarkersAreNumberedInOrderAndListedOnTheParsedStatement() {
    ParsedStatement p =
        CqlParser.parse("SELECT * FROM t WHERE a = ? AND b = :b AND c IN ? AND d = :b LIMIT ?");
    assertThat(p.bindMarkers())
        .containsExactly(
            new Term.BindMarker(0, null, P),
            new Term.BindMarker(1, id("b"), P),
            new Term.BindMarker(2, null, P),
            new Term.BindMarker(3, id("b"), P),
            new Term.BindMarker(4, null, P));
    assertThat(p.bindMarkers().get(1).position().column()).isEqualTo(37);
  }

  @Test
  void nodesKnowWhereTheyWereWritten() {
    SelectStatement s = select("SELECT a,\n  count(*)\nFROM  ks.t\nWHERE x = 1");
    assertThat(s.position())
        .extracting(SourcePosition::line, SourcePosition::column)
        .containsExactly(1, 1);
    Selector count = s.selectors().get(1).selector();
    assertThat(count.position().line()).isEqualTo(2);
    assertThat(count.position().column()).isEqualTo(3);
    assertThat(s.table().position().column()).isEqualTo(7);
    Relation.Compare r = (Relation.Compare) s.where().get(0);
    assertThat(r.position().line()).isEqualTo(4);
    assertThat(r.value().position().column()).isEqualTo(11);
  }
}
