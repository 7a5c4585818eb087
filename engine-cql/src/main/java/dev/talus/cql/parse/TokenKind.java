package dev.talus.cql.parse;

/** The kinds of tokens the lexer produces. */
enum TokenKind {
  IDENT("an identifier"),
  QUOTED_NAME("a quoted identifier"),
  KEYWORD("a keyword"),
  STRING("a string"),
  INTEGER("an integer"),
  FLOAT("a number"),
  BOOLEAN("a boolean"),
  DURATION("a duration"),
  UUID("a UUID"),
  HEXNUMBER("a blob"),
  LPAREN("'('"),
  RPAREN("')'"),
  LBRACKET("'['"),
  RBRACKET("']'"),
  LBRACE("'{'"),
  RBRACE("'}'"),
  COMMA("','"),
  SEMICOLON("';'"),
  COLON("':'"),
  DOT("'.'"),
  RANGE("'..'"),
  EQ("'='"),
  NEQ("'!='"),
  LT("'<'"),
  LTE("'<='"),
  GT("'>'"),
  GTE("'>='"),
  PLUS("'+'"),
  MINUS("'-'"),
  STAR("'*'"),
  SLASH("'/'"),
  PERCENT("'%'"),
  QMARK("'?'"),
  PLUS_EQ("'+='"),
  MINUS_EQ("'-='"),
  EOF("the end of the input");

  private final String description;

  TokenKind(String description) {
    this.description = description;
  }

  String description() {
    return description;
  }
}
