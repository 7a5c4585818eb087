package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Writes and reads through the public API: liveness, tombstones, timestamps, TTL, types. */
class WriteReadTest {
  @TempDir Path dir;
  private final ManualClock clock = ManualClock.startingAtDefault();
  private TalusDb db;
  private Table t;

  @BeforeEach
  void open() {
    db = TalusDb.open(TalusOptions.builder(dir).clock(clock).build());
    t =
        db.createTable(
            TableSchema.builder("kv")
                .partitionKey("k", DataType.TEXT)
                .clusteringColumn("c", DataType.INT)
                .column("v", DataType.TEXT)
                .column("w", DataType.INT)
                .build());
  }

  @AfterEach
  void close() {
    db.close();
  }

  private Optional<ResultRow> row(Table table, String k, int c) {
    return table.select().eq("k", k).eq("c", c).one();
  }

  @Test
  void insertCreatesRowLivenessThatOutlivesItsColumns() {
    t.insert().value("k", "a").value("c", 1).value("v", "x").execute();
    t.delete().eq("k", "a").eq("c", 1).columns("v").execute();
    ResultRow r = row(t, "a", 1).orElseThrow();
    assertThat(r.isNull("v")).isTrue();
    assertThat(r.isNull("w")).isTrue();
    assertThat(r.getInt("c")).isEqualTo(1);
  }

  @Test
  void insertOfOnlyKeyColumnsMakesAVisibleRow() {
    t.insert().value("k", "a").value("c", 1).execute();
    assertThat(row(t, "a", 1)).isPresent();
  }

  @Test
  void updateDoesNotCreateRowLiveness() {
    t.update().where("k", "a").where("c", 1).set("v", "x").execute();
    assertThat(row(t, "a", 1)).get().extracting(r -> r.getString("v")).isEqualTo("x");
    t.delete().eq("k", "a").eq("c", 1).columns("v").execute();
    assertThat(row(t, "a", 1)).isEmpty();
    assertThat(t.select().eq("k", "a").execute().rows()).isEmpty();
  }

  @Test
  void updateSettingItsOnlyCellToNullRemovesTheRow() {
    t.update().where("k", "a").where("c", 1).set("v", "x").execute();
    t.update().where("k", "a").where("c", 1).set("v", null).execute();
    assertThat(row(t, "a", 1)).isEmpty();
  }

  @Test
  void settingAColumnToNullWritesATombstone() {
    t.insert().value("k", "a").value("c", 1).value("v", "x").timestamp(100).execute();
    t.insert().value("k", "a").value("c", 1).value("v", null).timestamp(200).execute();
    assertThat(row(t, "a", 1)).get().extracting(r -> r.getString("v")).isNull();
    // The null is a tombstone, not an absence: an older write cannot bring the value back.
    t.update().where("k", "a").where("c", 1).set("v", "old").timestamp(150).execute();
    assertThat(row(t, "a", 1)).get().extracting(r -> r.getString("v")).isNull();
    assertThat(t.lastReadTombstoneCount()).isEqualTo(1);
    // A newer write wins over the tombstone.
    t.update().where("k", "a").where("c", 1).set("v", "new").timestamp(250).execute();
    assertThat(row(t, "a", 1)).get().extracting(r -> r.getString("v")).isEqualTo("new");
  }

  @Test
  void lastWriteWinsByTimestampNotByArrivalOrder() {
    t.insert().value("k", "a").value("c", 1).value("v", "newer").timestamp(2_000).execute();
    t.insert().value("k", "a").value("c", 1).value("v", "older").timestamp(1_000).execute();
    ResultRow r = row(t, "a", 1).orElseThrow();
    assertThat(r.getString("v")).isEqualTo("newer");
    assertThat(r.writeTime("v")).isEqualTo(2_000L);
  }

