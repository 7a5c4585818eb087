package dev.talus.tools;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * engine-tools is a user of Talus and sees only the public API (and the public APIs of the server,
 * {@code dev.talus.server}, and of the CQL layer, {@code dev.talus.cql}, not their internals). It
 * is an application assembled into a shaded (flat class path) jar, so it has no module descriptor;
 * this rule draws the boundary that the engine's module descriptor draws for modular users.
 */
class ArchitectureTest {
  @Test
  void usesOnlyThePublicApi() {
    noClasses()
        .that()
        .resideInAPackage("dev.talus.tools..")
        .should()
        .dependOnClassesThat(
            DescribedPredicate.describe(
                "internal classes of the engine",
                (JavaClass c) ->
                    c.getPackageName().startsWith("dev.talus.")
                        && !c.getPackageName().startsWith("dev.talus.tools")
                        // the native protocol server's and the CQL layer's public APIs
                        && !c.getPackageName().equals("dev.talus.server")
                        && !c.getPackageName().equals("dev.talus.cql")))
        .check(
            new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.talus.tools"));
  }
}
