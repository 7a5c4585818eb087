package dev.talus.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.DataType;
import dev.talus.SSTableSummary;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.testkit.Explanation.Kind;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The tombstone explainer on collections: collection tombstones (a deleted or replaced whole
 * collection), element tombstones, expired elements, and elements a newer collection tombstone
 * shadows.
 */
class CollectionTombstoneExplainerTest {
  @RegisterExtension static final TalusExtension talus = TalusExtension.create();

  private Table table(Duration gcGrace) {
    return talus
        .db()
        .createTable(
            TableSchema.builder("t")
                .partitionKey("k", DataType.TEXT)
                .clusteringColumn("c", DataType.INT)
                .column("tags", DataType.set(DataType.TEXT))
                .column("prefs", DataType.map(DataType.TEXT, DataType.INT))
                .gcGrace(gcGrace)
                .build());
  }

  private static List<StoredTombstone> ofKind(Table t, StoredTombstone.Kind kind) {
    return TombstoneExplainer.tombstones(t, "a").stream().filter(x -> x.kind() == kind).toList();
  }

  @Test
  void aWholeValueWriteLeavesACollectionTombstoneOneMicrosecondBeforeIt() {
    TalusTestDb db = talus.db();
    Table t = table(Duration.ofDays(10));
    t.insert()
        .value("k", "a")
        .value("c", 1)
        .value("tags", Set.of("x", "y"))
        .timestamp(1000)
        .execute();
    db.flush(t);
    StoredTombstone ct = ofKind(t, StoredTombstone.Kind.COLLECTION_TOMBSTONE).get(0);
    assertThat(ct.column()).isEqualTo("tags");
    assertThat(ct.element()).isNull();
    assertThat(ct.timestampMicros()).isEqualTo(999);
    assertThat(ct.describe()).isEqualTo("collection tombstone tags (c=1)");
    Explanation e = db.explain(t, "a");
    assertThat(e.toString())
        .contains("collection tombstone tags (c=1): gc_grace ends at 2026-01-11T00:00:00Z")
        .contains("purgeable by a compaction from 2026-01-11T00:00:01Z");
    assertThat(e.has(Kind.GC_GRACE_NOT_PASSED)).isTrue();

    db.advancePastGcGrace(t);
    assertThat(db.explain(t, "a").has(Kind.NOT_COMPACTED_SINCE_PURGEABLE)).isTrue();
    db.compactAll(t);
    assertThat(db.explain(t, "a").isEmpty()).isTrue();
    assertThat(t.select().eq("k", "a").one().orElseThrow().get("tags")).isEqualTo(Set.of("x", "y"));
  }

  @Test
  void removedElementsAndMapKeysAreNamed() {
    TalusTestDb db = talus.db();
    Table t = table(Duration.ofHours(1));
    t.update().where("k", "a").where("c", 1).add("tags", Set.of("x", "y")).execute();
    t.update().where("k", "a").where("c", 1).put("prefs", "dark", 1).execute();
    t.update().where("k", "a").where("c", 1).remove("tags", Set.of("x")).execute();
    t.update().where("k", "a").where("c", 1).remove("prefs", Set.of("dark")).execute();
    db.flush(t);
    assertThat(ofKind(t, StoredTombstone.Kind.CELL_TOMBSTONE))
        .extracting(StoredTombstone::describe)
        .containsExactlyInAnyOrder(
            "cell tombstone tags['x'] (c=1)", "cell tombstone prefs['dark'] (c=1)");
    assertThat(ofKind(t, StoredTombstone.Kind.COLLECTION_TOMBSTONE)).isEmpty();
    assertThat(db.explain(t, "a").toString())
        .contains("2 × cell tombstone: gc_grace ends at 2026-01-01T01:00:00Z");
  }

  @Test
  void anExpiredElementIsExplainedLikeAnExpiredCell() {
    TalusTestDb db = talus.db();
    Table t = table(Duration.ofHours(2));
    t.update().where("k", "a").where("c", 1).add("tags", Set.of("keep")).execute();
    t.update()
        .where("k", "a")
        .where("c", 1)
        .add("tags", Set.of("short"))
        .ttl(Duration.ofMinutes(10))
        .execute();
    db.flush(t);
    db.advancePastTtl(Duration.ofMinutes(10));
    assertThat(db.explain(t, "a").toString())
        .contains("expired TTL cell tags['short'] (c=1): gc_grace ends at 2026-01-01T02:00:00Z")
        .contains("an expired cell counts as deleted at its write time");
    assertThat(TombstoneExplainer.tombstones(t, "a"))
        .extracting(StoredTombstone::kind)
        .containsExactly(StoredTombstone.Kind.EXPIRED_CELL);
  }

  @Test
  void elementsOfAReplacedCollectionInAnOlderSSTableAreShadowedData() {
    TalusTestDb db = talus.db();
    Table t = table(Duration.ofSeconds(60));
    t.update().where("k", "a").where("c", 1).add("tags", Set.of("x", "y")).execute();
    SSTableSummary older = db.flush(t);
    t.update().where("k", "a").where("c", 1).set("tags", Set.of("z")).execute();
    SSTableSummary newer = db.flush(t);
    db.advancePastGcGrace(t);
    Explanation e = db.explain(t, "a");
    assertThat(e.toString())
        .contains(
            "sstable "
                + older.generation()
                + ": still holds 2 collection elements (of a collection deleted or replaced"
                + " whole) shadowed by deletions in sstable "
                + newer.generation())
        .contains(
            "sstable "
                + newer.generation()
                + ": sstable "
                + older.generation()
                + " overlaps and holds older data for this partition")
        .contains("collection tombstone tags (c=1) must stay while it does");
    db.compactAll(t);
    assertThat(db.explain(t, "a").isEmpty()).isTrue();
    assertThat(t.select().eq("k", "a").one().orElseThrow().get("tags")).isEqualTo(Set.of("z"));
  }
}
