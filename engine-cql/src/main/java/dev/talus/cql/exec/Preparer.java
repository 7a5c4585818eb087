package dev.talus.cql.exec;

import dev.talus.cql.exec.ddl.CreateTableExec;
import dev.talus.cql.exec.ddl.KeyspaceDdl;
import dev.talus.cql.exec.ddl.TableAlter;
import dev.talus.cql.exec.ddl.TableDrop;
import dev.talus.cql.exec.ddl.TypeDdl;
import dev.talus.cql.exec.dml.Writes;
import dev.talus.cql.exec.meta.DescribeExec;
import dev.talus.cql.exec.support.Executable;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.parse.ast.AlterKeyspaceStatement;
import dev.talus.cql.parse.ast.AlterTableStatement;
import dev.talus.cql.parse.ast.AlterTypeStatement;
import dev.talus.cql.parse.ast.BatchStatement;
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
import dev.talus.cql.parse.ast.InsertJsonStatement;
import dev.talus.cql.parse.ast.InsertStatement;
import dev.talus.cql.parse.ast.RawStatement;
import dev.talus.cql.parse.ast.SelectStatement;
import dev.talus.cql.parse.ast.StatementVisitor;
import dev.talus.cql.parse.ast.TruncateStatement;
import dev.talus.cql.parse.ast.UnsupportedStatement;
import dev.talus.cql.parse.ast.UpdateStatement;
import dev.talus.cql.parse.ast.UseStatement;

/**
 * Prepares a parsed statement into its executable form, one statement kind per visitor method
 * (Cassandra's raw → prepared step): the data statements and {@code BATCH} in {@code exec.dml}, the
 * keyspace and table statements in {@code exec.ddl}, {@code DESCRIBE} and the system tables in
 * {@code exec.meta}. A kind the engine cannot run yet ({@code DROP TABLE}, {@code TRUNCATE}, types,
 * indexes) is refused as {@code not supported yet by Talus}; one Talus will never run (roles,
 * views, user code) as {@code not supported by Talus}. Stateless; one instance per preparation.
 */
public final class Preparer implements StatementVisitor<Executable> {
  private final PrepareContext pc;

  private Preparer(PrepareContext pc) {
    this.pc = pc;
  }

  /** Prepares {@code statement} in {@code pc}. */
  public static Executable prepare(RawStatement statement, PrepareContext pc) {
    return statement.accept(new Preparer(pc));
  }

  private Source src() {
    return pc.source();
  }

  @Override
  public Executable visitSelect(SelectStatement s) {
    return Writes.select(s, pc);
  }

  @Override
  public Executable visitInsert(InsertStatement s) {
    return Writes.write(s, pc);
  }

  @Override
  public Executable visitInsertJson(InsertJsonStatement s) {
    return Writes.write(s, pc);
  }

  @Override
  public Executable visitUpdate(UpdateStatement s) {
    return Writes.write(s, pc);
  }

  @Override
  public Executable visitDelete(DeleteStatement s) {
    return Writes.write(s, pc);
  }

  @Override
  public Executable visitBatch(BatchStatement s) {
    return Writes.batch(s, pc);
  }

  @Override
  public Executable visitUse(UseStatement s) {
    return KeyspaceDdl.use(s, pc);
  }

  @Override
  public Executable visitTruncate(TruncateStatement s) {
    return TableDrop.truncate(s, pc);
  }

  @Override
  public Executable visitCreateKeyspace(CreateKeyspaceStatement s) {
    return KeyspaceDdl.create(s, pc);
  }

  @Override
  public Executable visitAlterKeyspace(AlterKeyspaceStatement s) {
    return KeyspaceDdl.alter(s, pc);
  }

  @Override
  public Executable visitDropKeyspace(DropKeyspaceStatement s) {
    return KeyspaceDdl.drop(s, pc);
  }

  @Override
  public Executable visitCreateTable(CreateTableStatement s) {
    return CreateTableExec.prepare(s, pc);
  }

  @Override
  public Executable visitAlterTable(AlterTableStatement s) {
    return TableAlter.prepare(s, pc);
  }

  @Override
  public Executable visitDropTable(DropTableStatement s) {
    return TableDrop.drop(s, pc);
  }

  @Override
  public Executable visitCreateType(CreateTypeStatement s) {
    return TypeDdl.create(s, pc);
  }

  @Override
  public Executable visitAlterType(AlterTypeStatement s) {
    return TypeDdl.alter(s, pc);
  }

  @Override
  public Executable visitDropType(DropTypeStatement s) {
    return TypeDdl.drop(s, pc);
  }

  @Override
  public Executable visitCreateIndex(CreateIndexStatement s) {
    return dev.talus.cql.exec.ddl.IndexDdl.create(s, pc);
  }

  @Override
  public Executable visitDropIndex(DropIndexStatement s) {
    return dev.talus.cql.exec.ddl.IndexDdl.drop(s, pc);
  }

  @Override
  public Executable visitDescribe(DescribeStatement s) {
    return DescribeExec.prepare(s, pc);
  }

  @Override
  public Executable visitUnsupported(UnsupportedStatement s) {
    throw src().never(s.position(), s.statement().length(), s.statement(), s.refusal());
  }
}
