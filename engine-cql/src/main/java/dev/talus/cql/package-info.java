/**
 * The CQL language on Talus (Cassandra 5.0's dialect of CQL 3). For now this package holds only
 * {@link dev.talus.cql.CqlSyntaxException}, the error every syntactically invalid statement raises;
 * the statement executor, prepared statements and result sets will join it.
 *
 * <p>The lexer, parser and syntax tree live in {@code dev.talus.cql.parse} and its sub-packages:
 * they are internal to this module and not an API.
 */
package dev.talus.cql;
