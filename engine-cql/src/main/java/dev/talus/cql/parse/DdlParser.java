package dev.talus.cql.parse;

import dev.talus.cql.parse.ast.AlterKeyspaceStatement;
import dev.talus.cql.parse.ast.AlterTableStatement;
import dev.talus.cql.parse.ast.AlterTypeStatement;
import dev.talus.cql.parse.ast.ClusteringOrder;
import dev.talus.cql.parse.ast.ColumnDefinition;
import dev.talus.cql.parse.ast.ColumnMask;
import dev.talus.cql.parse.ast.CqlType;
import dev.talus.cql.parse.ast.CreateIndexStatement;
import dev.talus.cql.parse.ast.CreateKeyspaceStatement;
import dev.talus.cql.parse.ast.CreateTableStatement;
import dev.talus.cql.parse.ast.CreateTypeStatement;
import dev.talus.cql.parse.ast.DropIndexStatement;
import dev.talus.cql.parse.ast.DropKeyspaceStatement;
import dev.talus.cql.parse.ast.DropTableStatement;
import dev.talus.cql.parse.ast.DropTypeStatement;
import dev.talus.cql.parse.ast.FieldDefinition;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.IndexTarget;
import dev.talus.cql.parse.ast.PrimaryKey;
import dev.talus.cql.parse.ast.Properties;
import dev.talus.cql.parse.ast.Property;
import dev.talus.cql.parse.ast.QualifiedName;
import dev.talus.cql.parse.ast.Rename;
import dev.talus.cql.parse.ast.SourcePosition;
import dev.talus.cql.parse.ast.Term;
import dev.talus.cql.parse.ast.TruncateStatement;
import dev.talus.cql.parse.ast.UseStatement;
import java.util.ArrayList;
import java.util.List;

/**
 * Keyspace, table, type and index DDL, {@code USE} and {@code TRUNCATE}. Each method starts after
 * the statement's first keyword(s), which the dispatcher in {@link CqlParser} has read.
 */
abstract class DdlParser extends OptionsParser {
  DdlParser(SourceText source, List<Token> tokens) {
    super(source, tokens);
  }

  final boolean acceptKeyspaceKeyword() {
    return accept(Keyword.KEYSPACE) || accept(Keyword.SCHEMA);
  }

  final boolean acceptTableKeyword() {
    return accept(Keyword.TABLE) || accept(Keyword.COLUMNFAMILY);
  }

  final UseStatement use(SourcePosition p) {
    return new UseStatement(keyspaceName(), p);
  }

  final Identifier keyspaceName() {
    refuseBindMarker("a keyspace name");
    return name("a keyspace name");
  }

  final TruncateStatement truncate(SourcePosition p) {
    acceptTableKeyword();
    return new TruncateStatement(qualifiedName("a table name"), p);
  }

  // ---- keyspaces ----

  final CreateKeyspaceStatement createKeyspace(SourcePosition p) {
    boolean ifNotExists = ifNotExists();
    Identifier ks = keyspaceName();
    expect(Keyword.WITH);
    return new CreateKeyspaceStatement(ks, ifNotExists, properties(), p);
  }

  final AlterKeyspaceStatement alterKeyspace(SourcePosition p) {
    boolean ifExists = ifExists();
    Identifier ks = keyspaceName();
    expect(Keyword.WITH);
    return new AlterKeyspaceStatement(ks, ifExists, properties(), p);
  }

  final DropKeyspaceStatement dropKeyspace(SourcePosition p) {
    boolean ifExists = ifExists();
    return new DropKeyspaceStatement(keyspaceName(), ifExists, p);
  }

  // ---- tables ----