  @Test
  void equalTimestampsBreakTiesDeterministicallyByValue() {
    t.insert().value("k", "a").value("c", 1).value("v", "b").timestamp(1_000).execute();
    t.insert().value("k", "a").value("c", 1).value("v", "a").timestamp(1_000).execute();
    t.insert().value("k", "b").value("c", 1).value("v", "a").timestamp(1_000).execute();
    t.insert().value("k", "b").value("c", 1).value("v", "b").timestamp(1_000).execute();
    assertThat(row(t, "a", 1).orElseThrow().getString("v")).isEqualTo("b");
    assertThat(row(t, "b", 1).orElseThrow().getString("v")).isEqualTo("b");
  }

  @Test
  void deleteWithAnOlderTimestampDoesNotRemoveNewerData() {
    t.insert().value("k", "a").value("c", 1).value("v", "x").timestamp(2_000).execute();
    t.delete().eq("k", "a").eq("c", 1).timestamp(1_999).execute();
    t.delete().eq("k", "a").timestamp(1_000).execute();
    t.delete().eq("k", "a").eq("c", 1).columns("v").timestamp(1_500).execute();
    assertThat(row(t, "a", 1)).get().extracting(r -> r.getString("v")).isEqualTo("x");
  }

  @Test
  void deleteWithAnEqualTimestampWins() {
    t.insert().value("k", "a").value("c", 1).value("v", "x").timestamp(2_000).execute();
    t.insert().value("k", "a").value("c", 2).value("v", "y").timestamp(2_000).execute();
    t.insert().value("k", "b").value("c", 1).value("v", "z").timestamp(2_000).execute();
    t.delete().eq("k", "a").eq("c", 1).timestamp(2_000).execute();
    t.delete().eq("k", "a").eq("c", 2).columns("v").timestamp(2_000).execute();
    t.delete().eq("k", "b").timestamp(2_000).execute();
    assertThat(row(t, "a", 1)).isEmpty();
    assertThat(row(t, "a", 2)).get().extracting(r -> r.getString("v")).isNull();
    assertThat(row(t, "b", 1)).isEmpty();
  }

  @Test
  void writeTimeAndTtlAreReportedPerColumn() {
    t.insert()
        .value("k", "a")
        .value("c", 1)
        .value("v", "x")
        .value("w", 7)
        .timestamp(123_456)
        .ttl(Duration.ofSeconds(100))
        .execute();
    t.update().where("k", "a").where("c", 1).set("w", 8).timestamp(200_000).execute();
    clock.advance(Duration.ofSeconds(30));
    ResultRow r = row(t, "a", 1).orElseThrow();
    assertThat(r.writeTime("v")).isEqualTo(123_456L);
    assertThat(r.ttl("v")).isEqualTo(70);
    assertThat(r.writeTime("w")).isEqualTo(200_000L);
    assertThat(r.ttl("w")).isNull();
  }

  @Test
  void writeTimeDefaultsToTheClockInMicroseconds() {
    t.insert().value("k", "a").value("c", 1).value("v", "x").execute();
    long micros = clock.instant().getEpochSecond() * 1_000_000L;
    assertThat(row(t, "a", 1).orElseThrow().writeTime("v")).isEqualTo(micros);
    assertThat(row(t, "a", 1).orElseThrow().writeTime("w")).isNull();
  }

  @Test
  void ttlExpiresExactlyAtExpiryNotBefore() {
    t.insert().value("k", "a").value("c", 1).value("v", "x").ttl(Duration.ofSeconds(60)).execute();
    clock.advance(Duration.ofSeconds(59));
    ResultRow r = row(t, "a", 1).orElseThrow();
    assertThat(r.getString("v")).isEqualTo("x");
    assertThat(r.ttl("v")).isEqualTo(1);
    clock.advance(Duration.ofSeconds(1));
    assertThat(row(t, "a", 1)).isEmpty();
    assertThat(t.select().eq("k", "a").execute().rows()).isEmpty();
  }

