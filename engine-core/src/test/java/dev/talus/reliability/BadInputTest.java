package dev.talus.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.ClusteringOrder;
import dev.talus.DataType;
import dev.talus.InvalidQueryException;
import dev.talus.InvalidSchemaException;
import dev.talus.ResultRow;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusClosedException;
import dev.talus.TalusDb;
import dev.talus.TalusException;
import dev.talus.TalusOptions;
import dev.talus.WriteRejectedException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input at the API, table-driven: every case is rejected with a specific exception and message,
 * and the table's content (memtable and SSTables) is the same before and after it.
 */
class BadInputTest {
  @TempDir Path tmp;

  /** One row of the table: what to do, which exception, which words the message must contain. */
  record Case(
      String name, Consumer<TalusDb> action, Class<? extends TalusException> type, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static TableSchema schema() {
    return TableSchema.builder("bad")
        .partitionKey("k", DataType.TEXT)
        .clusteringColumn("c", DataType.INT, ClusteringOrder.ASC)
        .column("v", DataType.TEXT)
        .column("n", DataType.INT)
        .column("b", DataType.BLOB)
        .build();
  }

  static TableSchema blobKeyed() {
    return TableSchema.builder("blobkey")
        .partitionKey("k", DataType.BLOB)
        .column("v", DataType.TEXT)
        .build();
  }

  static TableSchema composite() {
    return TableSchema.builder("comp")
        .partitionKey("a", DataType.TEXT)
        .partitionKey("b", DataType.INT)
        .column("v", DataType.TEXT)
        .build();
  }

  private static final long TWENTY_YEARS_AND_A_DAY = 20L * 365 * 86_400 + 86_400;

  static List<Case> cases() {
    byte[] huge = new byte[(16 << 20) + 1];
    // the options below use 1 MiB segments: a mutation may use at most 512 KiB of one
    String bigMutation = "x".repeat(600 << 10);
    List<Case> cases = new ArrayList<>();
    cases.add(
        new Case(
            "value over 16 MiB",
            db -> db.table("bad").insert().value("k", "a").value("c", 1).value("b", huge).execute(),
            InvalidQueryException.class,
            "the limit is 16777216 bytes"));
    cases.add(
        new Case(
            "mutation over half a commit-log segment",
            db ->
                db.table("bad")
                    .insert()
                    .value("k", "a")
                    .value("c", 1)
                    .value("v", bigMutation)
                    .execute(),
            WriteRejectedException.class,
            "half a segment"));
    cases.add(
        new Case(
            "mutation over half a segment in a batch",
            db -> {
              var batch = db.batch();
              for (int i = 0; i < 3; i++) {
                batch.add(
                    db.table("bad")
                        .insert()
                        .value("k", "a")
                        .value("c", 100 + i)
                        .value("v", "y".repeat(200 << 10)));
              }
              batch.execute();
            },
            WriteRejectedException.class,
            "half a segment"));
    cases.add(
        new Case(
            "empty text partition key",
            db -> db.table("bad").insert().value("k", "").value("c", 1).value("v", "x").execute(),
            InvalidQueryException.class,
            "Key may not be empty"));
    cases.add(
        new Case(
            "empty text partition key in an UPDATE",
            db -> db.table("bad").update().where("k", "").where("c", 1).set("v", "x").execute(),
            InvalidQueryException.class,
            "Key may not be empty"));
    cases.add(
        new Case(
            "empty text partition key in a DELETE",
            db -> db.table("bad").delete().eq("k", "").execute(),
            InvalidQueryException.class,
            "Key may not be empty"));
    cases.add(
        new Case(
            "empty blob partition key",
            db -> db.table("blobkey").insert().value("k", new byte[0]).value("v", "x").execute(),
            InvalidQueryException.class,
            "Key may not be empty"));
    cases.add(
        new Case(
            "wrong type for a regular column",
            db ->
                db.table("bad")
                    .insert()
                    .value("k", "a")
                    .value("c", 1)
                    .value("n", "seven")
                    .execute(),
            InvalidQueryException.class,
            "bad value for column n"));
    cases.add(
        new Case(
            "wrong type for a clustering column",
            db -> db.table("bad").insert().value("k", "a").value("c", "one").execute(),
            InvalidQueryException.class,
            "bad value for column c"));
    cases.add(
        new Case(
            "wrong type for a partition key column",
            db -> db.table("bad").insert().value("k", 42).value("c", 1).execute(),
            InvalidQueryException.class,
            "bad value for column k"));
    cases.add(
        new Case(
            "unknown column in an INSERT",
            db -> db.table("bad").insert().value("k", "a").value("c", 1).value("zz", 1).execute(),
            InvalidQueryException.class,
            "unknown column zz"));
    cases.add(
        new Case(
            "unknown column in an UPDATE",
            db -> db.table("bad").update().where("k", "a").where("c", 1).set("zz", 1).execute(),
            InvalidQueryException.class,
            "unknown column zz"));
    cases.add(
        new Case(
            "unknown column in a SELECT",
            db -> db.table("bad").select().eq("zz", "a").execute(),
            InvalidQueryException.class,
            "zz"));
    cases.add(
        new Case(
            "null partition key",
            db -> db.table("bad").insert().value("k", null).value("c", 1).execute(),
            InvalidQueryException.class,
            "cannot be null"));
    cases.add(
        new Case(
            "null clustering column",
            db -> db.table("bad").insert().value("k", "a").value("c", null).execute(),
            InvalidQueryException.class,
            "cannot be null"));
    cases.add(
        new Case(
            "null component of a composite partition key",
            db -> db.table("comp").insert().value("a", "x").value("b", null).execute(),
            InvalidQueryException.class,
            "cannot be null"));
    cases.add(
        new Case(
            "missing partition key column",
            db -> db.table("comp").insert().value("a", "x").value("v", "y").execute(),
            InvalidQueryException.class,
            "b"));
    cases.add(
        new Case(
            "invalid table name",
            db ->
                db.createTable(
                    TableSchema.builder("../escape").partitionKey("k", DataType.INT).build()),
            InvalidSchemaException.class,
            "invalid table name"));
    cases.add(
        new Case(
            "table name over 48 characters",
            db ->
                db.createTable(
                    TableSchema.builder("t".repeat(49)).partitionKey("k", DataType.INT).build()),
            InvalidSchemaException.class,
            "invalid table name"));
    cases.add(
        new Case(
            "invalid column name",
            db ->
                db.createTable(
                    TableSchema.builder("okname").partitionKey("k-1", DataType.INT).build()),
            InvalidSchemaException.class,
            "invalid column name"));
    cases.add(
        new Case("unknown table", db -> db.table("nosuch"), InvalidQueryException.class, "nosuch"));
    cases.add(
        new Case(
            "negative TTL",
            db ->
                db.table("bad")
                    .insert()
                    .value("k", "a")
                    .value("c", 1)
                    .value("v", "x")
                    .ttl(Duration.ofSeconds(-1))
                    .execute(),
            InvalidQueryException.class,
            "TTL must not be negative"));
    cases.add(
        new Case(
            "TTL over 20 x 365 days",
            db ->
                db.table("bad")
                    .update()
                    .where("k", "a")
                    .where("c", 1)
                    .set("v", "x")
                    .ttl(Duration.ofSeconds(TWENTY_YEARS_AND_A_DAY))
                    .execute(),
            InvalidQueryException.class,
            "TTL must be at most 630720000 seconds"));
    cases.add(
        new Case(
            "timestamp Long.MIN_VALUE",
            db ->
                db.table("bad")
                    .insert()
                    .value("k", "a")
                    .value("c", 1)
                    .timestamp(Long.MIN_VALUE)
                    .execute(),
            InvalidQueryException.class,
            "reserved"));
    return cases;
  }

  private static TalusOptions options(Path dir) {
    return TalusOptions.builder(dir)
        .commitLogSegmentBytes(1 << 20)
        .backgroundCompaction(false)
        .build();
  }

  /** Every row of every table, as text, in a stable order. */
  private static List<String> content(TalusDb db) {
    List<String> out = new ArrayList<>();
    for (String k : List.of("a", "b", "c")) {
      for (ResultRow r : db.table("bad").select().eq("k", k).execute()) {
        out.add(
            k
                + "/"
                + r.getInt("c")
                + "="
                + r.getString("v")
                + ","
                + r.getInt("n")
                + ","
                + Arrays.toString(r.getBytes("b")));
      }
    }
    out.add(String.valueOf(db.table("blobkey").select().eq("k", new byte[] {1}).execute().rows()));
    out.add(String.valueOf(db.table("comp").select().eq("a", "x").eq("b", 1).execute().rows()));
    return out;
  }

  @Test
  void everyBadInputIsRejectedSpecificallyAndChangesNothing() {
    Path dir = tmp.resolve("db");
    TalusDb db = TalusDb.open(options(dir));
    Table t = db.createTable(schema());
    db.createTable(blobKeyed()).insert().value("k", new byte[] {1}).value("v", "one").execute();
    db.createTable(composite()).insert().value("a", "x").value("b", 1).value("v", "y").execute();
    for (int i = 0; i < 30; i++) {
      t.insert()
          .value("k", List.of("a", "b", "c").get(i % 3))
          .value("c", i)
          .value("v", "v" + i)
          .value("n", i)
          .value("b", new byte[] {(byte) i})
          .execute();
      if (i == 14) {
        t.flush(); // half in an SSTable, half in the memtable
      }
    }
    List<String> before = content(db);
    assertThat(before).hasSize(32);
    List<String> report = new ArrayList<>();
    for (Case c : cases()) {
      assertThatThrownBy(() -> c.action().accept(db))
          .as(c.name())
          .isInstanceOf(c.type())
          .hasMessageContaining(c.message());
      assertThat(content(db)).as("content after: " + c.name()).isEqualTo(before);
      report.add(c.name() + " -> " + c.type().getSimpleName());
    }
    // the log holds nothing of the rejected writes either: reopen and compare
    db.close();
    try (TalusDb reopened = TalusDb.open(options(dir))) {
      assertThat(content(reopened)).as("after reopen").isEqualTo(before);
    }
    System.out.println(
        "[bad-input] " + report.size() + " cases rejected:\n  " + String.join("\n  ", report));
  }

  @Test
  void operationsAfterCloseThrowTalusClosedExceptionAndLeaveTheDataAlone() {
    Path dir = tmp.resolve("closed");
    TalusDb db = TalusDb.open(options(dir));
    Table t = db.createTable(schema());
    db.createTable(blobKeyed());
    db.createTable(composite());
    t.insert().value("k", "a").value("c", 1).value("v", "kept").execute();
    List<String> before = content(db);
    db.close();
    db.close(); // idempotent
    List<Consumer<TalusDb>> afterClose =
        List.of(
            d -> t.insert().value("k", "a").value("c", 2).value("v", "late").execute(),
            d -> t.update().where("k", "a").where("c", 1).set("v", "late").execute(),
            d -> t.delete().eq("k", "a").execute(),
            d -> t.select().eq("k", "a").execute(),
            d -> t.flush(),
            d -> t.compact(),
            d -> t.verify(),
            d -> t.stats(),
            d -> d.table("bad"),
            d -> d.createTable(TableSchema.builder("x").partitionKey("k", DataType.INT).build()),
            d -> d.batch().add(t.insert().value("k", "b").value("c", 1)).execute());
    for (Consumer<TalusDb> op : afterClose) {
      assertThatThrownBy(() -> op.accept(db))
          .isInstanceOf(TalusClosedException.class)
          .hasMessageContaining("closed");
    }
    try (TalusDb reopened = TalusDb.open(options(dir))) {
      assertThat(content(reopened)).isEqualTo(before);
      assertThat(before.get(0)).contains("kept");
    }
  }
}
