package dev.talus.bench;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * engine-bench is a user of Talus and sees only the public API (dev.talus, engine-cql's
 * dev.talus.cql, engine-server's dev.talus.server and the test support's dev.talus.testkit and
 * dev.talus.testkit.server, which ServerStartup measures). It is an application assembled into a
 * shaded (flat class path) jar, so it has no module descriptor; this rule draws the boundary that
 * the engine's module descriptor draws for modular users.
 */
class ArchitectureTest {
  @Test
  void usesOnlyThePublicApi() {
    noClasses()
        .that()
        .resideInAPackage("dev.talus.bench..")
        .should()
        .dependOnClassesThat(
            DescribedPredicate.describe(
                "internal classes of the engine",
                (JavaClass c) ->
                    c.getPackageName().startsWith("dev.talus.")
                        && !c.getPackageName().startsWith("dev.talus.bench")
                        && !c.getPackageName().equals("dev.talus.cql")
                        && !c.getPackageName().equals("dev.talus.server")
                        && !c.getPackageName().equals("dev.talus.testkit")
                        && !c.getPackageName().equals("dev.talus.testkit.server")))
        .check(
            new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.talus.bench"));
  }
}
