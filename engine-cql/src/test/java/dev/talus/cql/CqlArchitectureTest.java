package dev.talus.cql;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The layering of engine-cql (main classes only). */
class CqlArchitectureTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.talus.cql");
  }

  @Test
  void theImportSeesTheModule() {
    assertThat(classes.stream().map(c -> c.getPackageName()).distinct().toList())
        .contains("dev.talus.cql", "dev.talus.cql.parse", "dev.talus.cql.parse.ast");
  }

  @Test
  void engineCqlUsesOnlyThePublicApiOfEngineCore() {
    noClasses()
        .that()
        .resideInAPackage("dev.talus.cql..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.talus.engine..",
            "dev.talus.codec..",
            "dev.talus.commitlog..",
            "dev.talus.memtable..",
            "dev.talus.metrics..",
            "dev.talus.data..",
            "dev.talus.io..",
            "dev.talus.sstable..",
            "dev.talus.compaction..")
        .check(classes);
  }

  @Test
  void theSyntaxTreeDependsOnNothingElseOfTheModule() {
    noClasses()
        .that()
        .resideInAPackage("dev.talus.cql.parse.ast")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.talus.cql.parse", "dev.talus.cql")
        .check(classes);
  }

  @Test
  void thePublicPackageExposesNoInternals() {
    noClasses()
        .that()
        .resideInAPackage("dev.talus.cql")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.talus.cql.parse..")
        .check(classes);
  }

  @Test
  void noPackageCycles() {
    slices().matching("dev.talus.cql.(**)").should().beFreeOfCycles().check(classes);
  }

  @Test
  void noMutableStaticStateNoClockNoConsole() {
    noClasses()
        .that()
        .resideInAPackage("dev.talus.cql..")
        .should()
        .callMethod(System.class, "currentTimeMillis")
        .orShould()
        .callMethod(System.class, "nanoTime")
        .orShould()
        .accessField(System.class, "out")
        .orShould()
        .accessField(System.class, "err")
        .check(classes);
    com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields()
        .that()
        .areDeclaredInClassesThat()
        .resideInAPackage("dev.talus.cql..")
        .and()
        .areStatic()
        .should()
        .beFinal()
        .check(classes);
    classes()
        .that()
        .resideInAPackage("dev.talus.cql.parse.ast")
        .and()
        .areRecords()
        .should()
        .haveModifier(JavaModifier.FINAL)
        .check(classes);
  }
}
