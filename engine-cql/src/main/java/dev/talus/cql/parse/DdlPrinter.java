package dev.talus.cql.parse;

import static dev.talus.cql.parse.ExpressionPrinter.join;
import static dev.talus.cql.parse.ExpressionPrinter.name;
import static dev.talus.cql.parse.ExpressionPrinter.properties;
import static dev.talus.cql.parse.ExpressionPrinter.qualified;
import static dev.talus.cql.parse.ExpressionPrinter.string;
import static dev.talus.cql.parse.ExpressionPrinter.term;
import static dev.talus.cql.parse.ExpressionPrinter.type;

import dev.talus.cql.parse.ast.AlterTableStatement;
import dev.talus.cql.parse.ast.AlterTypeStatement;
import dev.talus.cql.parse.ast.ColumnDefinition;
import dev.talus.cql.parse.ast.ColumnMask;
import dev.talus.cql.parse.ast.CreateIndexStatement;
import dev.talus.cql.parse.ast.CreateTableStatement;
import dev.talus.cql.parse.ast.CreateTypeStatement;
import dev.talus.cql.parse.ast.IndexTarget;
import dev.talus.cql.parse.ast.PrimaryKey;
import dev.talus.cql.parse.ast.QualifiedName;
import dev.talus.cql.parse.ast.Rename;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints the DDL statements with structure: {@code CREATE TABLE} and {@code CREATE TYPE} over
 * several lines in the layout of Cassandra's {@code DESCRIBE}, {@code ALTER TABLE}, {@code ALTER
 * TYPE} and {@code CREATE INDEX} on one line. Used by {@link CqlPrinter}.
 */
final class DdlPrinter {
  private static final String INDENT = "    ";

  private DdlPrinter() {}

  static String createTable(CreateTableStatement s) {
    StringBuilder sb = new StringBuilder("CREATE TABLE ");
    if (s.ifNotExists()) {
      sb.append("IF NOT EXISTS ");
    }
    sb.append(qualified(s.table())).append(" (\n");
    List<String> lines = new ArrayList<>();
    // Each inline key goes after the first column of its name not yet given one (a table may
    // repeat a column name; preparing refuses it, printing must still reparse the same).
    List<PrimaryKey> inline = s.primaryKeys().stream().filter(PrimaryKey::inline).toList();
    int next = 0;
    for (ColumnDefinition c : s.columns()) {
      String line = column(c);
      if (next < inline.size()
          && inline.get(next).partitionKey().get(0).name().equals(c.name().name())) {
        line += " PRIMARY KEY";
        next++;
      }
      lines.add(line);
    }
    for (PrimaryKey k : s.primaryKeys()) {
      if (!k.inline()) {
        String partition = join(k.partitionKey(), ExpressionPrinter::name);
        if (k.partitionKey().size() > 1) {
          partition = "(" + partition + ")";
        }
        String clustering =
            k.clustering().isEmpty() ? "" : ", " + join(k.clustering(), ExpressionPrinter::name);
        lines.add("PRIMARY KEY (" + partition + clustering + ")");
      }
    }
    sb.append(INDENT).append(String.join(",\n" + INDENT, lines)).append("\n)");
    List<String> options = new ArrayList<>();
    if (!s.clusteringOrder().isEmpty()) {
      options.add(
          "CLUSTERING ORDER BY ("
              + join(
                  s.clusteringOrder(), o -> name(o.column()) + (o.descending() ? " DESC" : " ASC"))
              + ")");
    }
    if (s.compactStorage()) {
      options.add("COMPACT STORAGE");
    }
    s.properties().properties().forEach(p -> options.add(ExpressionPrinter.property(p)));
    if (!options.isEmpty()) {
      sb.append(" WITH ").append(String.join("\n" + INDENT + "AND ", options));
    }
    return sb.toString();
  }

  private static String column(ColumnDefinition c) {
    return name(c.name())
        + " "
        + type(c.type())
        + (c.isStatic() ? " static" : "")
        + (c.mask() == null ? "" : " " + mask(c.mask()));
  }

  private static String mask(ColumnMask m) {
    return m.isDefault()
        ? "MASKED WITH DEFAULT"
        : "MASKED WITH "
            + ExpressionPrinter.functionName(m.function())
            + "("
            + join(m.arguments(), ExpressionPrinter::term)
            + ")";
  }

