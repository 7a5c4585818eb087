package dev.talus.cql;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.members;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayList;
import java.util.List;
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

  /**
   * The public API ({@code dev.talus.cql}) uses the parser and the executor, but no public member
   * of it names one of their types: they stay internal and may change.
   */
  @Test
  void thePublicPackageExposesNoInternals() {
    ArchCondition<JavaMember> namesNoInternalType =
        new ArchCondition<>("name no type of dev.talus.cql's internal packages") {
          @Override
          public void check(JavaMember m, ConditionEvents events) {
            List<JavaClass> types = new ArrayList<>();
            if (m instanceof JavaCodeUnit u) {
              types.addAll(u.getRawParameterTypes());
              types.add(u.getRawReturnType());
              types.addAll(u.getThrowsClause().getTypes());
            } else if (m instanceof JavaField f) {
              types.add(f.getRawType());
            }
            for (JavaClass t : types) {
              if (t.getPackageName().startsWith("dev.talus.cql.")) {
                events.add(SimpleConditionEvent.violated(m, m.getFullName() + " names " + t));
              }
            }
          }
        };
    members()
        .that()
        .areDeclaredInClassesThat()
        .resideInAPackage("dev.talus.cql")
        .and()
        .areDeclaredInClassesThat()
        .arePublic()
        .and()
        .arePublic()
        .should(namesNoInternalType)
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
