package dev.talus.cql.parse;

import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.Properties;
import dev.talus.cql.parse.ast.Property;
import dev.talus.cql.parse.ast.PropertyValue;
import dev.talus.cql.parse.ast.SourcePosition;
import dev.talus.cql.parse.ast.Term;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code WITH name = value AND ...} options of DDL statements (Cassandra's {@code properties},
 * {@code property}, {@code propertyValue}, {@code fullMapLiteral}): values are constants,
 * unreserved keywords or maps of constants, never bind markers, and no name or map key is given
 * twice.
 */
abstract class OptionsParser extends DmlParser {
  OptionsParser(SourceText source, List<Token> tokens) {
    super(source, tokens);
  }

  /** {@code name = value (AND name = value)*}. */
  final Properties properties() {
    List<Property> list = new ArrayList<>();
    do {
      Token name = peek();
      addProperty(list, property(), name);
    } while (accept(Keyword.AND));
    return new Properties(list);
  }

  final Property property() {
    Identifier name = name("an option name");
    expect(TokenKind.EQ);
    Token t = peek();
    PropertyValue value;
    if (t.is(TokenKind.LBRACE)) {
      value = constantMap();
    } else if (TermParser.isConstant(t)) {
      value = new PropertyValue.Constant(literal());
    } else if (t.kind() == TokenKind.KEYWORD && t.keyword().usableAsName()) {
      advance();
      value = new PropertyValue.Word(t.text(), position(t));
    } else if (atMarker()) {
      throw source.error(t, "bind markers cannot be used in the options of a DDL statement");
    } else {
      throw unexpected("the value of " + name.name() + ": a constant or a map {'key': value}");
    }
    return new Property(name, value);
  }

  /** Adds an option, refusing a second one of the same name (written at {@code name}). */
  final void addProperty(List<Property> list, Property p, Token name) {
    for (Property other : list) {
      if (other.name().name().equals(p.name().name())) {
        throw source.error(name, "the option " + p.name().name() + " is given twice; give it once");
      }
    }
    list.add(p);
  }

  /** {@code {key: value, ...}} where keys and values are constants. */
  final PropertyValue.MapValue constantMap() {
    SourcePosition p = position(expect(TokenKind.LBRACE));
    List<PropertyValue.Entry> entries = new ArrayList<>();
    if (!at(TokenKind.RBRACE)) {
      do {
        Token keyToken = peek();
        Term.Literal key = constantOf(term(), keyToken, "key");
        expect(TokenKind.COLON);
        Token valueToken = peek();
        Term.Literal value = constantOf(term(), valueToken, "value");
        for (PropertyValue.Entry e : entries) {
          if (e.key().text().equals(key.text())) {
            throw source.error(
                keyToken, "the key " + key.text() + " is given twice in the map; give it once");
          }
        }
        entries.add(new PropertyValue.Entry(key, value));
      } while (accept(TokenKind.COMMA));
    }
    expectClosing(TokenKind.RBRACE, "the map");
    return new PropertyValue.MapValue(entries, p);
  }

  private Term.Literal constantOf(Term term, Token at, String what) {
    if (term instanceof Term.Literal literal) {
      return literal;
    }
    String reason =
        term instanceof Term.BindMarker
            ? "bind markers cannot be used in the options of a DDL statement"
            : "an option map " + what + " must be a constant (a string, number or boolean)";
    throw source.error(at, reason);
  }
}
