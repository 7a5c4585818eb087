package dev.talus.commitlog;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The commit log touches files only through StorageFs and never reads the wall clock or sleeps. */
class CommitLogArchitectureTest {
  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.talus.commitlog");

  @Test
  void onlyTheFileLayerTouchesFiles() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.nio.channels.FileChannel")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.nio.file.Files")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("java.io.RandomAccessFile")
        .check(MAIN);
  }

  @Test
  void noWallClockAndNoSleeping() {
    noClasses()
        .should()
        .callMethod(System.class, "currentTimeMillis")
        .orShould()
        .callMethod(Thread.class, "sleep", long.class)
        .check(MAIN);
  }
}
