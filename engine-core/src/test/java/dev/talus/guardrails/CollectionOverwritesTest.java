package dev.talus.guardrails;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.CollectionThresholds;
import dev.talus.DataType;
import dev.talus.ManualClock;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusMetricsListener;
import dev.talus.TalusMetricsListener.WarningKind;
import dev.talus.TalusOptions;
import dev.talus.UserType;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run-time lint rule "collections written by whole overwrite": a table whose writes keep
 * replacing whole collections gets one data-model warning per column per open.
 */
class CollectionOverwritesTest {
  @TempDir Path dir;
  private final ManualClock clock = ManualClock.startingAtDefault();
  private final List<String> warnings = new CopyOnWriteArrayList<>();
  private TalusDb db;
  private Table t;

  static final UserType ADDRESS =
      UserType.builder("address").field("street", DataType.TEXT).field("zip", DataType.INT).build();

  @BeforeEach
  void open() {
    db = open(dir);
    db.createTypeIfNotExists(ADDRESS);
    t =
        db.createTable(
            TableSchema.builder("profiles")
                .partitionKey("id", DataType.INT)
                .column("tags", DataType.set(DataType.TEXT))
                .column("prefs", DataType.map(DataType.TEXT, DataType.TEXT))
                .column("frozen_tags", DataType.frozen(DataType.set(DataType.TEXT)))
                .column("address", DataType.udt(ADDRESS))
                .build());
  }

  private TalusDb open(Path d) {
    return TalusDb.open(
        TalusOptions.builder(d)
            .clock(clock)
            .backgroundCompaction(false)
            .collectionThresholds(CollectionThresholds.OFF)
            .metricsListener(
                new TalusMetricsListener() {
                  @Override
                  public void onWarning(String table, WarningKind kind, String message) {
                    if (kind == WarningKind.DATA_MODEL && message.contains("replaced whole")) {
                      warnings.add(message);
                    }
                  }
                })
            .build());
  }

  @AfterEach
  void close() {
    db.close();
  }

  private void insertTags(int from, int to) {
    for (int i = from; i < to; i++) {
      t.insert().value("id", i).value("tags", Set.of("a", "b")).execute();
    }
  }

  @Test
  void aThousandWholeReplacementsWarnOncePerColumn() {
    insertTags(0, 999);
    assertThat(warnings).isEmpty();
    insertTags(999, 1000);
    assertThat(warnings)
        .singleElement()
        .asString()
        .contains("table profiles: column tags (set<text>) was replaced whole by 1000 writes")
        .contains("written element by element by 0")
        .contains("collection tombstone")
        .contains("make the column frozen");
    insertTags(1000, 3000);
    assertThat(warnings).hasSize(1);
  }

  @Test
  void updatesThatReplaceCountAndSoDoUserTypes() {
    for (int i = 0; i < 1000; i++) {
      t.update().where("id", 1).set("prefs", Map.of("k", "v" + i)).execute();
      t.update()
          .where("id", 1)
          .set("address", ADDRESS.value(Map.of("street", "s" + i, "zip", i)))
          .execute();
    }
    assertThat(warnings).hasSize(2);
    assertThat(warnings.get(0)).contains("column prefs");
    assertThat(warnings.get(1)).contains("column address");
  }

  @Test
  void elementWritesKeepTheWarningAway() {
    for (int i = 0; i < 1000; i++) {
      t.insert().value("id", i).value("tags", Set.of("a")).execute();
      if (i % 9 == 0) {
        t.update().where("id", i).add("tags", Set.of("b")).execute();
      }
    }
    // 112 element-wise writes for 1000 replacements: more than one in ten
    assertThat(warnings).isEmpty();
    for (int i = 0; i < 3000; i++) {
      t.update().where("id", i).add("tags", Set.of("c")).remove("tags", Set.of("a")).execute();
    }
    assertThat(warnings).isEmpty();
  }

  @Test
  void frozenValuesNullsAndDeletionsAreNotReplacements() {
    for (int i = 0; i < 1000; i++) {
      t.insert().value("id", i).value("frozen_tags", Set.of("a")).execute();
      t.update().where("id", i).set("tags", null).execute();
      t.delete().eq("id", i).columns("prefs").execute();
    }
    assertThat(warnings).isEmpty();
  }

  @Test
  void theCountStartsAgainAfterAReopen() {
    insertTags(0, 1000);
    assertThat(warnings).hasSize(1);
    db.close();
    db = open(dir);
    t = db.table("profiles");
    insertTags(0, 999);
    assertThat(warnings).hasSize(1);
    insertTags(999, 1000);
    assertThat(warnings).hasSize(2);
  }
}
