package dev.talus.cql.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.cql.parse.ast.Attributes;
import dev.talus.cql.parse.ast.BatchStatement;
import dev.talus.cql.parse.ast.ColumnRef;
import dev.talus.cql.parse.ast.Condition;
import dev.talus.cql.parse.ast.DeleteStatement;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.InValues;
import dev.talus.cql.parse.ast.InsertJsonStatement;
import dev.talus.cql.parse.ast.InsertStatement;
import dev.talus.cql.parse.ast.LiteralKind;
import dev.talus.cql.parse.ast.Operation;
import dev.talus.cql.parse.ast.Operator;
import dev.talus.cql.parse.ast.QualifiedName;
import dev.talus.cql.parse.ast.SourcePosition;
import dev.talus.cql.parse.ast.Term;
import dev.talus.cql.parse.ast.UpdateStatement;
import java.util.List;
import org.junit.jupiter.api.Test;

/** INSERT, UPDATE, DELETE and BATCH: the syntax tree of each form. */
class DmlParseTest {
  private static final SourcePosition P = SourcePosition.NONE;

  private static Identifier id(String n) {
    return Identifier.of(n);
  }

  private static Term.Literal lit(LiteralKind kind, String text) {
    return new Term.Literal(kind, text, P);
  }

  private static Term.Literal integer(String text) {
    return lit(LiteralKind.INTEGER, text);
  }

  private static Term.Literal str(String text) {
    return lit(LiteralKind.STRING, text);
  }

  private static Term.BindMarker marker(int index) {
    return new Term.BindMarker(index, null, P);
  }

  private static List<Operation> set(String assignments) {
    return Cql.parse("UPDATE t SET " + assignments + " WHERE k = 1", UpdateStatement.class)
        .operations();
  }

  @Test
  void insertWithValuesConditionAndAttributes() {
    InsertStatement i =
        Cql.parse(
            "INSERT INTO ks.t (a, b) VALUES (1, ?) IF NOT EXISTS USING TTL 5 AND TIMESTAMP :ts",
            InsertStatement.class);
    assertThat(i.table()).isEqualTo(new QualifiedName(id("ks"), id("t")));
    assertThat(i.columns()).containsExactly(id("a"), id("b"));
    assertThat(i.values()).containsExactly(integer("1"), marker(0));
    assertThat(i.ifNotExists()).isTrue();
    assertThat(i.attributes())
        .isEqualTo(new Attributes(new Term.BindMarker(1, id("ts"), P), integer("5")));
    assertThat(Cql.parse("INSERT INTO t (a) VALUES (1)", InsertStatement.class).attributes())
        .isSameAs(Attributes.NONE);
    // Cassandra keeps the last of two; Talus refuses the second
    assertThat(Cql.error("INSERT INTO t (a) VALUES (1) USING TTL 1 AND TTL 2").reason())
        .isEqualTo(
            "TTL is given twice in USING; give it once (Cassandra would silently keep the last)");
    // two markers keep their order when printed
    assertThat(Cql.roundTrip("UPDATE t USING TTL ? AND TIMESTAMP ? SET v = 1 WHERE k = 1"))
        .isEqualTo("UPDATE t USING TTL ? AND TIMESTAMP ? SET v = 1 WHERE k = 1");
  }

  @Test
  void insertJson() {
    InsertJsonStatement j =
        Cql.parse(
            "INSERT INTO t JSON '{\"k\": 1}' DEFAULT UNSET IF NOT EXISTS",
            InsertJsonStatement.class);
    assertThat(j.json()).isEqualTo(str("{\"k\": 1}"));
    assertThat(j.defaultUnset()).isTrue();
    assertThat(j.ifNotExists()).isTrue();
    assertThat(
            Cql.parse("INSERT INTO t JSON ? DEFAULT NULL", InsertJsonStatement.class)
                .defaultUnset())
        .isFalse();
  }