  final CreateTableStatement createTable(SourcePosition p) {
    boolean ifNotExists = ifNotExists();
    QualifiedName table = qualifiedName("a table name");
    expect(TokenKind.LPAREN);
    List<ColumnDefinition> columns = new ArrayList<>();
    List<PrimaryKey> keys = new ArrayList<>();
    tableElement(columns, keys);
    while (accept(TokenKind.COMMA)) {
      if (at(TokenKind.RPAREN)) {
        break; // Cassandra accepts a trailing comma
      }
      tableElement(columns, keys);
    }
    expectClosing(TokenKind.RPAREN, "the column definitions");
    TableOptions options = new TableOptions();
    if (accept(Keyword.WITH)) {
      tableOptions(options, true);
    }
    // Inline keys first (in column order), then PRIMARY KEY (...) elements: the order the printer
    // writes them in, so that a reprint parses to an equal tree.
    List<PrimaryKey> ordered = new ArrayList<>();
    keys.stream().filter(PrimaryKey::inline).forEach(ordered::add);
    keys.stream().filter(k -> !k.inline()).forEach(ordered::add);
    keys = ordered;
    return new CreateTableStatement(
        table,
        ifNotExists,
        columns,
        keys,
        options.clusteringOrder,
        options.compactStorage,
        new Properties(options.properties),
        p);
  }

  private void tableElement(List<ColumnDefinition> columns, List<PrimaryKey> keys) {
    if (at(Keyword.PRIMARY)) {
      SourcePosition p = position(advance());
      expect(Keyword.KEY);
      expect(TokenKind.LPAREN);
      List<Identifier> partition = new ArrayList<>();
      if (accept(TokenKind.LPAREN)) {
        partition.add(name("a partition key column"));
        while (accept(TokenKind.COMMA)) {
          partition.add(name("a partition key column"));
        }
        expectClosing(TokenKind.RPAREN, "the partition key");
      } else {
        partition.add(name("a partition key column"));
      }
      List<Identifier> clustering = new ArrayList<>();
      while (accept(TokenKind.COMMA)) {
        clustering.add(name("a clustering column"));
      }
      expectClosing(TokenKind.RPAREN, "the primary key");
      keys.add(new PrimaryKey(partition, clustering, false, p));
      return;
    }
    ColumnDefinition column = columnDefinition(true);
    columns.add(column);
    if (at(Keyword.PRIMARY)) {
      SourcePosition p = position(advance());
      expect(Keyword.KEY);
      keys.add(new PrimaryKey(List.of(column.name()), List.of(), true, p));
    }
  }

  /** {@code name type [STATIC] [MASKED WITH ...]}. */
  private ColumnDefinition columnDefinition(boolean maskAllowed) {
    Identifier name = name("a column name or PRIMARY KEY");
    CqlType type = type();
    boolean isStatic = accept(Keyword.STATIC);
    ColumnMask mask = maskAllowed && at(Keyword.MASKED) ? mask() : null;
    return new ColumnDefinition(name, type, isStatic, mask);
  }

  /** {@code MASKED WITH DEFAULT} or {@code MASKED WITH fn(args)}. */
  private ColumnMask mask() {
    SourcePosition p = position(expect(Keyword.MASKED));
    expect(Keyword.WITH);
    if (accept(Keyword.DEFAULT)) {
      return new ColumnMask(null, List.of(), p);
    }
    QualifiedName fn = functionNameAhead();
    if (fn == null) {
      throw unexpected("DEFAULT or a masking function call");
    }
    expect(TokenKind.LPAREN);
    List<Term> args = new ArrayList<>();
    if (!at(TokenKind.RPAREN)) {
      args.add(term());
      while (accept(TokenKind.COMMA)) {
        args.add(term());
      }
    }
    expectClosing(TokenKind.RPAREN, "the arguments");
    return new ColumnMask(fn, args, p);
  }

  /** What {@code WITH ...} of a table or view says. */
  static final class TableOptions {
    final List<Property> properties = new ArrayList<>();
    final List<ClusteringOrder> clusteringOrder = new ArrayList<>();
    boolean compactStorage;
  }

