package dev.talus.cql.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.cql.CqlSyntaxException;
import dev.talus.cql.parse.ast.CqlType;
import dev.talus.cql.parse.ast.CreateTableStatement;
import dev.talus.cql.parse.ast.CreateTypeStatement;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.InsertStatement;
import dev.talus.cql.parse.ast.Relation;
import dev.talus.cql.parse.ast.SelectStatement;
import dev.talus.cql.parse.ast.Selector;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Names: case folding, quoting, which keywords may be names where, qualified names. */
class IdentifierTest {

  static Stream<String> unreserved() {
    return Arrays.stream(Keyword.values())
        .filter(Keyword::usableAsName)
        .map(k -> k.name().toLowerCase(Locale.ROOT));
  }

  static Stream<String> reserved() {
    return Arrays.stream(Keyword.values())
        .filter(Keyword::isReserved)
        .map(k -> k.name().toLowerCase(Locale.ROOT));
  }

  @Test
  void unquotedNamesAreFoldedToLowerCaseQuotedOnesKeepTheirCase() {
    SelectStatement s =
        Cql.parse("SELECT MyCol, \"MyCol\" FROM MyKs.\"MyTable\"", SelectStatement.class);
    assertThat(((Selector.Column) s.selectors().get(0).selector()).name().name())
        .isEqualTo("mycol");
    assertThat(((Selector.Column) s.selectors().get(1).selector()).name().name())
        .isEqualTo("MyCol");
    assertThat(s.table().keyspace().name()).isEqualTo("myks");
    assertThat(s.table().name().name()).isEqualTo("MyTable");
    // "users" and users are the same name
    assertThat(Cql.parse("SELECT * FROM \"users\"")).isEqualTo(Cql.parse("select * from USERS"));
  }

  @Test
  void quotedNamesMayHoldAnyCharacterAndDoubledQuotes() {
    InsertStatement i =
        Cql.parse(
            "INSERT INTO t (\"a b\", \"x\"\"y\", \"é\", \"1st\") VALUES (1, 2, 3, 4)",
            InsertStatement.class);
    assertThat(i.columns()).extracting(Identifier::name).containsExactly("a b", "x\"y", "é", "1st");
    assertThat(
            Cql.roundTrip(
                "INSERT INTO t (\"a b\", \"x\"\"y\", \"é\", \"1st\") VALUES (1, 2, 3, 4)"))
        .isEqualTo("INSERT INTO t (\"a b\", \"x\"\"y\", \"é\", \"1st\") VALUES (1, 2, 3, 4)");
  }

  @ParameterizedTest
  @MethodSource("unreserved")
  void everyUnreservedKeywordIsAColumnTableAndKeyspaceName(String kw) {
    String cql =
        "SELECT "
            + kw
            + ", "
            + kw
            + "."
            + kw
            + " AS "
            + kw
            + " FROM "
            + kw
            + "."
            + kw
            + " WHERE "
            + kw
            + " = 1 AND "
            + kw
            + " IN (1) ORDER BY "
            + kw;
    SelectStatement s = Cql.parse(cql, SelectStatement.class);
    assertThat(s.table().name().name()).isEqualTo(kw);
    assertThat(s.where()).hasSize(2);
    assertThat(((Relation.Compare) s.where().get(0)).column().name()).isEqualTo(kw);
    Cql.roundTrip(cql);
    String ddl = "CREATE TABLE " + kw + " (" + kw + " int PRIMARY KEY, x text) WITH " + kw + " = 1";
    CreateTableStatement t = Cql.parse(ddl, CreateTableStatement.class);
    assertThat(t.columns().get(0).name().name()).isEqualTo(kw);
    Cql.roundTrip(ddl);
    Cql.roundTrip("INSERT INTO " + kw + " (" + kw + ") VALUES (:" + kw + ")");
    Cql.roundTrip("UPDATE " + kw + " SET " + kw + " = 1 WHERE " + kw + " = 2 IF " + kw + " = 3");
    Cql.roundTrip("DELETE " + kw + " FROM " + kw + " WHERE " + kw + " = 1");
    Cql.roundTrip("CREATE KEYSPACE " + kw + " WITH replication = {'class': 'SimpleStrategy'}");
    Cql.roundTrip("USE " + kw);
    Cql.roundTrip("CREATE INDEX " + kw + " ON " + kw + " (" + kw + ")");
    Cql.roundTrip("DESCRIBE TABLE " + kw + "." + kw);
    Cql.roundTrip("SELECT * FROM t WHERE x = {" + kw + ": 1}");
  }

