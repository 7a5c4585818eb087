/**
 * <b>Internal to engine-cql; not an API.</b> The CQL front end: {@link
 * dev.talus.cql.parse.CqlParser} turns text into the syntax trees of {@code
 * dev.talus.cql.parse.ast}, {@link dev.talus.cql.parse.CqlScript} reads files of statements, and
 * {@link dev.talus.cql.parse.CqlPrinter} prints a tree back as canonical CQL. Syntax errors are
 * {@link dev.talus.cql.CqlSyntaxException}s.
 *
 * <p>The grammar is Cassandra 5.0's ({@code src/antlr/Lexer.g} and {@code Parser.g}), written again
 * by hand as a recursive-descent parser; see {@link dev.talus.cql.parse.CqlParser} for why.
 */
package dev.talus.cql.parse;
