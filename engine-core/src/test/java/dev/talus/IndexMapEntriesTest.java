package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code entries(m)} indexes and {@code m[k] = v} reads ({@link Select#mapEntry}): served without
 * {@code allowFiltering()}, equal to the filtering read, never returning an entry that was
 * overwritten, removed, replaced with the whole map or expired; refused as Cassandra refuses them
 * on frozen and non-map columns, and filtering on an unindexed map needs the opt-in.
 */
class IndexMapEntriesTest {
  @TempDir Path dir;
  private final ManualClock clock = ManualClock.startingAtDefault();

  private TalusDb open() {
    return TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
  }

  private static TableSchema schema() {
    return TableSchema.builder("t")
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT)
        .column("m", DataType.map(DataType.TEXT, DataType.INT))
        .column("u", DataType.map(DataType.TEXT, DataType.INT))
        .column("fm", DataType.frozen(DataType.map(DataType.TEXT, DataType.INT)))
        .column("x", DataType.INT)
        .build();
  }

  private static List<String> keys(ResultSet rs) {
    List<String> out = new ArrayList<>();
    rs.rows().forEach(r -> out.add(r.getInt("p") + "/" + r.getInt("c")));
    return out;
  }

  private static void put(Table t, int p, int c, String k, int v) {
    t.update().put("m", k, v).put("u", k, v).where("p", p).where("c", c).execute();
  }

  /** The entries read through the index of m, checked against the filtering read of u. */
  private static List<String> both(Table t, String k, int v) {
    List<String> indexed = keys(t.select().mapEntry("m", k, v).execute());
    assertThat(indexed)
        .as("m[" + k + "] = " + v)
        .isEqualTo(keys(t.select().mapEntry("u", k, v).allowFiltering().execute()));
    return indexed;
  }

  @Test
  void anEntriesIndexServesMapEntryEqualityAndNeverReturnsStaleEntries() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("t_me", "m").withTarget(IndexDef.Target.ENTRIES));
      for (int i = 0; i < 30; i++) {
        put(t, i % 4, i, "k" + (i % 3), i % 5);
        if (i % 10 == 9) {
          t.flush();
        }
      }
      assertThat(both(t, "k1", 2)).hasSize(2); // i = 7, 22
      assertThat(both(t, "k9", 2)).isEmpty();
      put(t, 3, 7, "k1", 4); // an element overwritten (7 % 4 = 3)
      assertThat(both(t, "k1", 2)).containsExactly("2/22");
      t.flush();
      t.update()
          .remove("m", Set.of("k1"))
          .remove("u", Set.of("k1"))
          .where("p", 2)
          .where("c", 22)
          .execute(); // an element removed
      assertThat(both(t, "k1", 2)).isEmpty();
      assertThat(both(t, "k1", 4)).contains("3/7");
      t.update()
          .set("m", Map.of("z", 1))
          .set("u", Map.of("z", 1))
          .where("p", 3)
          .where("c", 7)
          .execute(); // the whole map replaced
      assertThat(both(t, "k1", 4)).doesNotContain("3/7");
      assertThat(both(t, "z", 1)).containsExactly("3/7");
      t.update()
          .put("m", "ttl", 5)
          .put("u", "ttl", 5)
          .where("p", 0)
          .where("c", 0)
          .ttl(Duration.ofSeconds(10))
          .execute(); // an element with its own TTL
      t.flush();
      assertThat(both(t, "ttl", 5)).containsExactly("0/0");
      clock.advance(Duration.ofSeconds(11));
      assertThat(both(t, "ttl", 5)).isEmpty();
      t.compact();
      assertThat(both(t, "z", 1)).containsExactly("3/7");
      assertThat(both(t, "k0", 0)).containsExactlyInAnyOrder("0/0", "3/15");
      // AND with the partition key, and with a second entry of the same map
      assertThat(keys(t.select().eq("p", 0).mapEntry("m", "k0", 0).execute()))
          .containsExactly("0/0");
      assertThat(keys(t.select().mapEntry("m", "k0", 0).mapEntry("m", "k1", 0).execute()))
          .isEmpty();
    }
  }

  @Test
  void anEntriesIndexBuiltOnExistingDataAnswersLikeTheFilteringRead() throws Exception {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      for (int i = 0; i < 40; i++) {
        put(t, i % 5, i, "k" + (i % 4), i % 3);
      }
      t.flush();
      t.createIndex(IndexDef.sai("t_me", "m").withTarget(IndexDef.Target.ENTRIES));
      assertThat(t.awaitIndexBuilt("t_me", Duration.ofMinutes(2))).isTrue();
      for (int k = 0; k < 4; k++) {
        for (int v = 0; v < 3; v++) {
          both(t, "k" + k, v);
        }
      }
      assertThat(both(t, "k2", 1)).isNotEmpty();
    }
  }

  @Test
  void mapEntryRestrictionsAreRefusedAsCassandraRefusesThem() {
    try (TalusDb db = open()) {
      Table t = db.createTable(schema());
      assertThatThrownBy(() -> t.select().mapEntry("u", "k", 1).execute())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("restricts [u] but not the partition key");
      assertThatThrownBy(() -> t.select().mapEntry("fm", "k", 1).allowFiltering().execute())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessage("Map-entry equality predicates on frozen map column fm are not supported");
      assertThatThrownBy(() -> t.select().mapEntry("x", "k", 1).allowFiltering().execute())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessage("Column x cannot be used as a map");
      assertThatThrownBy(
              () -> t.createIndex(IndexDef.sai("t_fe", "fm").withTarget(IndexDef.Target.ENTRIES)))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("Cannot create entries() index on frozen column fm");
      assertThatThrownBy(
              () -> t.createIndex(IndexDef.sai("t_xe", "x").withTarget(IndexDef.Target.ENTRIES)))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining("Non-collection columns only support simple indexes");
      // a keys() or values() index does not serve m[k] = v
      t.createIndex(IndexDef.sai("t_mk", "m").withTarget(IndexDef.Target.KEYS));
      assertThatThrownBy(() -> t.select().mapEntry("m", "k", 1).execute())
          .isInstanceOf(InvalidQueryException.class);
      t.createIndex(IndexDef.sai("t_me", "m").withTarget(IndexDef.Target.ENTRIES));
      assertThat(t.indexes()).hasSize(2);
      assertThat(t.select().mapEntry("m", "k", 1).execute().rows()).isEmpty();
    }
  }
}
