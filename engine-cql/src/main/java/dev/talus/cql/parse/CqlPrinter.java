package dev.talus.cql.parse;

import static dev.talus.cql.parse.ExpressionPrinter.columnRef;
import static dev.talus.cql.parse.ExpressionPrinter.condition;
import static dev.talus.cql.parse.ExpressionPrinter.join;
import static dev.talus.cql.parse.ExpressionPrinter.name;
import static dev.talus.cql.parse.ExpressionPrinter.properties;
import static dev.talus.cql.parse.ExpressionPrinter.qualified;
import static dev.talus.cql.parse.ExpressionPrinter.relation;
import static dev.talus.cql.parse.ExpressionPrinter.selector;
import static dev.talus.cql.parse.ExpressionPrinter.term;
import static dev.talus.cql.parse.ExpressionPrinter.type;

import dev.talus.cql.parse.ast.AlterKeyspaceStatement;
import dev.talus.cql.parse.ast.AlterTableStatement;
import dev.talus.cql.parse.ast.AlterTypeStatement;
import dev.talus.cql.parse.ast.Attributes;
import dev.talus.cql.parse.ast.BatchStatement;
import dev.talus.cql.parse.ast.Condition;
import dev.talus.cql.parse.ast.CqlType;
import dev.talus.cql.parse.ast.CreateIndexStatement;
import dev.talus.cql.parse.ast.CreateKeyspaceStatement;
import dev.talus.cql.parse.ast.CreateTableStatement;
import dev.talus.cql.parse.ast.CreateTypeStatement;
import dev.talus.cql.parse.ast.DeleteStatement;
import dev.talus.cql.parse.ast.DescribeStatement;
import dev.talus.cql.parse.ast.DropIndexStatement;
import dev.talus.cql.parse.ast.DropKeyspaceStatement;
import dev.talus.cql.parse.ast.DropTableStatement;
import dev.talus.cql.parse.ast.DropTypeStatement;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.InsertJsonStatement;
import dev.talus.cql.parse.ast.InsertStatement;
import dev.talus.cql.parse.ast.ModificationStatement;
import dev.talus.cql.parse.ast.Operation;
import dev.talus.cql.parse.ast.QualifiedName;
import dev.talus.cql.parse.ast.RawStatement;
import dev.talus.cql.parse.ast.Relation;
import dev.talus.cql.parse.ast.SelectItem;
import dev.talus.cql.parse.ast.SelectStatement;
import dev.talus.cql.parse.ast.StatementVisitor;
import dev.talus.cql.parse.ast.Term;
import dev.talus.cql.parse.ast.TruncateStatement;
import dev.talus.cql.parse.ast.UnsupportedStatement;
import dev.talus.cql.parse.ast.UpdateStatement;
import dev.talus.cql.parse.ast.UseStatement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * Prints a syntax tree as canonical CQL that parses back to an equal tree: keywords in upper case,
 * names quoted only where needed, one statement per call without a trailing {@code ;}. DML prints
 * on one line; {@code CREATE TABLE} and {@code CREATE TYPE} print over several lines in the layout
 * of Cassandra's {@code DESCRIBE}, which this printer is meant to serve. Recognised-but-refused
 * statements print as they were written. Stateless and thread-safe.
 */
public final class CqlPrinter implements StatementVisitor<String> {
  private static final CqlPrinter INSTANCE = new CqlPrinter();

  private CqlPrinter() {}

  /**
   * Prints a statement.
   *
   * @param statement the statement
   * @return canonical CQL for it
   */
  public static String print(RawStatement statement) {
    return statement.accept(INSTANCE);
  }

  /**
   * Prints a term.
   *
   * @param term the term
   * @return canonical CQL for it
   */
  public static String print(Term term) {
    return term(term);
  }

  /**
   * Prints a relation of a {@code WHERE} clause.
   *
   * @param relation the relation
   * @return canonical CQL for it, e.g. {@code (b, c) > (1, 2)}
   */
  public static String print(Relation relation) {
    return relation(relation);
  }

  /**
   * Prints a type.
   *
   * @param type the type
   * @return canonical CQL for it, e.g. {@code map<text, frozen<list<int>>>}
   */
  public static String print(CqlType type) {
    return type(type);
  }

  /**
   * Quotes a name if CQL needs it quoted: {@code users} stays, {@code Users} becomes {@code
   * "Users"}, {@code select} becomes {@code "select"}.
   *
   * @param name the name
   * @return the name as CQL writes it
   */
  public static String quoteName(String name) {
    return ExpressionPrinter.name(name);
  }

