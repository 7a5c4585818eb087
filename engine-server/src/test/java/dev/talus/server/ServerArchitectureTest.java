package dev.talus.server;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The server is a user of engine-cql and of the engine: it sees their public packages only, and the
 * codec does not reach up into the connection handling.
 */
class ServerArchitectureTest {
  private static final JavaClasses CLASSES =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.talus.server");

  @Test
  void usesOnlyThePublicApiOfEngineCqlAndTheEngine() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.talus.cql.exec..", "dev.talus.cql.parse..", "dev.talus.db..")
        .check(CLASSES);
  }

  @Test
  void theWireCodecDoesNotDependOnTheServer() {
    noClasses()
        .that()
        .resideInAPackage("dev.talus.server.wire..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.talus.server")
        .check(CLASSES);
  }
}
