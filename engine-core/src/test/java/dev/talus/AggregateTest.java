package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Aggregates through the public API: count, min, max, sum and avg over a partition, a slice and a
 * scan, with Cassandra's result types and its handling of nulls, empty inputs, overflow and
 * truncation; deleted and expired rows are not counted; more rows than one internal page.
 */
class AggregateTest {
  @TempDir Path dir;
  private final ManualClock clock = ManualClock.startingAtDefault();
  private TalusDb db;
  private Table t;

  @BeforeEach
  void open() {
    db = TalusDb.open(TalusOptions.builder(dir).clock(clock).build());
    t =
        db.createTable(
            TableSchema.builder("readings")
                .partitionKey("sensor", DataType.INT)
                .clusteringColumn("at", DataType.INT)
                .column("i", DataType.INT)
                .column("b", DataType.BIGINT)
                .column("s", DataType.SMALLINT)
                .column("d", DataType.DOUBLE)
                .column("f", DataType.FLOAT)
                .column("n", DataType.VARINT)
                .column("m", DataType.DECIMAL)
                .column("txt", DataType.TEXT)
                .build());
  }

  @AfterEach
  void close() {
    db.close();
  }

  private void put(int sensor, int at, int i) {
    t.insert()
        .value("sensor", sensor)
        .value("at", at)
        .value("i", i)
        .value("b", (long) i)
        .value("s", (short) i)
        .value("d", i / 2.0)
        .value("f", i / 4.0f)
        .value("n", BigInteger.valueOf(i))
        .value("m", BigDecimal.valueOf(i, 1))
        .value("txt", "t" + i)
        .execute();
  }

  @Test
  void overAPartitionASliceAndAScanWithCassandrasResultTypes() {
    for (int at = 1; at <= 4; at++) {
      put(1, at, at); // 1..4
      put(2, at, 10 * at); // 10..40
    }
    Select p1 = t.select().eq("sensor", 1);
    assertThat(p1.count()).isEqualTo(4L);
    assertThat(t.select().eq("sensor", 1).sum("i")).isEqualTo(10);
    assertThat(t.select().eq("sensor", 1).avg("i")).isEqualTo(2); // 2.5 truncated, an int
    assertThat(t.select().eq("sensor", 1).avg("b")).isEqualTo(2L);
    assertThat(t.select().eq("sensor", 1).sum("s")).isEqualTo((short) 10);
    assertThat(t.select().eq("sensor", 1).avg("d")).isEqualTo(1.25);
    assertThat(t.select().eq("sensor", 1).sum("f")).isEqualTo(2.5f);
    assertThat(t.select().eq("sensor", 1).sum("n")).isEqualTo(BigInteger.TEN);
    assertThat(t.select().eq("sensor", 1).sum("m")).isEqualTo(new BigDecimal("1.0"));
    assertThat(t.select().eq("sensor", 1).avg("m")).isEqualTo(new BigDecimal("0.2"));
    assertThat(t.select().eq("sensor", 1).min("txt")).isEqualTo("t1");
    assertThat(t.select().eq("sensor", 1).max("i")).isEqualTo(4);
    // a slice
    assertThat(t.select().eq("sensor", 2).ge("at", 2).le("at", 3).sum("i")).isEqualTo(50);
    assertThat(t.select().eq("sensor", 2).gt("at", 1).min("i")).isEqualTo(20);
    // IN and a scan
    assertThat(t.select().in("sensor", 1, 2).count()).isEqualTo(8L);
    assertThat(t.select().count()).isEqualTo(8L);
    assertThat(t.select().sum("b")).isEqualTo(110L);
    assertThat(t.select().max("i")).isEqualTo(40);
    assertThat(t.select().gt("i", 3).allowFiltering().count()).isEqualTo(5L);
    assertThatThrownBy(() -> t.select().gt("i", 3).count())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("allowFiltering()");
  }

  @Test
  void nullsAreSkippedAndEmptyInputsGiveCassandrasValues() {
    t.insert().value("sensor", 1).value("at", 1).value("i", 5).execute();
    t.insert().value("sensor", 1).value("at", 2).execute(); // i is null
    assertThat(t.select().eq("sensor", 1).count()).isEqualTo(2L);
    assertThat(t.select().eq("sensor", 1).count("i")).isEqualTo(1L);
    assertThat(t.select().eq("sensor", 1).avg("i")).isEqualTo(5);
    Select none = t.select().eq("sensor", 9);
    assertThat(none.count()).isZero();
    assertThat(t.select().eq("sensor", 9).min("i")).isNull();
    assertThat(t.select().eq("sensor", 9).sum("i")).isEqualTo(0);
    assertThat(t.select().eq("sensor", 9).avg("d")).isEqualTo(0.0);
    assertThat(t.select().eq("sensor", 9).sum("n")).isEqualTo(BigInteger.ZERO);
  }

  @Test
  void integerSumsWrapAroundAndAveragesDoNot() {
    t.insert().value("sensor", 1).value("at", 1).value("i", Integer.MAX_VALUE).execute();
    t.insert().value("sensor", 1).value("at", 2).value("i", Integer.MAX_VALUE).execute();
    t.insert().value("sensor", 1).value("at", 1).value("b", Long.MAX_VALUE).execute();
    t.insert().value("sensor", 1).value("at", 2).value("b", Long.MAX_VALUE).execute();
    assertThat(t.select().eq("sensor", 1).sum("i")).isEqualTo(-2);
    assertThat(t.select().eq("sensor", 1).avg("i")).isEqualTo(Integer.MAX_VALUE);
    assertThat(t.select().eq("sensor", 1).sum("b")).isEqualTo(-2L);
    assertThat(t.select().eq("sensor", 1).avg("b")).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void deletedAndExpiredRowsAreNotAggregatedAndManyPagesAreRead() {
    int rows = 12_345; // more than two internal pages
    for (int at = 0; at < rows; at++) {
      t.insert().value("sensor", at % 3).value("at", at).value("i", 1).execute();
    }
    t.flush();
    t.delete().eq("sensor", 0).execute();
    t.insert()
        .value("sensor", 5)
        .value("at", 0)
        .value("i", 100)
        .ttl(Duration.ofSeconds(10))
        .execute();
    assertThat(t.select().count()).isEqualTo(rows - rows / 3 + 1L);
    assertThat(t.select().sum("i")).isEqualTo(rows - rows / 3 + 100);
    clock.advance(Duration.ofSeconds(11));
    assertThat(t.select().count()).isEqualTo(rows - rows / 3);
    assertThat(t.select().eq("sensor", 1).count()).isEqualTo(rows / 3);
  }

  @Test
  void refusals() {
    assertThatThrownBy(() -> t.select().eq("sensor", 1).limit(3).count())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("cannot be combined with limit");
    assertThatThrownBy(() -> t.select().eq("sensor", 1).pageSize(3).sum("i"))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("pageSize");
    assertThatThrownBy(() -> t.select().eq("sensor", 1).sum("txt"))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("sum needs a numeric column; txt of readings is text");
    assertThatThrownBy(() -> t.select().eq("sensor", 1).avg("nope"))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("nope");
  }
}