  @Override
  public String visitSelect(SelectStatement s) {
    StringBuilder sb = new StringBuilder("SELECT ");
    if (s.json()) {
      sb.append("JSON ");
    }
    if (s.distinct()) {
      sb.append("DISTINCT ");
    }
    sb.append(s.isWildcard() ? "*" : join(s.selectors(), CqlPrinter::item));
    sb.append(" FROM ").append(qualified(s.table()));
    where(sb, s.where());
    if (!s.groupBy().isEmpty()) {
      sb.append(" GROUP BY ").append(join(s.groupBy(), ExpressionPrinter::selector));
    }
    if (!s.orderBy().isEmpty()) {
      sb.append(" ORDER BY ")
          .append(
              join(
                  s.orderBy(),
                  o ->
                      name(o.column())
                          + (o.annOf() == null ? "" : " ANN OF " + term(o.annOf()))
                          + (o.descending() ? " DESC" : "")));
    }
    if (s.perPartitionLimit() != null) {
      sb.append(" PER PARTITION LIMIT ").append(term(s.perPartitionLimit()));
    }
    if (s.limit() != null) {
      sb.append(" LIMIT ").append(term(s.limit()));
    }
    if (s.allowFiltering()) {
      sb.append(" ALLOW FILTERING");
    }
    return sb.toString();
  }

  private static String item(SelectItem item) {
    String s = selector(item.selector());
    return item.alias() == null ? s : s + " AS " + name(item.alias());
  }

  private static void where(StringBuilder sb, List<Relation> where) {
    if (!where.isEmpty()) {
      sb.append(" WHERE ");
      for (int i = 0; i < where.size(); i++) {
        sb.append(i == 0 ? "" : " AND ").append(relation(where.get(i)));
      }
    }
  }

  private static String using(Attributes a) {
    if (a.isEmpty()) {
      return "";
    }
    List<String> parts = new ArrayList<>();
    if (a.timestamp() != null) {
      parts.add("TIMESTAMP " + term(a.timestamp()));
    }
    if (a.ttl() != null) {
      parts.add("TTL " + term(a.ttl()));
    }
    // two bind markers keep the order they were written in, so that they keep their indexes
    if (a.ttl() instanceof Term.BindMarker ttl
        && a.timestamp() instanceof Term.BindMarker ts
        && ttl.index() < ts.index()) {
      Collections.reverse(parts);
    }
    return " USING " + String.join(" AND ", parts);
  }

  @Override
  public String visitInsert(InsertStatement s) {
    return "INSERT INTO "
        + qualified(s.table())
        + " ("
        + join(s.columns(), ExpressionPrinter::name)
        + ") VALUES ("
        + join(s.values(), ExpressionPrinter::term)
        + ")"
        + (s.ifNotExists() ? " IF NOT EXISTS" : "")
        + using(s.attributes());
  }

  @Override
  public String visitInsertJson(InsertJsonStatement s) {
    return "INSERT INTO "
        + qualified(s.table())
        + " JSON "
        + term(s.json())
        + (s.defaultUnset() ? " DEFAULT UNSET" : "")
        + (s.ifNotExists() ? " IF NOT EXISTS" : "")
        + using(s.attributes());
  }

  @Override
  public String visitUpdate(UpdateStatement s) {
    StringBuilder sb = new StringBuilder("UPDATE ").append(qualified(s.table()));
    sb.append(using(s.attributes()));
    sb.append(" SET ").append(join(s.operations(), CqlPrinter::operation));
    where(sb, s.where());
    conditions(sb, s.ifExists(), s.conditions());
    return sb.toString();
  }

  private static String operation(Operation op) {
    String c = name(op.column());
    if (op instanceof Operation.Assign a) {
      return columnRef(a.target()) + " = " + term(a.value());
    } else if (op instanceof Operation.Add a) {
      return c + " = " + c + " + " + term(a.value());
    } else if (op instanceof Operation.Subtract sub) {
      return c + " = " + c + " - " + term(sub.value());
    }
    return c + " = " + term(((Operation.Prepend) op).value()) + " + " + c;
  }

  private static void conditions(StringBuilder sb, boolean ifExists, List<Condition> conditions) {
    if (ifExists) {
      sb.append(" IF EXISTS");
    } else if (!conditions.isEmpty()) {
      sb.append(" IF ");
      for (int i = 0; i < conditions.size(); i++) {
        sb.append(i == 0 ? "" : " AND ").append(condition(conditions.get(i)));
      }
    }
  }