  @Test
  void ttlOnOneColumnLeavesTheRestOfAnInsertedRow() {
    t.insert().value("k", "a").value("c", 1).value("w", 1).execute();
    t.update().where("k", "a").where("c", 1).set("v", "x").ttl(Duration.ofSeconds(10)).execute();
    clock.advance(Duration.ofSeconds(10));
    ResultRow r = row(t, "a", 1).orElseThrow();
    assertThat(r.isNull("v")).isTrue();
    assertThat(r.getInt("w")).isEqualTo(1);
  }

  private Table ttlTable() {
    return db.createTable(
        TableSchema.builder("ttl_t")
            .partitionKey("k", DataType.TEXT)
            .clusteringColumn("c", DataType.INT)
            .column("v", DataType.TEXT)
            .defaultTimeToLive(Duration.ofSeconds(100))
            .build());
  }

  @Test
  void tableDefaultTtlApplies() {
    Table tt = ttlTable();
    tt.insert().value("k", "a").value("c", 1).value("v", "x").execute();
    tt.update().where("k", "a").where("c", 2).set("v", "y").execute();
    assertThat(row(tt, "a", 1).orElseThrow().ttl("v")).isEqualTo(100);
    assertThat(row(tt, "a", 2).orElseThrow().ttl("v")).isEqualTo(100);
    clock.advance(Duration.ofSeconds(99));
    assertThat(tt.select().eq("k", "a").execute().size()).isEqualTo(2);
    clock.advance(Duration.ofSeconds(1));
    assertThat(tt.select().eq("k", "a").execute().rows()).isEmpty();
  }

  @Test
  void explicitTtlOverridesTheTableDefault() {
    Table tt = ttlTable();
    tt.insert()
        .value("k", "a")
        .value("c", 1)
        .value("v", "x")
        .ttl(Duration.ofSeconds(500))
        .execute();
    clock.advance(Duration.ofSeconds(100));
    assertThat(row(tt, "a", 1).orElseThrow().ttl("v")).isEqualTo(400);
    clock.advance(Duration.ofSeconds(400));
    assertThat(row(tt, "a", 1)).isEmpty();
  }

  @Test
  void ttlZeroMeansNoExpiryEvenWithATableDefault() {
    Table tt = ttlTable();
    tt.insert().value("k", "a").value("c", 1).value("v", "x").ttl(Duration.ZERO).execute();
    assertThat(row(tt, "a", 1).orElseThrow().ttl("v")).isNull();
    clock.advance(Duration.ofDays(365));
    assertThat(row(tt, "a", 1)).get().extracting(r -> r.getString("v")).isEqualTo("x");
  }

  @Test
  void compositePartitionKeysIdentifyPartitionsByEveryColumn() {
    Table c =
        db.createTable(
            TableSchema.builder("composite")
                .partitionKey("a", DataType.TEXT)
                .partitionKey("b", DataType.INT)
                .clusteringColumn("c", DataType.INT)
                .column("v", DataType.TEXT)
                .build());
    c.insert().value("a", "x").value("b", 1).value("c", 0).value("v", "x1").execute();
    c.insert().value("a", "x").value("b", 2).value("c", 0).value("v", "x2").execute();
    c.insert().value("a", "x1").value("b", 1).value("c", 0).value("v", "x11").execute();
    assertThat(c.select().eq("a", "x").eq("b", 1).execute().rows())
        .extracting(r -> r.getString("v"))
        .containsExactly("x1");
    assertThat(c.select().eq("a", "x").eq("b", 2).execute().rows())
        .extracting(r -> r.getString("v"))
        .containsExactly("x2");
    assertThat(c.select().eq("a", "x1").eq("b", 1).execute().rows())
        .extracting(r -> r.getString("v"))
        .containsExactly("x11");
    ResultRow r = c.select().eq("a", "x").eq("b", 2).one().orElseThrow();
    assertThat(r.getString("a")).isEqualTo("x");
    assertThat(r.getInt("b")).isEqualTo(2);
    c.delete().eq("a", "x").eq("b", 1).execute();
    assertThat(c.select().eq("a", "x").eq("b", 1).execute().rows()).isEmpty();
    assertThat(c.select().eq("a", "x").eq("b", 2).execute().rows()).hasSize(1);
  }

