package dev.talus.guardrails;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.CollectionThresholds;
import dev.talus.DataType;
import dev.talus.GuardrailViolationException;
import dev.talus.InvalidSchemaException;
import dev.talus.ManualClock;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusMetricsListener;
import dev.talus.TalusMetricsListener.GuardrailKind;
import dev.talus.TalusMetricsListener.WarningKind;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Collection size guardrails (elements and bytes per collection), as Cassandra 5.0's
 * GuardrailItemsPerCollectionTest and GuardrailCollectionSizeTest exercise them: a write is judged
 * by what it writes, an SSTable write by what each stored non-frozen collection holds.
 */
class CollectionGuardrailsTest {
  @TempDir Path dir;
  private final ManualClock clock = ManualClock.startingAtDefault();
  private final List<String> guardrails = new CopyOnWriteArrayList<>();
  private final List<String> warnings = new CopyOnWriteArrayList<>();
  private TalusDb db;
  private Table t;

  private final TalusMetricsListener recorder =
      new TalusMetricsListener() {
        @Override
        public void onGuardrail(String table, GuardrailKind kind, String key) {
          guardrails.add(kind + " " + key);
        }

        @Override
        public void onWarning(String table, WarningKind kind, String message) {
          if (kind == WarningKind.GUARDRAIL) {
            warnings.add(message);
          }
        }
      };

  private void open(CollectionThresholds thresholds) {
    TalusOptions.Builder b =
        TalusOptions.builder(dir)
            .clock(clock)
            .backgroundCompaction(false)
            .metricsListener(recorder);
    if (thresholds != null) {
      b.collectionThresholds(thresholds);
    }
    db = TalusDb.open(b.build());
    t =
        db.createTable(
            TableSchema.builder("videos")
                .partitionKey("id", DataType.INT)
                .clusteringColumn("seq", DataType.INT)
                .column("tags", DataType.set(DataType.TEXT))
                .column("attrs", DataType.map(DataType.TEXT, DataType.TEXT))
                .column("history", DataType.list(DataType.TEXT))
                .column("frozen_tags", DataType.frozen(DataType.list(DataType.INT)))
                .staticColumn("owner_tags", DataType.set(DataType.TEXT))
                .build());
  }

  @AfterEach
  void close() {
    if (db != null) {
      db.close();
    }
  }

  private static Set<String> tags(int n) {
    Set<String> s = new LinkedHashSet<>();
    for (int i = 0; i < n; i++) {
      s.add("tag" + i);
    }
    return s;
  }

  private void insertTags(int id, int seq, int n) {
    t.insert().value("id", id).value("seq", seq).value("tags", tags(n)).execute();
  }

  private Object tagsOf(int id, int seq) {
    return t.select().eq("id", id).eq("seq", seq).one().map(r -> r.get("tags")).orElse(null);
  }

  @Test
  void aWriteOverTheItemsWarningIsWarnedAboutAndOneOverTheFailureIsRefused() {
    open(new CollectionThresholds(4, 8, 0, 0));
    insertTags(1, 1, 4);
    assertThat(warnings).isEmpty();

    insertTags(1, 2, 5);
    assertThat(warnings).hasSize(1);
    assertThat(warnings.get(0))
        .contains("Collection tags of table videos at partition (id=1) row (seq=2)")
        .contains("has 5 elements, over the warning threshold of 4 in one write")
        .contains("items_per_collection_warn_threshold");
    assertThat(guardrails).containsExactly("COLLECTION_ITEMS_WARN (id=1)");

    assertThatThrownBy(() -> insertTags(1, 3, 9))
        .isInstanceOf(GuardrailViolationException.class)
        .hasMessageContaining("write to table videos at partition (id=1) row (seq=3) refused")
        .hasMessageContaining("it writes 9 elements to collection tags, over the limit of 8")
        .hasMessageContaining("items_per_collection_fail_threshold")
        .hasMessageContaining("Nothing was written");
    assertThat(tagsOf(1, 3)).isNull();
    assertThat(t.select().eq("id", 1).execute().rows()).hasSize(2);
    assertThat(t.stats().guardrailWarnings()).isEqualTo(1);
    assertThat(t.stats().guardrailFailures()).isEqualTo(1);
    assertThat(guardrails).endsWith("COLLECTION_ITEMS_FAIL (id=1)");

    // the refused write is not in the commit log either
    db.close();
    db = TalusDb.open(TalusOptions.builder(dir).clock(clock).build());
    t = db.table("videos");
    assertThat(tagsOf(1, 3)).isNull();
    assertThat(tagsOf(1, 2)).isEqualTo(tags(5));
  }

