package dev.talus.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.ManualClock;
import dev.talus.TalusDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class TalusExtensionTest {
  @RegisterExtension static final TalusExtension talus = TalusExtension.create();
  static final List<Path> seen = new ArrayList<>();

  @RepeatedTest(3)
  void eachTestGetsAFreshDatabase() {
    TalusTestDb db = talus.db();
    assertThat(db.db().tables()).isEmpty(); // nothing from the previous repetition
    db.createTable(TalusTestDbTest.schema(java.time.Duration.ofDays(1)));
    assertThat(db.now()).isEqualTo(TalusTestDb.DEFAULT_START);
    db.advance(java.time.Duration.ofDays(3));
    assertThat(seen).doesNotContain(db.directory());
    seen.add(db.directory());
  }

  @Test
  void parametersAreTheSameDatabase(TalusTestDb db, TalusDb raw, ManualClock clock) {
    assertThat(db).isSameAs(talus.db());
    assertThat(raw).isSameAs(db.db());
    assertThat(clock).isSameAs(db.clock());
  }

  @AfterAll
  static void directoriesWereDeleted() {
    assertThat(seen).hasSize(3).allMatch(p -> !Files.exists(p));
  }
}