  @Test
  void tablesWithoutClusteringColumnsHoldOneRowPerPartition() {
    Table s =
        db.createTable(
            TableSchema.builder("single")
                .partitionKey("id", DataType.UUID)
                .column("v", DataType.TEXT)
                .column("n", DataType.INT)
                .build());
    UUID a = new UUID(1, 1);
    UUID b = new UUID(2, 2);
    s.insert().value("id", a).value("v", "one").value("n", 1).execute();
    s.insert().value("id", a).value("v", "uno").execute();
    s.update().where("id", b).set("n", 2).execute();
    assertThat(s.select().eq("id", a).execute().rows()).hasSize(1);
    ResultRow ra = s.select().eq("id", a).one().orElseThrow();
    assertThat(ra.getString("v")).isEqualTo("uno");
    assertThat(ra.getInt("n")).isEqualTo(1);
    assertThat(s.select().eq("id", b).one().orElseThrow().getInt("n")).isEqualTo(2);
    s.delete().eq("id", a).columns("v", "n").execute();
    assertThat(s.select().eq("id", a).one()).get().extracting(r -> r.get("v")).isNull();
    s.delete().eq("id", a).execute();
    assertThat(s.select().eq("id", a).one()).isEmpty();
    s.delete().eq("id", b).columns("n").execute();
    assertThat(s.select().eq("id", b).one()).isEmpty();
  }

  // ---------------- every data type ----------------