  @Test
  void appendsAreJudgedByWhatTheyAddAndTheStoredCollectionIsWarnedAboutAtFlush() {
    open(new CollectionThresholds(4, 5, 0, 0));
    insertTags(1, 1, 3);
    t.update().where("id", 1).where("seq", 1).add("tags", Set.of("x", "y", "z")).execute();
    assertThat(tagsOf(1, 1))
        .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.COLLECTION)
        .hasSize(6);
    // six elements stored, over the failure threshold of five: not refused, Cassandra's rule
    // (no read before write); no warning either, each write added three
    assertThat(warnings).isEmpty();

    t.flush();
    assertThat(warnings).hasSize(1);
    assertThat(warnings.get(0))
        .contains("Collection tags of table videos at partition (id=1) row (seq=1)")
        .contains("has 6 elements, over the warning threshold of 4 in an SSTable just written");
    t.flush();
    t.compact(); // the same collection again: warned once per open
    assertThat(warnings).hasSize(1);
    assertThat(t.stats().guardrailWarnings()).isEqualTo(1);
  }

  @Test
  void compactionMeasuresTheMergedCollection() {
    open(new CollectionThresholds(4, 0, 0, 0));
    insertTags(1, 1, 3);
    t.flush();
    t.update().where("id", 1).where("seq", 1).add("tags", Set.of("x", "y")).execute();
    t.flush();
    assertThat(warnings).isEmpty();
    t.compact();
    assertThat(warnings).singleElement().asString().contains("has 5 elements");
  }

  @Test
  void cellsOfADroppedColumnAreSkippedAndTheRowsOtherCollectionsStillMeasured() {
    open(new CollectionThresholds(4, 0, 0, 0));
    // tags (declared before history) gets cells, then is dropped while they are in the memtable;
    // history grows past the warning by appends, so only the flush can see it
    insertTags(1, 1, 2);
    t.update().where("id", 1).where("seq", 1).add("history", List.of("a", "b", "c")).execute();
    t.update().where("id", 1).where("seq", 1).add("history", List.of("d", "e")).execute();
    t.alter().dropColumn("tags").apply();
    assertThat(warnings).isEmpty();

    t.flush();
    assertThat(warnings)
        .singleElement()
        .asString()
        .contains("Collection history of table videos at partition (id=1) row (seq=1)")
        .contains("has 5 elements, over the warning threshold of 4 in an SSTable just written");
  }

  @Test
  void deletedExpiredAndOverwrittenElementsAreNotCountedAtFlush() {
    open(new CollectionThresholds(4, 0, 0, 0));
    insertTags(1, 1, 3);
    t.update()
        .where("id", 1)
        .where("seq", 1)
        .add("tags", Set.of("a", "b"))
        .ttl(Duration.ofSeconds(10))
        .execute();
    insertTags(2, 1, 4);
    t.update().where("id", 2).where("seq", 1).add("tags", Set.of("a", "b")).execute();
    t.update().where("id", 2).where("seq", 1).remove("tags", Set.of("a", "b")).execute();
    insertTags(3, 1, 4);
    t.update().where("id", 3).where("seq", 1).add("tags", Set.of("a")).execute();
    insertTags(3, 1, 2); // an overwrite: the collection tombstone shadows the older elements
    clock.advance(Duration.ofSeconds(11));
    t.flush();
    assertThat(warnings).isEmpty();
  }

  @Test
  void removingElementsIsNeverRefused() {
    open(new CollectionThresholds(0, 2, 0, 0));
    insertTags(1, 1, 2);
    t.update().where("id", 1).where("seq", 1).remove("tags", tags(10)).execute();
    assertThat(tagsOf(1, 1)).isNull();
    assertThat(t.stats().guardrailFailures()).isZero();
  }

  @Test
  void bytesCountPathValueAndCellOverheadForEveryCollectionKind() {
    open(new CollectionThresholds(0, 0, 200, 1000));
    String big = "v".repeat(990);
    t.insert().value("id", 1).value("seq", 1).value("attrs", Map.of("k", "small")).execute();
    assertThat(warnings).isEmpty();

    // one element, 990 bytes of value: path + value + 16 is over 1000 only with its overhead
    assertThatThrownBy(
            () ->
                t.insert()
                    .value("id", 1)
                    .value("seq", 2)
                    .value("attrs", Map.of("k", big))
                    .execute())
        .isInstanceOf(GuardrailViolationException.class)
        .hasMessageContaining("to collection attrs, over the limit of 1000 bytes")
        .hasMessageContaining("collection_size_fail_threshold");
    assertThatThrownBy(
            () ->
                t.insert().value("id", 1).value("seq", 2).value("history", List.of(big)).execute())
        .isInstanceOf(GuardrailViolationException.class)
        .hasMessageContaining("to collection history");

    t.insert().value("id", 1).value("seq", 3).value("history", List.of("v".repeat(300))).execute();
    assertThat(warnings)
        .singleElement()
        .asString()
        .contains("Collection history")
        .contains("bytes, over the warning threshold of 200 bytes")
        .contains("collection_size_warn_threshold");
    assertThat(guardrails).endsWith("COLLECTION_SIZE_WARN (id=1)");
  }

  @Test
  void aFrozenCollectionIsMeasuredAsTheWholeValueWritten() {
    open(new CollectionThresholds(2, 3, 0, 0));
    List<Integer> four = List.of(1, 2, 3, 4);
    assertThatThrownBy(
            () -> t.insert().value("id", 1).value("seq", 1).value("frozen_tags", four).execute())
        .isInstanceOf(GuardrailViolationException.class)
        .hasMessageContaining("it writes 4 elements to collection frozen_tags");
    t.insert().value("id", 1).value("seq", 1).value("frozen_tags", List.of(1, 2, 3)).execute();
    assertThat(warnings).singleElement().asString().contains("frozen_tags").contains("3 elements");
  }

  @Test
  void aStaticCollectionIsNamedAsTheStaticRow() {
    open(new CollectionThresholds(2, 0, 0, 0));
    t.update().where("id", 7).add("owner_tags", tags(3)).execute();
    assertThat(warnings)
        .singleElement()
        .asString()
        .contains("Collection owner_tags of table videos at partition (id=7) (static row)");
  }

  @Test
  void eachCollectionOfARowIsJudgedOnItsOwn() {
    open(new CollectionThresholds(3, 0, 0, 0));
    // three of each: the row holds nine elements in all, no collection is over
    t.insert()
        .value("id", 1)
        .value("seq", 1)
        .value("tags", tags(3))
        .value("history", List.of("a", "b", "c"))
        .value("attrs", Map.of("a", "1", "b", "2", "c", "3"))
        .execute();
    t.flush();
    assertThat(warnings).isEmpty();
    t.insert()
        .value("id", 1)
        .value("seq", 2)
        .value("tags", tags(4))
        .value("history", List.of("a", "b", "c", "d", "e"))
        .execute();
    assertThat(warnings).hasSize(2);
    assertThat(warnings.get(0)).contains("Collection tags").contains("4 elements");
    assertThat(warnings.get(1)).contains("Collection history").contains("5 elements");
  }

  @Test
  void theDefaultsWarnPastAThousandElementsAndRefuseNothing() {
    assertThat(TalusOptions.builder(dir).build().collectionThresholds())
        .isEqualTo(CollectionThresholds.DEFAULT)
        .isEqualTo(new CollectionThresholds(1000, 0, 1L << 20, 0));
    open(null);
    insertTags(1, 1, 1000);
    assertThat(warnings).isEmpty();
    insertTags(1, 2, 5000);
    assertThat(warnings).singleElement().asString().contains("5000 elements");
    assertThat(t.stats().guardrailFailures()).isZero();
  }

  @Test
  void offChecksNothing() {
    open(CollectionThresholds.OFF);
    insertTags(1, 1, 5000);
    t.flush();
    assertThat(warnings).isEmpty();
  }

  @Test
  void thresholdsAreValidated() {
    assertThatThrownBy(() -> new CollectionThresholds(-1, 0, 0, 0))
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("itemsPerCollectionThresholds");
    assertThatThrownBy(() -> new CollectionThresholds(0, 0, 10, 5))
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("collectionSizeThresholds need warn <= fail");
    assertThat(new CollectionThresholds(5, 5, 0, 7).bytesFail()).isEqualTo(7);
  }
}
