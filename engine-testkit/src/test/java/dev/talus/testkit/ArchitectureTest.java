package dev.talus.testkit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The testkit is a user of Talus: it sees the public API in dev.talus and nothing below it, except
 * that {@link FaultInjector} runs a database over the fault-injecting file layer through the
 * engine's one non-public storage hook.
 */
class ArchitectureTest {
  private static final JavaClasses TESTKIT =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.talus.testkit");

  /** Classes of the engine that are not public API: every package under dev.talus but these. */
  private static final DescribedPredicate<JavaClass> ENGINE_INTERNAL =
      DescribedPredicate.describe(
          "internal classes of the engine",
          c ->
              c.getPackageName().startsWith("dev.talus.")
                  && !c.getPackageName().startsWith("dev.talus.testkit"));

  /** What the fault injector may use below the API. */
  private static final Set<String> FAULT_INJECTOR_MAY_USE =
      Set.of(
          "dev.talus.db.StorageHook",
          "dev.talus.db.StorageHook$Api",
          "dev.talus.io.NioStorageFs",
          "dev.talus.io.StorageFs",
          "dev.talus.testfs.FaultInjectingFs",
          "dev.talus.testfs.FaultInjectingFs$Fault");

  @Test
  void usesOnlyThePublicApi() {
    noClasses()
        .that()
        .resideInAPackage("dev.talus.testkit..")
        .and()
        .doNotHaveFullyQualifiedName(FaultInjector.class.getName())
        .and(
            DescribedPredicate.describe(
                "are not nested in FaultInjector",
                c -> !c.getName().startsWith(FaultInjector.class.getName() + "$")))
        .should()
        .dependOnClassesThat(ENGINE_INTERNAL)
        .check(TESTKIT);
  }

  @Test
  void theFaultInjectorReachesTheEngineOnlyThroughTheStorageHook() {
    noClasses()
        .that()
        .haveFullyQualifiedName(FaultInjector.class.getName())
        .should()
        .dependOnClassesThat(
            DescribedPredicate.describe(
                "internal classes other than the storage hook and the file layers",
                c -> ENGINE_INTERNAL.test(c) && !FAULT_INJECTOR_MAY_USE.contains(c.getName())))
        .check(TESTKIT);
  }
}