  @Override
  public String visitDelete(DeleteStatement s) {
    StringBuilder sb = new StringBuilder("DELETE ");
    if (!s.targets().isEmpty()) {
      sb.append(join(s.targets(), ExpressionPrinter::columnRef)).append(' ');
    }
    sb.append("FROM ").append(qualified(s.table())).append(using(s.attributes()));
    where(sb, s.where());
    conditions(sb, s.ifExists(), s.conditions());
    return sb.toString();
  }

  @Override
  public String visitBatch(BatchStatement s) {
    StringBuilder sb = new StringBuilder("BEGIN ");
    if (s.type() != BatchStatement.Type.LOGGED) {
      sb.append(s.type().name()).append(' ');
    }
    sb.append("BATCH").append(using(s.attributes())).append('\n');
    for (ModificationStatement m : s.statements()) {
      sb.append("  ").append(print(m)).append(";\n");
    }
    return sb.append("APPLY BATCH").toString();
  }

  @Override
  public String visitUse(UseStatement s) {
    return "USE " + name(s.keyspace());
  }

  @Override
  public String visitTruncate(TruncateStatement s) {
    return "TRUNCATE " + qualified(s.table());
  }

  @Override
  public String visitCreateKeyspace(CreateKeyspaceStatement s) {
    return "CREATE KEYSPACE "
        + (s.ifNotExists() ? "IF NOT EXISTS " : "")
        + name(s.keyspace())
        + " WITH "
        + properties(s.properties(), " AND ");
  }

  @Override
  public String visitAlterKeyspace(AlterKeyspaceStatement s) {
    return "ALTER KEYSPACE "
        + (s.ifExists() ? "IF EXISTS " : "")
        + name(s.keyspace())
        + " WITH "
        + properties(s.properties(), " AND ");
  }

  @Override
  public String visitDropKeyspace(DropKeyspaceStatement s) {
    return "DROP KEYSPACE " + (s.ifExists() ? "IF EXISTS " : "") + name(s.keyspace());
  }

  @Override
  public String visitCreateTable(CreateTableStatement s) {
    return DdlPrinter.createTable(s);
  }

  @Override
  public String visitAlterTable(AlterTableStatement s) {
    return DdlPrinter.alterTable(s);
  }

  @Override
  public String visitDropTable(DropTableStatement s) {
    return "DROP TABLE " + (s.ifExists() ? "IF EXISTS " : "") + qualified(s.table());
  }

  @Override
  public String visitCreateType(CreateTypeStatement s) {
    return DdlPrinter.createType(s);
  }

  @Override
  public String visitAlterType(AlterTypeStatement s) {
    return DdlPrinter.alterType(s);
  }

  @Override
  public String visitDropType(DropTypeStatement s) {
    return "DROP TYPE " + (s.ifExists() ? "IF EXISTS " : "") + DdlPrinter.typeName(s.type());
  }

  @Override
  public String visitCreateIndex(CreateIndexStatement s) {
    return DdlPrinter.createIndex(s);
  }

  @Override
  public String visitDropIndex(DropIndexStatement s) {
    return "DROP INDEX " + (s.ifExists() ? "IF EXISTS " : "") + qualified(s.index());
  }

  @Override
  public String visitDescribe(DescribeStatement s) {
    StringBuilder sb = new StringBuilder("DESCRIBE");
    if (s.only()) {
      sb.append(" ONLY");
    }
    if (s.target() != DescribeStatement.Target.NAME) {
      sb.append(' ').append(s.target().cql());
    }
    if (s.name() != null) {
      sb.append(' ');
      switch (s.target()) {
        case TYPE -> sb.append(DdlPrinter.typeName(s.name()));
        case FUNCTION, AGGREGATE -> sb.append(ExpressionPrinter.functionName(s.name()));
        case NAME -> sb.append(describedName(s.name()));
        default -> sb.append(qualified(s.name()));
      }
    }
    if (s.withInternals()) {
      sb.append(" WITH INTERNALS");
    }
    return sb.toString();
  }

  /** Words that, bare after DESCRIBE, name what to describe rather than an object. */
  private static final Set<String> DESCRIBE_WORDS =
      Set.of(
          "cluster",
          "keyspaces",
          "tables",
          "columnfamilies",
          "types",
          "type",
          "functions",
          "function",
          "aggregates",
          "aggregate");

  /** A bare DESCRIBE name must not read as one of DESCRIBE's own keywords. */
  private static String describedName(QualifiedName q) {
    Identifier n = q.name();
    if (q.keyspace() != null) {
      return qualified(q);
    }
    return DESCRIBE_WORDS.contains(n.name()) ? ExpressionPrinter.quote(n.name()) : name(n);
  }

  @Override
  public String visitUnsupported(UnsupportedStatement s) {
    return s.text();
  }
}
