package dev.talus.cql.parse.ast;

import java.util.List;

/**
 * {@code CREATE [CUSTOM] INDEX [IF NOT EXISTS] [name] ON table (targets) [USING 'class'] [WITH
 * OPTIONS = {...}]}, e.g. {@code CREATE INDEX ON t (v) USING 'sai' WITH OPTIONS =
 * {'similarity_function': 'cosine'}}.
 *
 * @param name the index's name, or null for a generated one
 * @param table the table
 * @param custom true for {@code CUSTOM}
 * @param ifNotExists true for {@code IF NOT EXISTS}
 * @param targets what is indexed (empty is parsed and refused when preparing)
 * @param using the class or short name after {@code USING} ({@code 'sai'}), or null
 * @param properties the {@code WITH} options
 * @param position where {@code CREATE} was written
 */
public record CreateIndexStatement(
    Identifier name,
    QualifiedName table,
    boolean custom,
    boolean ifNotExists,
    List<IndexTarget> targets,
    String using,
    Properties properties,
    SourcePosition position)
    implements RawStatement {
  public CreateIndexStatement {
    targets = List.copyOf(targets);
  }

  @Override
  public <R> R accept(StatementVisitor<R> visitor) {
    return visitor.visitCreateIndex(this);
  }
}