  private static InetAddress inet(String s) {
    try {
      return InetAddress.getByName(s);
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
  }

  private static UUID timeUuid(long epochSecond) {
    return new TimeUuidGenerator(new ManualClock(Instant.ofEpochSecond(epochSecond))).next();
  }

  /** Each type with distinct values in its documented natural (ascending) order. */
  static Stream<Arguments> typesInOrder() {
    return Stream.of(
        Arguments.of(DataType.TEXT, List.of("", "A", "a", "ab", "é", "\uFFFF", "😀")),
        Arguments.of(DataType.ASCII, List.of("", "A", "Z", "a", "az", "b")),
        Arguments.of(DataType.BOOLEAN, List.of(false, true)),
        Arguments.of(
            DataType.TINYINT, List.of(Byte.MIN_VALUE, (byte) -1, (byte) 0, (byte) 1, (byte) 127)),
        Arguments.of(
            DataType.SMALLINT,
            List.of(Short.MIN_VALUE, (short) -300, (short) 0, (short) 300, Short.MAX_VALUE)),
        Arguments.of(DataType.INT, List.of(Integer.MIN_VALUE, -1, 0, 1, 65_536, Integer.MAX_VALUE)),
        Arguments.of(DataType.BIGINT, List.of(Long.MIN_VALUE, -1L, 0L, 1L, Long.MAX_VALUE)),
        Arguments.of(
            DataType.VARINT,
            List.of(
                new BigInteger("-123456789012345678901234567890"),
                BigInteger.valueOf(-256),
                BigInteger.valueOf(-1),
                BigInteger.ZERO,
                BigInteger.valueOf(255),
                new BigInteger("98765432109876543210987654321"))),
        Arguments.of(
            DataType.FLOAT,
            List.of(
                Float.NEGATIVE_INFINITY,
                -1.5f,
                -0.0f,
                0.0f,
                Float.MIN_VALUE,
                2.25f,
                Float.POSITIVE_INFINITY,
                Float.NaN)),
        Arguments.of(
            DataType.DOUBLE,
            List.of(
                Double.NEGATIVE_INFINITY,
                -1e300,
                -0.0,
                0.0,
                Double.MIN_VALUE,
                3.5,
                Double.POSITIVE_INFINITY,
                Double.NaN)),
        Arguments.of(
            DataType.DECIMAL,
            List.of(
                new BigDecimal("-1000.5"),
                new BigDecimal("-1"),
                new BigDecimal("-0.001"),
                BigDecimal.ZERO,
                new BigDecimal("0.000123"),
                new BigDecimal("1"),
                new BigDecimal("1.5"),
                new BigDecimal("12345678901234567890.25"))),
        Arguments.of(
            DataType.BLOB,
            List.of(
                new byte[0],
                new byte[] {0},
                new byte[] {0, 0},
                new byte[] {0, 1},
                new byte[] {1},
                new byte[] {(byte) 0x7f},
                new byte[] {(byte) 0x80},
                new byte[] {(byte) 0xff, (byte) 0xff})),
        Arguments.of(
            DataType.UUID,
            List.of(
                new UUID(0, 0),
                new UUID(0, 1),
                new UUID(0, -1),
                new UUID(1, 0),
                new UUID(Long.MAX_VALUE, 0),
                new UUID(Long.MIN_VALUE, 0),
                new UUID(-1, -1))),
        Arguments.of(
            DataType.TIMEUUID,
            List.of(
                timeUuid(0), timeUuid(1_000), timeUuid(1_700_000_000), timeUuid(4_000_000_000L))),
        Arguments.of(
            DataType.TIMESTAMP,
            List.of(
                Instant.parse("1900-01-01T00:00:00Z"),
                Instant.parse("1969-12-31T23:59:59.999Z"),
                Instant.EPOCH,
                Instant.parse("2026-01-01T00:00:00.001Z"),
                Instant.parse("2300-06-15T12:00:00Z"))),
        Arguments.of(
            DataType.DATE,
            List.of(
                LocalDate.of(1, 1, 1),
                LocalDate.of(1969, 12, 31),
                LocalDate.of(1970, 1, 1),
                LocalDate.of(2026, 9, 1),
                LocalDate.of(9999, 12, 31))),
        Arguments.of(
            DataType.TIME,
            List.of(
                LocalTime.MIDNIGHT,
                LocalTime.ofNanoOfDay(1),
                LocalTime.of(9, 30),
                LocalTime.of(12, 0, 0, 500),
                LocalTime.MAX)),
        Arguments.of(
            DataType.INET,
            List.of(
                inet("0.0.0.0"),
                inet("10.0.0.1"),
                inet("255.255.255.255"),
                inet("::"),
                inet("::1"),
                inet("fe80::1"),
                inet("ffff::"))));
  }

  /**
   * A printable form that compares like the type's equality (arrays by content, decimals by value).
   */
  private static String show(Object v) {
    if (v instanceof byte[] b) {
      return Arrays.toString(b);
    }
    if (v instanceof BigDecimal d) {
      return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
    }
    if (v instanceof Float f) {
      return Float.isNaN(f) ? "NaN" : Integer.toHexString(Float.floatToIntBits(f));
    }
    if (v instanceof Double d) {
      return Double.isNaN(d) ? "NaN" : Long.toHexString(Double.doubleToLongBits(d));
    }
    return String.valueOf(v);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("typesInOrder")
  void everyKeyableTypeRoundTripsAsARegularColumn(DataType type, List<Object> values) {
    roundTripRegular(type, values);
  }

  @Test
  void durationRoundTripsAsARegularColumn() {
    roundTripRegular(
        DataType.DURATION,
        List.of(
            DurationValue.of(0, 0, 0),
            DurationValue.of(1, 2, 3),
            DurationValue.of(-1, -2, -3_000_000_000L),
            DurationValue.of(Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE)));
  }

  @Test
  void decimalRegularColumnKeepsItsScale() {
    roundTripRegular(DataType.DECIMAL, List.of(new BigDecimal("1.50"), new BigDecimal("1.500")));
    Table r = db.table("reg_decimal");
    assertThat(r.select().eq("k", 0).one().orElseThrow().getDecimal("v"))
        .isEqualTo(new BigDecimal("1.50"));
  }

  private void roundTripRegular(DataType type, List<Object> values) {
    Table r =
        db.createTable(
            TableSchema.builder("reg_" + type.cqlName())
                .partitionKey("k", DataType.INT)
                .column("v", type)
                .build());
    for (int i = 0; i < values.size(); i++) {
      r.insert().value("k", i).value("v", values.get(i)).execute();
    }
    for (int i = 0; i < values.size(); i++) {
      Object got = r.select().eq("k", i).one().orElseThrow().get("v");
      assertThat(got).isInstanceOf(type.javaType());
      if (type == DataType.DECIMAL) {
        assertThat(got).isEqualTo(values.get(i)); // exact, scale included
      } else {
        assertThat(show(got)).as("%s value %d", type, i).isEqualTo(show(values.get(i)));
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("typesInOrder")
  void everyKeyableTypeRoundTripsAsAClusteringColumnInBothOrders(
      DataType type, List<Object> ascending) {
    List<String> expected = ascending.stream().map(WriteReadTest::show).toList();
    List<String> descending = new ArrayList<>(expected);
    Collections.reverse(descending);
    for (ClusteringOrder order : ClusteringOrder.values()) {
      Table ck =
          db.createTable(
              TableSchema.builder("ck_" + type.cqlName() + "_" + order.name().toLowerCase())
                  .partitionKey("k", DataType.INT)
                  .clusteringColumn("c", type, order)
                  .column("v", DataType.INT)
                  .build());
      List<Integer> shuffled = new ArrayList<>();
      for (int i = 0; i < ascending.size(); i++) {
        shuffled.add(i);
      }
      Collections.shuffle(shuffled, new Random(42));
      for (int i : shuffled) {
        ck.insert().value("k", 1).value("c", ascending.get(i)).value("v", i).execute();
      }
      List<ResultRow> rows = ck.select().eq("k", 1).execute().rows();
      for (ResultRow r : rows) {
        assertThat(r.get("c")).isInstanceOf(type.javaType());
        assertThat(show(r.get("c"))).isEqualTo(show(ascending.get(r.getInt("v"))));
      }
      List<String> got = rows.stream().map(r -> show(r.get("c"))).toList();
      assertThat(got)
          .as("%s %s", type, order)
          .isEqualTo(order == ClusteringOrder.ASC ? expected : descending);
      List<String> rev =
          ck.select().eq("k", 1).reversed().execute().rows().stream()
              .map(r -> show(r.get("c")))
              .toList();
      assertThat(rev).isEqualTo(order == ClusteringOrder.ASC ? descending : expected);
      // Point lookups by each value find exactly that row.
      for (int i = 0; i < ascending.size(); i++) {
        assertThat(ck.select().eq("k", 1).eq("c", ascending.get(i)).execute().rows())
            .extracting(r -> r.getInt("v"))
            .containsExactly(i);
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("typesInOrder")
  void everyKeyableTypeWorksAsAPartitionKey(DataType type, List<Object> values) {
    Table pk =
        db.createTable(
            TableSchema.builder("pk_" + type.cqlName())
                .partitionKey("k", type)
                .column("v", DataType.INT)
                .build());
    for (int i = 0; i < values.size(); i++) {
      if (isEmpty(values.get(i))) {
        // As in Cassandra, an empty value is not a partition key on its own ("Key may not be
        // empty"); it is fine as a clustering value or a composite key component.
        int v = i;
        assertThatThrownBy(() -> pk.insert().value("k", values.get(v)).value("v", v).execute())
            .isInstanceOf(InvalidQueryException.class)
            .hasMessageContaining("Key may not be empty");
        continue;
      }
      pk.insert().value("k", values.get(i)).value("v", i).execute();
    }
    for (int i = 0; i < values.size(); i++) {
      if (isEmpty(values.get(i))) {
        continue;
      }
      ResultRow r = pk.select().eq("k", values.get(i)).one().orElseThrow();
      assertThat(r.getInt("v")).isEqualTo(i);
      assertThat(show(r.get("k"))).isEqualTo(show(values.get(i)));
    }
  }

  private static boolean isEmpty(Object v) {
    return (v instanceof String str && str.isEmpty()) || (v instanceof byte[] b && b.length == 0);
  }
}