  static String alterTable(AlterTableStatement s) {
    String head = "ALTER TABLE " + (s.ifExists() ? "IF EXISTS " : "") + qualified(s.table()) + " ";
    AlterTableStatement.Action a = s.action();
    if (a instanceof AlterTableStatement.AddColumns add) {
      String cols = join(add.columns(), DdlPrinter::column);
      return head
          + "ADD "
          + (add.ifNotExists() ? "IF NOT EXISTS " : "")
          + (add.columns().size() == 1 ? cols : "(" + cols + ")");
    } else if (a instanceof AlterTableStatement.DropColumns drop) {
      String cols = join(drop.columns(), ExpressionPrinter::name);
      return head
          + "DROP "
          + (drop.ifExists() ? "IF EXISTS " : "")
          + (drop.columns().size() == 1 ? cols : "(" + cols + ")")
          + (drop.timestamp() == null ? "" : " USING TIMESTAMP " + term(drop.timestamp()));
    } else if (a instanceof AlterTableStatement.RenameColumns r) {
      return head + "RENAME " + (r.ifExists() ? "IF EXISTS " : "") + renames(r.renames());
    } else if (a instanceof AlterTableStatement.SetOptions o) {
      return head + "WITH " + properties(o.properties(), " AND ");
    } else if (a instanceof AlterTableStatement.AlterColumnType t) {
      return head + "ALTER " + name(t.column()) + " TYPE " + type(t.type());
    } else if (a instanceof AlterTableStatement.SetColumnMask m) {
      return head
          + "ALTER "
          + (m.ifColumnExists() ? "IF EXISTS " : "")
          + name(m.column())
          + (m.mask() == null ? " DROP MASKED" : " " + mask(m.mask()));
    }
    return head + "DROP COMPACT STORAGE";
  }

  private static String renames(List<Rename> renames) {
    List<String> parts = new ArrayList<>();
    for (Rename r : renames) {
      parts.add(name(r.from()) + " TO " + name(r.to()));
    }
    return String.join(" AND ", parts);
  }

  static String typeName(QualifiedName q) {
    String n = ExpressionPrinter.typeName(q.name().name());
    return q.keyspace() == null ? n : name(q.keyspace()) + "." + n;
  }

  static String createType(CreateTypeStatement s) {
    List<String> fields = new ArrayList<>();
    s.fields().forEach(f -> fields.add(name(f.name()) + " " + type(f.type())));
    return "CREATE TYPE "
        + (s.ifNotExists() ? "IF NOT EXISTS " : "")
        + typeName(s.type())
        + " (\n"
        + INDENT
        + String.join(",\n" + INDENT, fields)
        + "\n)";
  }

  static String alterType(AlterTypeStatement s) {
    String head = "ALTER TYPE " + (s.ifExists() ? "IF EXISTS " : "") + typeName(s.type()) + " ";
    AlterTypeStatement.Action a = s.action();
    if (a instanceof AlterTypeStatement.AddField add) {
      return head
          + "ADD "
          + (add.ifNotExists() ? "IF NOT EXISTS " : "")
          + name(add.field().name())
          + " "
          + type(add.field().type());
    } else if (a instanceof AlterTypeStatement.RenameFields r) {
      return head + "RENAME " + (r.ifExists() ? "IF EXISTS " : "") + renames(r.renames());
    }
    AlterTypeStatement.AlterFieldType t = (AlterTypeStatement.AlterFieldType) a;
    return head + "ALTER " + name(t.field()) + " TYPE " + type(t.type());
  }

  static String createIndex(CreateIndexStatement s) {
    StringBuilder sb = new StringBuilder("CREATE ");
    if (s.custom()) {
      sb.append("CUSTOM ");
    }
    sb.append("INDEX ");
    if (s.ifNotExists()) {
      sb.append("IF NOT EXISTS ");
    }
    if (s.name() != null) {
      sb.append(name(s.name())).append(' ');
    }
    sb.append("ON ").append(qualified(s.table())).append(" (");
    sb.append(
        join(
            s.targets(),
            t ->
                t.kind() == IndexTarget.Kind.SIMPLE
                    ? name(t.column())
                    : t.kind().cql() + "(" + name(t.column()) + ")"));
    sb.append(')');
    if (s.using() != null) {
      sb.append(" USING ").append(string(s.using()));
    }
    if (!s.properties().isEmpty()) {
      sb.append(" WITH ").append(properties(s.properties(), " AND "));
    }
    return sb.toString();
  }
}