  /** {@code option (AND option)*} with CLUSTERING ORDER BY and COMPACT STORAGE. */
  final void tableOptions(TableOptions options, boolean compactStorageAllowed) {
    do {
      if (at(Keyword.COMPACT) && atAhead(1, Keyword.STORAGE)) {
        Token compact = advance();
        advance();
        if (!compactStorageAllowed) {
          throw source.error(compact, "COMPACT STORAGE is not allowed on a materialized view");
        }
        options.compactStorage = true;
      } else if (at(Keyword.CLUSTERING) && atAhead(1, Keyword.ORDER)) {
        advance();
        advance();
        expect(Keyword.BY);
        expect(TokenKind.LPAREN);
        do {
          Identifier column = name("a clustering column");
          boolean descending;
          if (accept(Keyword.DESC)) {
            descending = true;
          } else if (accept(Keyword.ASC)) {
            descending = false;
          } else {
            throw unexpected("ASC or DESC");
          }
          options.clusteringOrder.add(new ClusteringOrder(column, descending));
        } while (accept(TokenKind.COMMA));
        expectClosing(TokenKind.RPAREN, "the clustering order");
      } else {
        Token name = peek();
        addProperty(options.properties, property(), name);
      }
    } while (accept(Keyword.AND));
  }

  final AlterTableStatement alterTable(SourcePosition p) {
    boolean ifExists = ifExists();
    QualifiedName table = qualifiedName("a table name");
    AlterTableStatement.Action action;
    Token t = peek();
    if (accept(Keyword.ALTER)) {
      if (!at(Keyword.IF) && atAhead(1, Keyword.TYPE)) {
        Identifier column = name("a column name");
        advance();
        action = new AlterTableStatement.AlterColumnType(column, type());
      } else {
        boolean ifColumnExists = ifExists();
        Identifier column = name("a column name");
        if (at(Keyword.DROP)) {
          advance();
          expect(Keyword.MASKED);
          action = new AlterTableStatement.SetColumnMask(ifColumnExists, column, null);
        } else if (at(Keyword.MASKED)) {
          action = new AlterTableStatement.SetColumnMask(ifColumnExists, column, mask());
        } else {
          throw unexpected("TYPE, MASKED WITH or DROP MASKED");
        }
      }
    } else if (accept(Keyword.ADD)) {
      boolean ifNotExists = ifNotExists();
      List<ColumnDefinition> columns = new ArrayList<>();
      if (accept(TokenKind.LPAREN)) {
        do {
          columns.add(columnDefinition(true));
        } while (accept(TokenKind.COMMA));
        expectClosing(TokenKind.RPAREN, "the columns");
      } else {
        columns.add(columnDefinition(true));
      }
      action = new AlterTableStatement.AddColumns(ifNotExists, columns);
    } else if (at(Keyword.DROP) && atAhead(1, Keyword.COMPACT) && atAhead(2, Keyword.STORAGE)) {
      advance();
      advance();
      advance();
      action = new AlterTableStatement.DropCompactStorage();
    } else if (accept(Keyword.DROP)) {
      boolean ifColumnExists = ifExists();
      List<Identifier> columns = new ArrayList<>();
      if (accept(TokenKind.LPAREN)) {
        do {
          columns.add(name("a column name"));
        } while (accept(TokenKind.COMMA));
        expectClosing(TokenKind.RPAREN, "the columns");
      } else {
        columns.add(name("a column name"));
      }
      Term.Literal timestamp = null;
      if (accept(Keyword.USING)) {
        expect(Keyword.TIMESTAMP);
        if (!at(TokenKind.INTEGER)) {
          throw unexpected("the timestamp, an integer");
        }
        Token ts = peek();
        timestamp = literal();
        try {
          Long.parseLong(ts.text());
        } catch (NumberFormatException e) {
          throw source.error(ts, "the timestamp " + ts.text() + " does not fit in a bigint");
        }
      }
      action = new AlterTableStatement.DropColumns(ifColumnExists, columns, timestamp);
    } else if (accept(Keyword.RENAME)) {
      boolean ifColumnExists = ifExists();
      action = new AlterTableStatement.RenameColumns(ifColumnExists, renames());
    } else if (accept(Keyword.WITH)) {
      action = new AlterTableStatement.SetOptions(properties());
    } else {
      throw unexpectedAt(t, "ADD, DROP, RENAME, ALTER or WITH");
    }
    return new AlterTableStatement(table, ifExists, action, p);
  }

  private List<Rename> renames() {
    List<Rename> renames = new ArrayList<>();
    do {
      Identifier from = name("a name");
      expect(Keyword.TO);
      renames.add(new Rename(from, name("the new name")));
    } while (accept(Keyword.AND));
    return renames;
  }