  @Test
  void updateAssignmentsOfEveryForm() {
    assertThat(set("v = 1"))
        .containsExactly(new Operation.Assign(new ColumnRef.Whole(id("v")), integer("1")));
    assertThat(set("m['k'] = 'v'"))
        .containsExactly(new Operation.Assign(new ColumnRef.Element(id("m"), str("k")), str("v")));
    assertThat(set("u.city = 'Paris'"))
        .containsExactly(
            new Operation.Assign(new ColumnRef.Field(id("u"), id("city")), str("Paris")));
    assertThat(set("c = c + 3")).containsExactly(new Operation.Add(id("c"), integer("3")));
    assertThat(set("c += 3")).containsExactly(new Operation.Add(id("c"), integer("3")));
    assertThat(set("c = c - 3")).containsExactly(new Operation.Subtract(id("c"), integer("3")));
    assertThat(set("c -= 3")).containsExactly(new Operation.Subtract(id("c"), integer("3")));
    // "c = c -3" is lexed c, =, c, -3 (a signed number): it still means c minus 3
    assertThat(set("c = c -3")).containsExactly(new Operation.Subtract(id("c"), integer("3")));
    assertThat(set("c = c + -3")).containsExactly(new Operation.Add(id("c"), integer("-3")));
    assertThat(set("l = [1] + l"))
        .containsExactly(
            new Operation.Prepend(id("l"), new Term.ListLiteral(List.of(integer("1")), P)));
    assertThat(set("s = s - {'a'}"))
        .containsExactly(
            new Operation.Subtract(id("s"), new Term.SetLiteral(List.of(str("a")), P)));
    // a term may do arithmetic and call functions; only a bare name is a column
    assertThat(set("v = 1 + 2"))
        .containsExactly(
            new Operation.Assign(
                new ColumnRef.Whole(id("v")),
                new Term.Arithmetic(
                    dev.talus.cql.parse.ast.ArithmeticOperator.ADD,
                    integer("1"),
                    integer("2"),
                    P)));
    assertThat(set("v = now()").get(0)).isInstanceOf(Operation.Assign.class);
  }

  @Test
  void anotherColumnOnTheRightOfTheAssignmentIsRefused() {
    assertThat(Cql.error("UPDATE t SET a = b + 1 WHERE k = 1").reason())
        .isEqualTo(
            "only assignments of the form X = X + value may name a column on the right of '=':"
                + " b is not a");
    assertThat(Cql.error("UPDATE t SET a = [1] + b WHERE k = 1").reason())
        .contains("X = value + X");
    assertThat(Cql.error("UPDATE t SET a = a WHERE k = 1").reason())
        .contains("expected '+' or '-' after a");
  }

  @Test
  void settingAWholeColumnTwiceIsRefusedAsInCassandra() {
    assertThat(Cql.error("UPDATE t SET a = 1, a = 2 WHERE k = 1").reason())
        .isEqualTo("the column a is set more than once in incompatible ways; set it once");
    assertThat(Cql.error("UPDATE t SET m = {}, m['k'] = 1 WHERE k = 1").reason())
        .contains("the column m is set more than once");
    assertThat(Cql.error("UPDATE t SET u.f = 1, u.f = 2 WHERE k = 1").reason())
        .contains("the column u is set more than once");
    // compatible: several elements, fields, additions of one column
    assertThat(set("m['a'] = 1, m['b'] = 2, u.f = 1, u.g = 2, l = l + [1], l = [0] + l"))
        .hasSize(6);
  }

