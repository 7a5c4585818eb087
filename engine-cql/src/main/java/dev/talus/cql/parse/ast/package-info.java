/**
 * <b>Internal to engine-cql; not an API.</b> The syntax trees of CQL statements: one record per
 * statement kind ({@link dev.talus.cql.parse.ast.RawStatement}), and the terms, selectors,
 * relations, conditions, types and options they are made of. Trees are immutable; positions take no
 * part in equality. {@link dev.talus.cql.parse.ast.Literals} converts literal texts to Java values
 * where the language defines how.
 *
 * <p>Optional parts of a node are {@code null} when absent, as each record's documentation says;
 * lists are never null.
 */
package dev.talus.cql.parse.ast;