  final DropTableStatement dropTable(SourcePosition p) {
    boolean ifExists = ifExists();
    return new DropTableStatement(qualifiedName("a table name"), ifExists, p);
  }

  // ---- user types ----

  final CreateTypeStatement createType(SourcePosition p) {
    boolean ifNotExists = ifNotExists();
    QualifiedName type = userTypeName();
    expect(TokenKind.LPAREN);
    List<FieldDefinition> fields = new ArrayList<>();
    fields.add(field());
    while (accept(TokenKind.COMMA)) {
      if (at(TokenKind.RPAREN)) {
        break; // Cassandra accepts a trailing comma
      }
      fields.add(field());
    }
    expectClosing(TokenKind.RPAREN, "the fields");
    return new CreateTypeStatement(type, ifNotExists, fields, p);
  }

  private FieldDefinition field() {
    Identifier name = name("a field name");
    return new FieldDefinition(name, type());
  }

  final AlterTypeStatement alterType(SourcePosition p) {
    boolean ifExists = ifExists();
    QualifiedName type = userTypeName();
    AlterTypeStatement.Action action;
    if (accept(Keyword.ALTER)) {
      Identifier field = name("a field name");
      expect(Keyword.TYPE);
      action = new AlterTypeStatement.AlterFieldType(field, type());
    } else if (accept(Keyword.ADD)) {
      boolean ifNotExists = ifNotExists();
      action = new AlterTypeStatement.AddField(ifNotExists, field());
    } else if (accept(Keyword.RENAME)) {
      boolean ifFieldExists = ifExists();
      action = new AlterTypeStatement.RenameFields(ifFieldExists, renames());
    } else {
      throw unexpected("ADD, RENAME or ALTER");
    }
    return new AlterTypeStatement(type, ifExists, action, p);
  }

  final DropTypeStatement dropType(SourcePosition p) {
    boolean ifExists = ifExists();
    return new DropTypeStatement(userTypeName(), ifExists, p);
  }

  // ---- indexes ----

  /** After {@code CREATE [CUSTOM] INDEX}. */
  final CreateIndexStatement createIndex(SourcePosition p, boolean custom) {
    boolean ifNotExists = ifNotExists();
    Identifier name = null;
    if (!at(Keyword.ON)) {
      refuseBindMarker("an index name");
      name = name("an index name or ON");
    }
    expect(Keyword.ON);
    QualifiedName table = qualifiedName("a table name");
    expect(TokenKind.LPAREN);
    List<IndexTarget> targets = new ArrayList<>();
    if (!at(TokenKind.RPAREN)) {
      do {
        targets.add(indexTarget());
      } while (accept(TokenKind.COMMA));
    }
    expectClosing(TokenKind.RPAREN, "the indexed columns");
    String using = null;
    if (accept(Keyword.USING)) {
      if (!at(TokenKind.STRING)) {
        throw unexpected("the index class or kind as a string, e.g. 'sai'");
      }
      using = advance().text();
    }
    Properties properties = Properties.NONE;
    if (accept(Keyword.WITH)) {
      properties = properties();
    }
    return new CreateIndexStatement(
        name, table, custom, ifNotExists, targets, using, properties, p);
  }

  private IndexTarget indexTarget() {
    Token t = peek();
    IndexTarget.Kind kind = null;
    if (atAhead(1, TokenKind.LPAREN) && t.keyword() != null) {
      kind =
          switch (t.keyword()) {
            case KEYS -> IndexTarget.Kind.KEYS;
            case VALUES -> IndexTarget.Kind.VALUES;
            case ENTRIES -> IndexTarget.Kind.ENTRIES;
            case FULL -> IndexTarget.Kind.FULL;
            default -> null;
          };
    }
    if (kind == null) {
      return new IndexTarget(
          IndexTarget.Kind.SIMPLE,
          columnRef("a column, keys(c), values(c), entries(c) or full(c)"));
    }
    advance();
    advance();
    Identifier column = columnRef("a column name");
    expect(TokenKind.RPAREN);
    return new IndexTarget(kind, column);
  }

  final DropIndexStatement dropIndex(SourcePosition p) {
    boolean ifExists = ifExists();
    return new DropIndexStatement(qualifiedName("an index name"), ifExists, p);
  }
}
