package dev.talus.testkit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The testkit is a user of Talus: it sees the public API in dev.talus and nothing below it. */
class ArchitectureTest {
  @Test
  void usesOnlyThePublicApi() {
    JavaClasses testkit =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.talus.testkit");
    noClasses()
        .that()
        .resideInAPackage("dev.talus.testkit..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.talus.engine..",
            "dev.talus.io..",
            "dev.talus.data..",
            "dev.talus.sstable..",
            "dev.talus.compaction..",
            "dev.talus.memtable..",
            "dev.talus.commitlog..",
            "dev.talus.codec..",
            "dev.talus.metrics..")
        .check(testkit);
  }
}
