package dev.talus.cql.parse.ast;

/**
 * One method per kind of {@link RawStatement}: how the executor will prepare statements, and how
 * the printer prints them.
 *
 * @param <R> what each method returns
 */
public interface StatementVisitor<R> {
  R visitSelect(SelectStatement s);

  R visitInsert(InsertStatement s);

  R visitInsertJson(InsertJsonStatement s);

  R visitUpdate(UpdateStatement s);

  R visitDelete(DeleteStatement s);

  R visitBatch(BatchStatement s);

  R visitUse(UseStatement s);

  R visitTruncate(TruncateStatement s);

  R visitCreateKeyspace(CreateKeyspaceStatement s);

  R visitAlterKeyspace(AlterKeyspaceStatement s);

  R visitDropKeyspace(DropKeyspaceStatement s);

  R visitCreateTable(CreateTableStatement s);

  R visitAlterTable(AlterTableStatement s);

  R visitDropTable(DropTableStatement s);

  R visitCreateType(CreateTypeStatement s);

  R visitAlterType(AlterTypeStatement s);

  R visitDropType(DropTypeStatement s);

  R visitCreateIndex(CreateIndexStatement s);

  R visitDropIndex(DropIndexStatement s);

  R visitDescribe(DescribeStatement s);

  R visitUnsupported(UnsupportedStatement s);
}
