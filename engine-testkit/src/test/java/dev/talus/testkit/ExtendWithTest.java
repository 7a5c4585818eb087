package dev.talus.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.CommitLogSync;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TalusExtension.class)
class ExtendWithTest {
  @Test
  void injectsATestDatabase(TalusTestDb db) {
    assertThat(db.options().backgroundCompaction()).isFalse();
    assertThat(db.options().commitLogSync()).isEqualTo(CommitLogSync.PERIODIC);
    assertThat(db.now()).isEqualTo(TalusTestDb.DEFAULT_START);
  }
}