  @ParameterizedTest
  @MethodSource("reserved")
  void reservedKeywordsAreNamesOnlyWhenQuoted(String kw) {
    CqlSyntaxException e = Cql.error("SELECT a FROM " + kw);
    assertThat(e.reason()).contains("to use it as a name, quote it: \"" + kw + "\"");
    assertThat(e.column()).isEqualTo(15);
    SelectStatement s =
        Cql.parse("SELECT \"" + kw + "\" FROM \"" + kw + "\"", SelectStatement.class);
    assertThat(s.table().name().name()).isEqualTo(kw);
    assertThat(CqlPrinter.print(s)).isEqualTo("SELECT \"" + kw + "\" FROM \"" + kw + "\"");
  }

  @Test
  void userTypeNamesExcludeNativeTypesAndCassandrasReservedTypeNames() {
    CreateTypeStatement t = Cql.parse("CREATE TYPE ks.key (a int)", CreateTypeStatement.class);
    assertThat(t.type().name().name()).isEqualTo("key");
    assertThat(Cql.error("CREATE TYPE text (a int)").reason()).contains("a user type name");
    assertThat(Cql.error("CREATE TYPE ttl (a int)").reason()).contains("a user type name");
    assertThat(Cql.error("CREATE TYPE byte (a int)").reason())
        .contains("'byte' is reserved for a future native type");
    assertThat(Cql.error("CREATE TABLE t (k int PRIMARY KEY, v interval)").reason())
        .contains("'interval' is reserved");
    // quoted, they are fine
    Cql.roundTrip("CREATE TYPE \"text\" (a int)");
    Cql.roundTrip("CREATE TABLE t (k int PRIMARY KEY, v frozen<\"byte\">)");
    // a keyspace may be named like a type: text.addr is the type addr of keyspace text
    CreateTableStatement c =
        Cql.parse("CREATE TABLE t (k int PRIMARY KEY, v text.addr)", CreateTableStatement.class);
    CqlType.UserDefined u = (CqlType.UserDefined) c.columns().get(1).type();
    assertThat(u.name().keyspace().name()).isEqualTo("text");
    assertThat(u.name().name().name()).isEqualTo("addr");
  }

  @Test
  void functionNamesAreFoldedUnlessQuotedAndMayBeNativeTypeNames() {
    SelectStatement s =
        Cql.parse(
            "SELECT ToJson(a), \"MyFn\"(b), ks.Fn(c), blob(d), token(e), count(f) FROM t",
            SelectStatement.class);
    List<String> names =
        s.selectors().stream()
            .map(i -> ((Selector.FunctionCall) i.selector()).name().toString())
            .toList();
    assertThat(names).containsExactly("tojson", "MyFn", "ks.fn", "blob", "token", "count");
    // ttl, writetime, cast are not function names: ttl(x) is the TTL selector
    assertThat(
            Cql.parse("SELECT ttl(a) FROM t", SelectStatement.class).selectors().get(0).selector())
        .isInstanceOf(Selector.WritetimeOrTtl.class);
    Cql.roundTrip("SELECT \"ttl\"(a), \"MyFn\"(b) FROM t");
  }

  @Test
  void theEmptyQuotedNameIsAColumnReferenceButNeverADefinition() {
    Cql.roundTrip("SELECT \"\" FROM t WHERE \"\" = 1");
    assertThat(Cql.error("CREATE TABLE t (\"\" int PRIMARY KEY)").reason())
        .contains("an empty quoted name \"\" cannot name");
  }

  @Test
  void bindMarkersCannotStandForNames() {
    assertThat(Cql.error("SELECT * FROM ?").reason())
        .isEqualTo("bind markers cannot stand for a table name; write the name in the statement");
    assertThat(Cql.error("USE :ks").reason()).contains("a keyspace name");
    assertThat(Cql.error("DROP INDEX ?").reason()).contains("an index name");
  }

  @Test
  void thePrinterQuotesExactlyWhereNeeded() {
    assertThat(CqlPrinter.quoteName("users")).isEqualTo("users");
    assertThat(CqlPrinter.quoteName("Users")).isEqualTo("\"Users\"");
    assertThat(CqlPrinter.quoteName("select")).isEqualTo("\"select\"");
    assertThat(CqlPrinter.quoteName("key")).isEqualTo("key");
    assertThat(CqlPrinter.quoteName("true")).isEqualTo("\"true\"");
    assertThat(CqlPrinter.quoteName("nan")).isEqualTo("\"nan\"");
    assertThat(CqlPrinter.quoteName("a b")).isEqualTo("\"a b\"");
    assertThat(CqlPrinter.quoteName("_x")).isEqualTo("\"_x\"");
    assertThat(CqlPrinter.quoteName("x\"y")).isEqualTo("\"x\"\"y\"");
    assertThat(CqlPrinter.quoteName("")).isEqualTo("\"\"");
  }
}