  @Test
  void conditionsAndIfExists() {
    UpdateStatement u =
        Cql.parse(
            "UPDATE t SET v = 1 WHERE k = 1 IF v = 0 AND m['k'] IN (1, 2) AND u.f >= ? AND s CONTAINS KEY 'x'",
            UpdateStatement.class);
    assertThat(u.ifExists()).isFalse();
    assertThat(u.conditions())
        .containsExactly(
            new Condition.Compare(new ColumnRef.Whole(id("v")), Operator.EQ, integer("0")),
            new Condition.In(
                new ColumnRef.Element(id("m"), str("k")),
                new InValues.Listed(List.of(integer("1"), integer("2")))),
            new Condition.Compare(new ColumnRef.Field(id("u"), id("f")), Operator.GTE, marker(0)),
            new Condition.Compare(new ColumnRef.Whole(id("s")), Operator.CONTAINS_KEY, str("x")));
    UpdateStatement e =
        Cql.parse("UPDATE t SET v = 1 WHERE k = 1 IF EXISTS", UpdateStatement.class);
    assertThat(e.ifExists()).isTrue();
    assertThat(e.conditions()).isEmpty();
    // a column named "exists"
    UpdateStatement c =
        Cql.parse("UPDATE t SET v = 1 WHERE k = 1 IF exists = 1", UpdateStatement.class);
    assertThat(c.ifExists()).isFalse();
    assertThat(c.conditions())
        .containsExactly(
            new Condition.Compare(new ColumnRef.Whole(id("exists")), Operator.EQ, integer("1")));
    // CONTAINS only tests a whole collection
    assertThat(Cql.error("UPDATE t SET v = 1 WHERE k = 1 IF m['k'] CONTAINS 1").reason())
        .contains("expected an operator (=, !=, <, <=, >, >= or IN)");
  }

  @Test
  void deleteTargetsTimestampRangesAndConditions() {
    DeleteStatement d =
        Cql.parse(
            "DELETE v, m['k'], u.f FROM t USING TIMESTAMP 99 WHERE k = 1 AND c > 2 IF v = 3",
            DeleteStatement.class);
    assertThat(d.targets())
        .containsExactly(
            new ColumnRef.Whole(id("v")),
            new ColumnRef.Element(id("m"), str("k")),
            new ColumnRef.Field(id("u"), id("f")));
    assertThat(d.attributes()).isEqualTo(new Attributes(integer("99"), null));
    assertThat(d.where()).hasSize(2);
    assertThat(d.conditions()).hasSize(1);
    DeleteStatement rows = Cql.parse("DELETE FROM t WHERE k = 1 IF EXISTS", DeleteStatement.class);
    assertThat(rows.targets()).isEmpty();
    assertThat(rows.ifExists()).isTrue();
    assertThat(Cql.error("DELETE FROM t USING TTL 5 WHERE k = 1").reason())
        .contains("expected TIMESTAMP");
  }

  @Test
  void batchesOfEveryTypeNumberMarkersAcrossTheirStatements() {
    ParsedStatement p =
        CqlParser.parse(
            "BEGIN UNLOGGED BATCH USING TIMESTAMP ?\n"
                + "  INSERT INTO t (k, v) VALUES (?, ?);\n"
                + "  UPDATE t SET v = :v WHERE k = ?\n"
                + "  DELETE FROM t WHERE k = ?;\n"
                + "APPLY BATCH");
    BatchStatement b = (BatchStatement) p.statement();
    assertThat(b.type()).isEqualTo(BatchStatement.Type.UNLOGGED);
    assertThat(b.attributes().timestamp()).isEqualTo(marker(0));
    assertThat(b.statements())
        .hasExactlyElementsOfTypes(
            InsertStatement.class, UpdateStatement.class, DeleteStatement.class);
    assertThat(p.bindMarkers())
        .extracting(Term.BindMarker::index)
        .containsExactly(0, 1, 2, 3, 4, 5);
    assertThat(b.statements().get(1).position().line()).isEqualTo(3);
    assertThat(Cql.parse("BEGIN BATCH APPLY BATCH", BatchStatement.class).type())
        .isEqualTo(BatchStatement.Type.LOGGED);
    assertThat(Cql.parse("BEGIN COUNTER BATCH APPLY BATCH", BatchStatement.class).type())
        .isEqualTo(BatchStatement.Type.COUNTER);
    assertThat(Cql.error("BEGIN BATCH SELECT * FROM t APPLY BATCH").reason())
        .contains("expected INSERT, UPDATE, DELETE or APPLY BATCH");
  }
}
